import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SiemSink, startSiemSink } from '../services/siem-sink.js';
import { eventually } from '../support/eventually.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { createWebhook, fastSiem, HEC_TOKEN, makeEvents, sequenced, WEBHOOK_SECRET } from './helpers.js';

const DELIVERIES = '/api/audit/siem/deliveries';
const DESTINATIONS = '/api/audit/siem/destinations';
const STATUSES = ['queued', 'delivering', 'retrying', 'delivered', 'failed', 'paused', 'discarded'];

let gateway: TestGateway;
let viewer: string;
const sinks: SiemSink[] = [];
const sink = async () => {
  const started = await startSiemSink({ secret: WEBHOOK_SECRET, hecToken: HEC_TOKEN });
  sinks.push(started);
  return started;
};

beforeAll(async () => {
  gateway = await startTestGateway(fastSiem());
  viewer = await gateway.tokenWithScopes(['audit:view']);
});
afterAll(async () => {
  await gateway.close();
  for (const started of sinks) await started.stop();
});

const deliveriesOf = async (destinationId: string, status?: string) =>
  (
    await gateway.call('GET', DELIVERIES, {
      query: { destinationId, limit: 100, ...(status ? { status } : {}) },
    })
  ).body.data as Record<string, unknown>[];

const destination = async (id: string) => (await gateway.call('GET', `${DESTINATIONS}/${id}`)).body.data;

describe('export to a webhook', () => {
  it('delivers every new event once, signed, in batches recorded as delivered', async () => {
    const receiver = await sink();
    const created = await createWebhook(gateway, receiver.webhookUrl, { batchSize: 2 });
    await makeEvents(gateway, 4, 'hook');
    await sequenced(gateway);
    const recorded = (
      await gateway.call('GET', '/api/audit/events', { query: { limit: 100 } })
    ).body.data.filter((event: { seq: number }) => event.seq > created.cursorSeq);
    await eventually(() => receiver.webhookEvents.length >= recorded.length, 'webhook delivery');
    const received = receiver.webhookEvents.map((event) => event.id);
    expect(received.sort()).toEqual(recorded.map((event: { id: string }) => event.id).sort());
    expect(receiver.rejectedSignatures).toBe(0);
    expect(receiver.requests[0]!.headers['content-type']).toBe('application/x-ndjson');

    const records = await eventually(async () => {
      const rows = await deliveriesOf(created.id, 'delivered');
      return rows.reduce((sum, row) => sum + (row.eventCount as number), 0) === recorded.length && rows;
    }, 'delivered records');
    for (const record of records) {
      expect(record).toMatchObject({
        status: 'delivered',
        attempts: 1,
        lastError: null,
        nextAttemptAt: null,
      });
      expect(record.eventCount).toBeLessThanOrEqual(2);
      expect(record.deliveredAt).toEqual(expect.any(String));
      expect(received).toContain(record.firstEventId);
      expect(received).toContain(record.lastEventId);
    }
    const health = (await destination(created.id)).health;
    expect(health).toMatchObject({ status: 'healthy', consecutiveFailures: 0 });
    expect(health.lastSuccessAt).toEqual(expect.any(String));
  });

  it('delivers to Splunk HEC as JSON events with the token header', async () => {
    const receiver = await sink();
    const created = await gateway.call('POST', DESTINATIONS, {
      body: {
        name: 'hec-export',
        kind: 'splunk_hec',
        url: receiver.baseUrl,
        token: HEC_TOKEN,
        sourcetype: 'infragate:test',
      },
    });
    await makeEvents(gateway, 2, 'hec');
    await eventually(() => receiver.hecEvents.length >= 2, 'HEC delivery');
    expect(receiver.hecEvents[0]).toMatchObject({
      source: 'infragate',
      sourcetype: 'infragate:test',
      time: expect.any(Number),
      event: { id: expect.any(String), action: expect.any(String), hash: expect.any(String) },
    });
    expect(receiver.requests[0]!.path).toBe('/services/collector/event');
    expect((await destination(created.body.data.id)).health.consecutiveFailures).toBe(0);
  });
});

