import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { UNKNOWN } from './helpers.js';
import { logStore } from './log-store.js';

let gateway: TestGateway;
let store: ReturnType<typeof logStore>;
let viewer: string;
let environmentId: string;
let token: string;
const MINUTE = 60_000;
const base = Math.floor(Date.now() / (60 * MINUTE)) * 60 * MINUTE - 2 * 60 * MINUTE;
const at = (minutes: number) => new Date(base + minutes * MINUTE).toISOString();

beforeAll(async () => {
  gateway = await startTestGateway();
  store = logStore(gateway);
  viewer = await gateway.tokenWithScopes(['logging:view']);
  environmentId = (await store.environment()).id;
  token = await store.token(environmentId);
  const result = await store.ingest(token, [
    {
      timestamp: at(0),
      level: 'info',
      service: 'api',
      message: 'user signed in',
      user: 'alice',
      status: 200,
    },
    { timestamp: at(1), level: 'warn', service: 'api', message: 'slow database query', status: 200 },
    { timestamp: at(2), level: 'error', service: 'worker', message: 'payment failed for order', status: 500 },
    { timestamp: at(3), level: 'error', service: 'api', message: 'database connection refused', status: 503 },
    {
      timestamp: at(3),
      level: 'info',
      service: 'worker',
      message: 'user signed out',
      user: 'bob',
      flag: true,
    },
    { timestamp: at(65), level: 'debug', service: 'api', message: 'cache warm', status: '200' },
  ]);
  expect(result.body.data.accepted).toBe(6);
});
afterAll(() => gateway.close());

const url = (path: string) => `/api/logging/environments/${environmentId}/${path}`;
const search = (query: Record<string, string | number>) => gateway.call('GET', url('records'), { query });
const messages = async (query: Record<string, string | number>) => {
  const result = await search(query);
  expect(result.status, result.text).toBe(200);
  return result.body.data.map((record: { message: string }) => record.message);
};

describe('record search', () => {
  it('answers records newest first', async () => {
    expect(await messages({})).toEqual([
      'cache warm',
      'user signed out',
      'database connection refused',
      'payment failed for order',
      'slow database query',
      'user signed in',
    ]);
  });

  it('filters by time range, level and service', async () => {
    expect(await messages({ from: at(1), to: at(3) })).toEqual([
      'payment failed for order',
      'slow database query',
    ]);
    expect(await messages({ level: 'error,warn' })).toEqual([
      'database connection refused',
      'payment failed for order',
      'slow database query',
    ]);
    expect(await messages({ service: 'worker' })).toEqual(['user signed out', 'payment failed for order']);
  });

  it('finds words of the message with q, all of them, as people type them', async () => {
    expect(await messages({ q: 'database' })).toEqual(['database connection refused', 'slow database query']);
    expect(await messages({ q: 'database refused' })).toEqual(['database connection refused']);
    expect(await messages({ q: '"signed out"' })).toEqual(['user signed out']);
    expect(await messages({ q: 'user -out' })).toEqual(['user signed in']);
    expect(await messages({ q: '!!! (' })).toEqual([]);
  });

  it('filters by field value, text, number or boolean alike', async () => {
    expect(await messages({ 'field.user': 'alice' })).toEqual(['user signed in']);
    expect(await messages({ 'field.status': '200' })).toEqual([
      'cache warm',
      'slow database query',
      'user signed in',
    ]);
    expect(await messages({ 'field.flag': 'true' })).toEqual(['user signed out']);
    expect(await messages({ 'field.status': '500', service: 'worker' })).toEqual([
      'payment failed for order',
    ]);
  });

  it('pages with a cursor that stays put while records arrive', async () => {
    const own = (await store.environment()).id;
    const ownToken = await store.token(own);
    await store.ingest(
      ownToken,
      [0, 1, 2, 3, 4].map((minute) => ({ timestamp: at(minute), message: `m${minute}` })),
    );
    const page = (query: Record<string, string | number>) =>
      gateway.call('GET', `/api/logging/environments/${own}/records`, { query });
    const names = (result: { body: { data: { message: string }[] } }) =>
      result.body.data.map((r) => r.message);
    const first = await page({ limit: 2 });
    expect(names(first)).toEqual(['m4', 'm3']);
    await store.ingest(ownToken, {
      timestamp: new Date().toISOString(),
      message: 'newer, arrived meanwhile',
    });
    await store.ingest(ownToken, { timestamp: at(3), message: 'same time as m3, later id' });
    const second = await page({ limit: 2, cursor: first.body.nextCursor });
    expect(names(second)).toEqual(['m2', 'm1']);
    const rest = await page({ limit: 10, cursor: second.body.nextCursor });
    expect(names(rest)).toEqual(['m0']);
    expect(rest.body.nextCursor).toBeNull();
  });

  it('refuses bad filters with 400 naming them', async () => {
    expectValidationError(await search({ level: 'loud' }), ['level']);
    expectValidationError(await search({ from: at(3), to: at(1) }), ['from']);
    expectValidationError(await search({ cursor: 'bm9wZQ' }), ['cursor']);
    expectError(await search({ limit: 1001 }), 400, 'VALIDATION_ERROR');
    expectError(await search({ from: 'yesterday' }), 400, 'VALIDATION_ERROR');
  });

  it('answers 404 for an unknown environment, after validation', async () => {
    const unknown = `/api/logging/environments/${UNKNOWN}/records`;
    expectError(await gateway.call('GET', unknown), 404, 'NOT_FOUND');
    expectError(await gateway.call('GET', unknown, { query: { level: 'loud' } }), 400, 'VALIDATION_ERROR');
  });

  it('needs logging:view', async () => {
    expect((await gateway.call('GET', url('records'), { token: viewer })).status).toBe(200);
    const nobody = await gateway.tokenWithScopes([]);
    expectError(await gateway.call('GET', url('records'), { token: nobody }), 403, 'FORBIDDEN');
  });
});

