import type { TestGateway } from '../../support/gateway.js';
import type { SecretDestinationCase } from './case.js';

/**
 * Notification channels: a webhook's signing secret and secret header values go to its URL, an
 * email channel's SMTP password to its server. A Slack-compatible channel is no case: its URL is
 * its only secret, so a change of destination always gives the new secret with it.
 */
const PATH = '/api/notifications/channels';

async function created(gateway: TestGateway, body: Record<string, unknown>): Promise<string> {
  const result = await gateway.call('POST', PATH, { body: { name: `walk-${crypto.randomUUID()}`, ...body } });
  if (result.status !== 201) throw new Error(`channel create answered ${result.status}: ${result.text}`);
  return `${PATH}/${result.body.data.id}`;
}

/** Host and port of a destination given as a URL (`http://127.0.0.1:8080`) or as `host:port`. */
function hostAndPort(destination: string): { host: string; port: number } {
  const url = new URL(destination.includes('://') ? destination : `tcp://${destination}`);
  return { host: url.hostname, port: Number(url.port) };
}

const testSend = (gateway: TestGateway, recordPath: string) => gateway.call('POST', `${recordPath}/test`);

/** A webhook holding one secret (`secretField`, stored as `body` says) that a new URL must drop. */
const webhookCase = (
  secretField: string,
  secret: string,
  body: Record<string, unknown>,
): SecretDestinationCase => ({
  operation: `PATCH ${PATH}/{id}`,
  secret,
  secretField,
  create: (gateway, firstDestination) =>
    created(gateway, { kind: 'webhook', url: firstDestination, ...body }),
  retarget: (gateway, recordPath, capture) =>
    gateway.call('PATCH', recordPath, { body: { url: `${capture.httpUrl}/notify` } }),
  use: testSend,
});

const HEADER_VALUE = 'walk-notify-header-value-5c0e8a17';
const SIGNING_SECRET = 'walk-notify-signing-secret-e24f9b63';
const SMTP_PASSWORD = 'walk-notify-smtp-password-7a1d3c58';

export const cases: SecretDestinationCase[] = [
  webhookCase('headers', HEADER_VALUE, { headers: { 'X-Receiver-Token': HEADER_VALUE } }),
  webhookCase('secret', SIGNING_SECRET, { secret: SIGNING_SECRET }),
  {
    // An HTTP capture server never greets an SMTP client, so the send stops there (after the
    // gateway's send timeout); the password's fate is in the answer (`droppedSecrets`), and
    // test/notifications/channels-api.test.ts follows it to a real SMTP server.
    operation: `PATCH ${PATH}/{id}`,
    secret: SMTP_PASSWORD,
    secretField: 'smtp.password',
    create: (gateway, firstDestination) =>
      created(gateway, {
        kind: 'email',
        smtp: { ...hostAndPort(firstDestination), username: 'walk', password: SMTP_PASSWORD },
        from: 'infragate@example.test',
        to: ['ops@example.test'],
      }),
    retarget: (gateway, recordPath, capture) =>
      gateway.call('PATCH', recordPath, { body: { smtp: { host: capture.host, port: capture.port } } }),
    use: testSend,
  },
];