describe('failures, retries and requeue', () => {
  it('retries a failing sink with backoff, marks the delivery failed after maxAttempts, and requeue delivers it', async () => {
    const receiver = await sink();
    receiver.mode = 'fail';
    const created = await createWebhook(gateway, receiver.webhookUrl, { maxAttempts: 3, batchSize: 1000 });
    await makeEvents(gateway, 1, 'fail');
    const [failed] = await eventually(
      () => deliveriesOf(created.id, 'failed').then((rows) => rows.length > 0 && rows),
      'failed',
    );
    expect(failed).toMatchObject({ attempts: 3, maxAttempts: 3, nextAttemptAt: null });
    expect(failed!.lastError).toContain('HTTP 503');
    expect(receiver.requests.length).toBeGreaterThanOrEqual(3);
    const health = (await destination(created.id)).health;
    expect(health.consecutiveFailures).toBeGreaterThanOrEqual(3);
    expect(health.lastError).toContain('503');

    receiver.mode = 'ok';
    const requeued = await gateway.call('POST', `${DELIVERIES}/${failed!.id}/requeue`, { body: {} });
    expect(requeued.status).toBe(200);
    expect(requeued.body.data).toMatchObject({
      id: failed!.id,
      destinationId: created.id,
      status: 'queued',
      attempts: 0,
    });
    await eventually(
      async () => (await gateway.call('GET', `${DELIVERIES}/${failed!.id}`)).body.data.status === 'delivered',
      'requeued delivery',
    );
    expect(receiver.webhookEvents.map((event) => event.id)).toContain(failed!.firstEventId);
  });

  it('clears the old lastError of a requeued delivery once it is delivered', async () => {
    const receiver = await sink();
    receiver.mode = 'fail';
    const created = await createWebhook(gateway, receiver.webhookUrl, { maxAttempts: 1, batchSize: 1000 });
    await makeEvents(gateway, 1, 'requeue-error');
    const [failed] = await eventually(
      () => deliveriesOf(created.id, 'failed').then((rows) => rows.length > 0 && rows),
      'failed',
    );
    receiver.mode = 'ok';
    await gateway.call('POST', `${DELIVERIES}/${failed!.id}/requeue`, { body: {} });
    const delivered = await eventually(async () => {
      const { data } = (await gateway.call('GET', `${DELIVERIES}/${failed!.id}`)).body;
      return data.status === 'delivered' && data;
    }, 'requeued delivery');
    expect(delivered.lastError).toBeNull();
  });

  it('answers 409 CONFLICT when the delivery is not failed', async () => {
    const receiver = await sink();
    const created = await createWebhook(gateway, receiver.webhookUrl);
    await makeEvents(gateway, 1, 'conflict');
    const [delivered] = await eventually(
      () => deliveriesOf(created.id, 'delivered').then((rows) => rows.length > 0 && rows),
      'delivered',
    );
    const result = await gateway.call('POST', `${DELIVERIES}/${delivered!.id}/requeue`, { body: {} });
    expectError(result, 409, 'CONFLICT');
    expect(result.body.details).toMatchObject({ reason: 'DELIVERY_NOT_REQUEUEABLE', status: 'delivered' });
  });

  it('answers 404 for an unknown or malformed delivery id, 401 without a token, 403 with only audit:view', async () => {
    expectError(
      await gateway.call('POST', `${DELIVERIES}/${crypto.randomUUID()}/requeue`, { body: {} }),
      404,
      'NOT_FOUND',
    );
    expectError(await gateway.call('POST', `${DELIVERIES}/x/requeue`, { body: {} }), 404, 'NOT_FOUND');
    expectError(
      await gateway.call('POST', `${DELIVERIES}/x/requeue`, { token: null, body: {} }),
      401,
      'UNAUTHORIZED',
    );
    expectError(
      await gateway.call('POST', `${DELIVERIES}/x/requeue`, { token: viewer, body: {} }),
      403,
      'FORBIDDEN',
    );
  });

  it('accepts a requeue without a body, and refuses a body that is not an object with 400', async () => {
    expectError(await gateway.call('POST', `${DELIVERIES}/${crypto.randomUUID()}/requeue`), 404, 'NOT_FOUND');
    expectValidationError(
      await gateway.call('POST', `${DELIVERIES}/${crypto.randomUUID()}/requeue`, { body: [1] }),
      [],
    );
  });
});

describe('disabled and deleted destinations', () => {
  it('batches the events of a disabled destination as paused deliveries and sends them once it is enabled', async () => {
    const receiver = await sink();
    const created = await createWebhook(gateway, receiver.webhookUrl, { enabled: false });
    await makeEvents(gateway, 2, 'paused');
    const paused = await eventually(
      () => deliveriesOf(created.id, 'paused').then((rows) => rows.length > 0 && rows),
      'paused',
    );
    expect(receiver.requests).toHaveLength(0);
    expect((await destination(created.id)).health.status).toBe('disabled');

    await gateway.call('PATCH', `${DESTINATIONS}/${created.id}`, { body: { enabled: true } });
    await eventually(
      async () => (await deliveriesOf(created.id)).every((row) => row.status === 'delivered'),
      'resumed',
    );
    expect(receiver.webhookEvents.map((event) => event.id)).toContain(paused[0]!.firstEventId);
  });

  it('pauses the waiting deliveries of a destination when it is disabled', async () => {
    const receiver = await sink();
    receiver.mode = 'fail';
    const created = await createWebhook(gateway, receiver.webhookUrl);
    await makeEvents(gateway, 1, 'disable');
    await eventually(() => deliveriesOf(created.id, 'retrying').then((rows) => rows.length > 0), 'retrying');
    await gateway.call('PATCH', `${DESTINATIONS}/${created.id}`, { body: { enabled: false } });
    const rows = await eventually(async () => {
      const all = await deliveriesOf(created.id);
      return all.every((row) => row.status === 'paused') && all;
    }, 'paused');
    expect(rows.map((row) => row.nextAttemptAt)).not.toContain(null);
  });

  it('discards the open deliveries of a deleted destination and keeps their records', async () => {
    const receiver = await sink();
    receiver.mode = 'fail';
    const created = await createWebhook(gateway, receiver.webhookUrl);
    await makeEvents(gateway, 1, 'discard');
    await eventually(() => deliveriesOf(created.id, 'retrying').then((rows) => rows.length > 0), 'retrying');
    const removed = await gateway.call('DELETE', `${DESTINATIONS}/${created.id}`);
    expect(removed.body.data.discardedDeliveries).toBeGreaterThan(0);
    const rows = await deliveriesOf(created.id);
    expect(rows.map((row) => row.status)).toEqual(
      Array(removed.body.data.discardedDeliveries).fill('discarded'),
    );
  });
});

