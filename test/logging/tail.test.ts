import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { openEventStreamClient } from './event-stream-client.js';
import { UNKNOWN } from './helpers.js';
import { logStore } from './log-store.js';

let gateway: TestGateway;
let store: ReturnType<typeof logStore>;
let baseUrl: string;
beforeAll(async () => {
  gateway = await startTestGateway();
  store = logStore(gateway);
  baseUrl = await gateway.listen();
});
afterAll(() => gateway.close());

const tailUrl = (environmentId: string, query = '') =>
  `${baseUrl}/api/logging/environments/${environmentId}/tail${query ? `?${query}` : ''}`;

async function openConnections(): Promise<number> {
  return new Promise((resolve, reject) =>
    gateway.app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  );
}

describe('live tail', () => {
  it('streams records ingested after it opened, as they arrive', async () => {
    const environment = await store.environment();
    const token = await store.token(environment.id);
    await store.ingest(token, { message: 'before the tail' });
    const tail = await openEventStreamClient(tailUrl(environment.id), gateway.adminToken);
    expect(tail.status).toBe(200);
    await store.ingest(token, [{ message: 'first' }, { message: 'second', level: 'warn', service: 'api' }]);
    const events = [await tail.next(), await tail.next()];
    expect(events.map((event) => [event.event, event.data.message])).toEqual([
      ['record', 'first'],
      ['record', 'second'],
    ]);
    expect(events[1]!.data).toMatchObject({ level: 'warn', service: 'api', fields: {} });
    expect(events[1]!.id).toBe(events[1]!.data.id);
    tail.close();
  });

  it('sends only the records that match its filters, the same ones search uses', async () => {
    const environment = await store.environment();
    const token = await store.token(environment.id);
    const tail = await openEventStreamClient(
      tailUrl(environment.id, 'level=error&service=api&q=timeout&field.region=eu'),
      gateway.adminToken,
    );
    await store.ingest(token, [
      { level: 'info', service: 'api', message: 'timeout', region: 'eu' },
      { level: 'error', service: 'web', message: 'timeout', region: 'eu' },
      { level: 'error', service: 'api', message: 'refused', region: 'eu' },
      { level: 'error', service: 'api', message: 'timeout', region: 'us' },
      { level: 'error', service: 'api', message: 'upstream timeout', region: 'eu' },
    ]);
    expect((await tail.next()).data.message).toBe('upstream timeout');
    await store.ingest(token, { level: 'error', service: 'api', message: 'timeout again', region: 'eu' });
    expect((await tail.next()).data.message).toBe('timeout again');
    tail.close();
  });

  it('does not send records of other environments', async () => {
    const [watched, other] = [await store.environment(), await store.environment()];
    const tail = await openEventStreamClient(tailUrl(watched.id), gateway.adminToken);
    await store.ingest(await store.token(other.id), { message: 'elsewhere' });
    await store.ingest(await store.token(watched.id), { message: 'here' });
    expect((await tail.next()).data.message).toBe('here');
    tail.close();
  });

  it('lets go of the connection when the client leaves', async () => {
    const environment = await store.environment();
    const tail = await openEventStreamClient(tailUrl(environment.id), gateway.adminToken);
    expect(await openConnections()).toBeGreaterThan(0);
    tail.close();
    await eventually(async () => (await openConnections()) === 0, 'the tail connection to close');
    expect(
      (await store.ingest(await store.token(environment.id), { message: 'nobody listens' })).status,
    ).toBe(200);
  });

  it('answers errors before streaming: 401, 403, 400, 404', async () => {
    const environment = await store.environment();
    const nobody = await gateway.tokenWithScopes([]);
    expectError(
      await gateway.call('GET', `/api/logging/environments/${environment.id}/tail`, { token: null }),
      401,
      'UNAUTHORIZED',
    );
    expectError(
      await gateway.call('GET', `/api/logging/environments/${environment.id}/tail`, { token: nobody }),
      403,
      'FORBIDDEN',
    );
    expectValidationError(
      await gateway.call('GET', `/api/logging/environments/${environment.id}/tail`, {
        query: { level: 'x' },
      }),
      ['level'],
    );
    expectError(await gateway.call('GET', `/api/logging/environments/${UNKNOWN}/tail`), 404, 'NOT_FOUND');
  });
});

describe('closing the gateway', () => {
  it('ends open tails instead of waiting for them', async () => {
    const own = await startTestGateway();
    const url = await own.listen();
    const environment = (await logStore(own).environment()).id;
    const tail = await openEventStreamClient(
      `${url}/api/logging/environments/${environment}/tail`,
      own.adminToken,
    );
    await own.close();
    await tail.ended;
    await expect(tail.next()).rejects.toThrow('the stream ended');
  });
});
