import type { TestGateway } from '../../support/gateway.js';
import type { SecretDestinationCase } from './case.js';

/**
 * SIEM destinations: the webhook's signing secret and the Splunk HEC token go to the destination's
 * URL. Syslog destinations hold no secret (TLS there is the server's certificate, checked against a
 * CA that is not secret), so they are no case. Once a new URL dropped the credential, the gateway
 * sends nothing to it at all until it is set again: the capture server sees no request.
 */
const PATH = '/api/audit/siem/destinations';

async function created(gateway: TestGateway, body: Record<string, unknown>): Promise<string> {
  const result = await gateway.call('POST', PATH, {
    body: { name: `walk-${crypto.randomUUID()}`, enabled: false, ...body },
  });
  if (result.status !== 201)
    throw new Error(`SIEM destination create answered ${result.status}: ${result.text}`);
  return `${PATH}/${result.body.data.id}`;
}

const testSend = (gateway: TestGateway, recordPath: string) => gateway.call('POST', `${recordPath}/test`);

/** A destination of `kind` whose credential (`secretField`) a new URL (`path` on the capture server) must drop. */
const destinationCase = (
  kind: string,
  secretField: 'secret' | 'token',
  secret: string,
  path: string,
): SecretDestinationCase => ({
  operation: `PATCH ${PATH}/{id}`,
  secret,
  secretField,
  create: (gateway, firstDestination) =>
    created(gateway, { kind, url: firstDestination, [secretField]: secret }),
  retarget: (gateway, recordPath, capture) =>
    gateway.call('PATCH', recordPath, { body: { url: `${capture.httpUrl}${path}` } }),
  use: testSend,
});

export const cases: SecretDestinationCase[] = [
  destinationCase('splunk_hec', 'token', 'walk-siem-hec-token-4b7d0c29', ''),
  destinationCase('webhook', 'secret', 'walk-siem-webhook-secret-91e3a6f5', '/audit'),
];