describe('circuit breaker', () => {
  it('opens after consecutive failures, keeps batching new events without dropping them, and closes on success', async () => {
    const own = await startTestGateway(fastSiem({ circuitThreshold: 2, retryBaseMs: 300, retryMaxMs: 600 }));
    const receiver = await sink();
    try {
      receiver.mode = 'fail';
      const created = await createWebhook(own, receiver.webhookUrl, { batchSize: 1 });
      await makeEvents(own, 2, 'breaker');
      const opened = await eventually(async () => {
        const health = (await own.call('GET', `${DESTINATIONS}/${created.id}`)).body.data.health;
        return health.circuit === 'open' && health;
      }, 'circuit open');
      expect(opened.status).toBe('down');
      await makeEvents(own, 2, 'breaker-more');
      receiver.mode = 'ok';
      const all = await eventually(async () => {
        const rows = (await own.call('GET', DELIVERIES, { query: { destinationId: created.id, limit: 100 } }))
          .body.data;
        return (
          rows.length >= 5 && rows.every((row: { status: string }) => row.status === 'delivered') && rows
        );
      }, 'all delivered after recovery');
      const ids = new Set(receiver.webhookEvents.map((event) => event.id));
      for (const row of all) expect(ids.has(row.firstEventId)).toBe(true);
      const health = (await own.call('GET', `${DESTINATIONS}/${created.id}`)).body.data.health;
      expect(health).toMatchObject({ circuit: 'closed', status: 'healthy', consecutiveFailures: 0 });
    } finally {
      await own.close();
    }
  });
});

describe('GET /api/audit/siem/deliveries', () => {
  it('answers {data, pagination} newest first, paged by page and limit', async () => {
    const result = await gateway.call('GET', DELIVERIES, { token: viewer, query: { page: 1, limit: 2 } });
    expect(result.status).toBe(200);
    expect(result.body.data.length).toBeLessThanOrEqual(2);
    expect(result.body.pagination).toMatchObject({ page: 1, limit: 2 });
    expect(result.body.pagination.totalPages).toBe(Math.ceil(result.body.pagination.total / 2));
  });

  it('filters by status and by destination', async () => {
    const delivered = await gateway.call('GET', DELIVERIES, { query: { status: 'delivered', limit: 100 } });
    expect(new Set(delivered.body.data.map((row: { status: string }) => row.status))).toEqual(
      new Set(['delivered']),
    );
    const none = await gateway.call('GET', DELIVERIES, { query: { destinationId: crypto.randomUUID() } });
    expect(none.body).toEqual({ data: [], pagination: { page: 1, limit: 20, total: 0, totalPages: 0 } });
  });

  it('rejects an unknown status with 400 listing the allowed values', async () => {
    const result = await gateway.call('GET', DELIVERIES, { query: { status: 'lost' } });
    expectValidationError(result, ['status']);
    for (const status of STATUSES) expect(result.body.details[0].message).toContain(status);
  });

  it('rejects a destinationId that is not a uuid, and out-of-range page or limit, with 400', async () => {
    expectValidationError(await gateway.call('GET', DELIVERIES, { query: { destinationId: 'abc' } }), [
      'destinationId',
    ]);
    expectValidationError(await gateway.call('GET', DELIVERIES, { query: { page: 0 } }), ['page']);
    expectValidationError(await gateway.call('GET', DELIVERIES, { query: { limit: 101 } }), ['limit']);
    expectValidationError(await gateway.call('GET', DELIVERIES, { query: { limit: 'ten' } }), ['limit']);
  });

  it('refuses 401 without a token and 403 without audit:view', async () => {
    expectError(await gateway.call('GET', DELIVERIES, { token: null }), 401, 'UNAUTHORIZED');
    expectError(
      await gateway.call('GET', DELIVERIES, { token: await gateway.tokenWithScopes(['users:view']) }),
      403,
      'FORBIDDEN',
    );
  });

  it('answers one delivery by id, and 404 for unknown or malformed ids', async () => {
    const [first] = (await gateway.call('GET', DELIVERIES)).body.data;
    expect((await gateway.call('GET', `${DELIVERIES}/${first.id}`, { token: viewer })).body.data).toEqual(
      first,
    );
    expectError(await gateway.call('GET', `${DELIVERIES}/${crypto.randomUUID()}`), 404, 'NOT_FOUND');
    expectError(await gateway.call('GET', `${DELIVERIES}/nope`), 404, 'NOT_FOUND');
  });
});