describe('facets', () => {
  const facets = (query: Record<string, string | number>) =>
    gateway.call('GET', url('facets'), { query: { from: at(0), to: at(10), ...query } });

  it('counts records per level, most frequent first', async () => {
    const result = await facets({ field: 'level' });
    expect(result.body.data).toEqual({
      field: 'level',
      values: [
        { value: 'error', count: 2 },
        { value: 'info', count: 2 },
        { value: 'warn', count: 1 },
      ],
    });
  });

  it('counts per service and per field value, with the search filters', async () => {
    expect((await facets({ field: 'service', q: 'user' })).body.data.values).toEqual([
      { value: 'api', count: 1 },
      { value: 'worker', count: 1 },
    ]);
    expect((await facets({ field: 'status' })).body.data.values).toEqual([
      { value: 200, count: 2 },
      { value: 500, count: 1 },
      { value: 503, count: 1 },
    ]);
  });

  it('needs a field name', async () => {
    expectValidationError(await gateway.call('GET', url('facets')), ['field']);
    expectError(await facets({ field: 'a b' }), 400, 'VALIDATION_ERROR');
  });
});

describe('histogram', () => {
  const histogram = (query: Record<string, string | number>) =>
    gateway.call('GET', url('histogram'), { query });

  it('counts records per bucket, empty buckets included', async () => {
    const result = await histogram({ from: at(0), to: at(4), interval: '1m' });
    expect(result.status).toBe(200);
    expect(result.body.data).toEqual({
      from: at(0),
      to: at(4),
      intervalSeconds: 60,
      buckets: [
        { start: at(0), count: 1, levels: { info: 1 } },
        { start: at(1), count: 1, levels: { warn: 1 } },
        { start: at(2), count: 1, levels: { error: 1 } },
        { start: at(3), count: 2, levels: { error: 1, info: 1 } },
      ],
    });
  });

  it('picks about a hundred buckets or fewer when no interval is asked for', async () => {
    const result = await histogram({ from: at(0), to: at(120) });
    expect(result.body.data.intervalSeconds).toBe(300);
    expect(result.body.data.buckets).toHaveLength(24);
  });

  it('refuses an interval that makes more than 1,000 buckets', async () => {
    expectValidationError(await histogram({ from: at(0), to: at(120), interval: '1s' }), ['interval']);
    expectError(await histogram({ interval: '5 minutes' }), 400, 'VALIDATION_ERROR');
  });
});
