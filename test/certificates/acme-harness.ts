import { loadConfig } from '../../src/config.js';
import { type Pebble, type PebbleOptions, pebbleAvailable, startPebble } from '../services/pebble.js';
import { freePort } from '../services/peers.js';
import { eventually } from '../support/eventually.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

export const pebble = pebbleAvailable();
if (pebble.skipReason) console.warn(`skipping the ACME tests: ${pebble.skipReason}`);

export interface AcmeHarness {
  gateway: TestGateway;
  pebble: Pebble;
  /** POST /api/ssl-certificates/acme against this Pebble, answering the call's result. */
  order(body: Record<string, unknown>): ReturnType<TestGateway['call']>;
  /** Polls GET /api/ssl-certificates/{id} until `done` holds for the record, and answers it. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read records freely
  until(id: string, done: (certificate: any) => boolean, what: string, timeoutMs?: number): Promise<any>;
  close(): Promise<void>;
}

/**
 * A gateway listening on real loopback sockets and a Pebble that validates HTTP-01 against it and
 * whose directory the gateway trusts through INFRAGATE_ACME_CA_FILE (for ACME only). The ACME
 * worker runs every 100 ms and retries a failed order after 1 s.
 */
export async function startAcmeHarness(options: Omit<PebbleOptions, 'httpPort'> = {}): Promise<AcmeHarness> {
  const httpPort = await freePort();
  const ca = await startPebble({ ...options, httpPort });
  const defaults = loadConfig({});
  const gateway = await startTestGateway({
    acme: { ...defaults.acme, trustedCaFile: ca.tlsCaFile, intervalMs: 100, retryBaseSeconds: 1 },
  });
  await gateway.app.listen({ port: httpPort, host: '127.0.0.1' });
  let counter = 0;
  return {
    gateway,
    pebble: ca,
    order: (body) =>
      gateway.call('POST', '/api/ssl-certificates/acme', {
        body: {
          name: `acme-${++counter}`,
          accountEmail: 'ops@example.test',
          directoryUrl: ca.directoryUrl,
          ...body,
        },
      }),
    until: (id, done, what, timeoutMs = 30_000) =>
      eventually(
        async () => {
          const record = (await gateway.call('GET', `/api/ssl-certificates/${id}`)).body.data;
          return done(record) ? record : undefined;
        },
        what,
        timeoutMs,
      ),
    async close() {
      await gateway.close();
      await ca.stop();
    },
  };
}
