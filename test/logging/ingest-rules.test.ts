import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { logStore } from './log-store.js';

let gateway: TestGateway;
let store: ReturnType<typeof logStore>;
beforeAll(async () => {
  gateway = await startTestGateway();
  store = logStore(gateway);
});
afterAll(() => gateway.close());

const FIELDS = [
  { name: 'service', type: 'string', required: true },
  { name: 'latencyMs', type: 'number', required: true },
  { name: 'startedAt', type: 'timestamp', required: false },
  { name: 'user', type: 'object', required: false },
];

async function withSchema(onSchemaViolation?: string) {
  const schema = await store.schema(FIELDS);
  const environment = await store.environment({
    schemaId: schema.id,
    ...(onSchemaViolation ? { onSchemaViolation } : {}),
  });
  return { id: environment.id as string, token: await store.token(environment.id) };
}

const valid = { message: 'ok', service: 'api', latencyMs: 12 };

describe('schema validation', () => {
  it('rejects records that break the schema by default, naming each problem', async () => {
    const { id, token } = await withSchema();
    const result = await store.ingest(token, [
      valid,
      { message: 'no service', latencyMs: 1 },
      { message: 'text latency', service: 'api', latencyMs: 'slow' },
      { ...valid, user: 'alice' },
      { ...valid, startedAt: 'noon' },
    ]);
    expect(result.body.data).toMatchObject({ accepted: 1, rejected: 4, flagged: 0 });
    expect(result.body.data.errors).toEqual([
      { index: 1, path: ['service'], message: 'is required by the schema' },
      { index: 2, path: ['fields', 'latencyMs'], message: 'must be of type number' },
      { index: 3, path: ['fields', 'user'], message: 'must be of type object' },
      { index: 4, path: ['fields', 'startedAt'], message: expect.stringContaining('timestamp') },
    ]);
    expect(await store.records(id)).toHaveLength(1);
  });

  it('keeps records that break the schema, flagged with their violations, under keep', async () => {
    const { id, token } = await withSchema('keep');
    const result = await store.ingest(token, [valid, { message: 'no latency', service: 'api' }]);
    expect(result.body.data).toEqual({ accepted: 2, rejected: 0, flagged: 1, errors: [] });
    const flagged = (await store.records(id)).find((record) => record.message === 'no latency');
    expect(flagged!.violations).toEqual([
      { path: ['fields', 'latencyMs'], message: 'is required by the schema' },
    ]);
  });

  it('still rejects records no policy can store (a bad timestamp) under keep', async () => {
    const { token } = await withSchema('keep');
    const result = await store.ingest(token, [{ ...valid, timestamp: 'never' }]);
    expect(result.body.data).toMatchObject({ accepted: 0, rejected: 1 });
  });

  it('stores timestamp fields parsed, as ISO-8601 UTC', async () => {
    const { id, token } = await withSchema();
    await store.ingest(token, { ...valid, startedAt: '2026-03-01T10:00:00.5+02:00' });
    expect((await store.records(id))[0]!.fields).toMatchObject({ startedAt: '2026-03-01T08:00:00.500Z' });
  });

  it('validates against the schema the environment has now', async () => {
    const { id, token } = await withSchema();
    await gateway.call('PUT', `/api/logging/environments/${id}`, { body: { schemaId: null } });
    expect((await store.ingest(token, { message: 'anything' })).body.data.accepted).toBe(1);
  });
});

describe('environment ingest settings', () => {
  it('has defaults, and changes only the settings sent', async () => {
    const environment = await store.environment();
    expect(environment).toMatchObject({
      onSchemaViolation: 'reject',
      ingest: {
        maxBodyBytes: 5_242_880,
        maxRecords: 10_000,
        recordsPerSecond: 10_000,
        bytesPerSecond: 10_485_760,
        burstSeconds: 10,
      },
    });
    const changed = await gateway.call('PUT', `/api/logging/environments/${environment.id}`, {
      body: { onSchemaViolation: 'keep', ingest: { maxRecords: 50 } },
    });
    expect(changed.body.data).toMatchObject({
      onSchemaViolation: 'keep',
      ingest: { maxRecords: 50, maxBodyBytes: 5_242_880 },
    });
  });

  it('validates the settings', async () => {
    const environment = await store.environment();
    const put = (body: unknown) =>
      gateway.call('PUT', `/api/logging/environments/${environment.id}`, { body });
    expectValidationError(await put({ onSchemaViolation: 'drop' }), ['onSchemaViolation']);
    expectValidationError(await put({ ingest: { maxRecords: 0 } }), ['ingest', 'maxRecords']);
    expectValidationError(await put({ ingest: { maxBodyBytes: 1024 ** 3 } }), ['ingest', 'maxBodyBytes']);
    expectValidationError(await put({ ingest: { burstSeconds: 1.5 } }), ['ingest', 'burstSeconds']);
  });
});

describe('rate limit per ingest token', () => {
  // A full bucket holds one request; refilling it for a second one takes ten seconds.
  const limited = { ingest: { recordsPerSecond: 1, burstSeconds: 1, maxRecords: 10 } };
  const batch = Array.from({ length: 10 }, (_, i) => ({ message: `m${i}` }));

  it('answers 429 with Retry-After once a token is over its records per second, storing nothing', async () => {
    const environment = await store.environment(limited);
    const token = await store.token(environment.id);
    expect((await store.ingest(token, batch)).status).toBe(200);
    const refused = await store.ingest(token, batch);
    expectError(refused, 429, 'UNPROCESSABLE_ENTITY');
    expect(refused.body.details).toMatchObject({ reason: 'RATE_LIMITED' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(await store.records(environment.id)).toHaveLength(10);
  });

  it('limits bytes per second as well', async () => {
    const environment = await store.environment({
      ingest: { bytesPerSecond: 1024, burstSeconds: 1, maxBodyBytes: 20_480 },
    });
    const token = await store.token(environment.id);
    const body = [{ message: 'x'.repeat(20_000) }];
    expect((await store.ingest(token, body)).status).toBe(200);
    expectError(await store.ingest(token, body), 429, 'UNPROCESSABLE_ENTITY');
  });

  it('counts each token on its own', async () => {
    const environment = await store.environment(limited);
    const [first, second] = [await store.token(environment.id), await store.token(environment.id)];
    await store.ingest(first, batch);
    expectError(await store.ingest(first, batch), 429, 'UNPROCESSABLE_ENTITY');
    expect((await store.ingest(second, batch)).status).toBe(200);
  });
});
