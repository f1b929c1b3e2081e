import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { UNKNOWN } from './helpers.js';
import { logStore } from './log-store.js';

let gateway: TestGateway;
let store: ReturnType<typeof logStore>;
let first: string;
let second: string;
const MINUTE = 60_000;
const base = Math.floor(Date.now() / (60 * MINUTE)) * 60 * MINUTE - 2 * 60 * MINUTE;
const at = (minutes: number) => new Date(base + minutes * MINUTE).toISOString();
/** The range every match below searches: within INFRAGATE_LOG_MATCH_MAX_HOURS (3 in this file). */
const range = { from: at(0), to: at(60) };

beforeAll(async () => {
  gateway = await startTestGateway({
    logSearch: { matchMaxHours: 3, matchTimeoutMs: 10_000, rulesIntervalSeconds: 60 },
  });
  store = logStore(gateway);
  first = (await store.environment()).id;
  second = (await store.environment()).id;
  await store.ingest(await store.token(first), [
    { timestamp: at(0), level: 'info', service: 'api', message: 'GET /orders/17 took 12ms', status: 200 },
    { timestamp: at(1), level: 'error', service: 'api', message: 'GET /orders/18 took 950ms', status: 500 },
    { timestamp: at(2), level: 'warn', service: 'worker', message: 'Retrying ORDER-19', status: 200 },
    { timestamp: at(3), level: 'info', message: 'no service at all', region: 'eu' },
  ]);
  await store.ingest(await store.token(second), [
    { timestamp: at(1), level: 'error', service: 'billing', message: 'card declined for order 20' },
    { timestamp: at(4), level: 'info', service: 'billing', message: 'invoice sent' },
  ]);
});
afterAll(() => gateway.close());

const messages = async (query: Record<string, string | number>, environmentId = first) => {
  const result = await gateway.call('GET', `/api/logging/environments/${environmentId}/records`, { query });
  expect(result.status, result.text).toBe(200);
  return result.body.data.map((record: { message: string }) => record.message);
};

describe('match on the message', () => {
  it('finds a substring, whatever its case, with no word boundaries needed', async () => {
    expect(await messages({ ...range, match: 'order' })).toEqual([
      'Retrying ORDER-19',
      'GET /orders/18 took 950ms',
      'GET /orders/17 took 12ms',
    ]);
    expect(await messages({ ...range, match: 's/1', mode: 'substring' })).toEqual([
      'GET /orders/18 took 950ms',
      'GET /orders/17 took 12ms',
    ]);
  });

  it('finds a regular expression, in PostgreSQL syntax', async () => {
    expect(await messages({ ...range, match: 'took [0-9]{3,}ms$', mode: 'regex' })).toEqual([
      'GET /orders/18 took 950ms',
    ]);
    expect(await messages({ ...range, match: '(?i)^retrying order-\\d+', mode: 'regex' })).toEqual([
      'Retrying ORDER-19',
    ]);
  });

  it('counts and facets with the match too', async () => {
    const facets = await gateway.call('GET', `/api/logging/environments/${first}/facets`, {
      query: { ...range, match: 'orders', field: 'level' },
    });
    expect(facets.body.data.values).toEqual([
      { value: 'error', count: 1 },
      { value: 'info', count: 1 },
    ]);
  });

  it('refuses a match over no range or one longer than the bound, naming from', async () => {
    const url = `/api/logging/environments/${first}/records`;
    expectValidationError(await gateway.call('GET', url, { query: { match: 'order' } }), ['from']);
    expectValidationError(
      await gateway.call('GET', url, { query: { match: 'order', from: at(-240), to: at(60) } }),
      ['from'],
    );
  });

  it('refuses a regular expression that does not compile, and a mode without a match', async () => {
    const url = `/api/logging/environments/${first}/records`;
    const broken = await gateway.call('GET', url, { query: { ...range, match: '(unclosed', mode: 'regex' } });
    expectValidationError(broken, ['match']);
    expect(broken.body.details[0].message).toMatch(/parenthes/);
    expectValidationError(await gateway.call('GET', url, { query: { ...range, mode: 'regex' } }), ['mode']);
    expectError(
      await gateway.call('GET', url, { query: { ...range, match: 'x', mode: 'glob' } }),
      400,
      'VALIDATION_ERROR',
    );
  });
});

describe('negation', () => {
  it('excludes words with -word in q', async () => {
    expect(await messages({ q: 'get -950ms' })).toEqual(['GET /orders/17 took 12ms']);
  });

  it('excludes a field value with field.<name>!=, keeping records without the field', async () => {
    expect(await messages({ 'field.status!': '200' })).toEqual([
      'no service at all',
      'GET /orders/18 took 950ms',
    ]);
    expect(await messages({ 'field.status!': '500', 'field.status': '200', service: 'api' })).toEqual([
      'GET /orders/17 took 12ms',
    ]);
  });

  it('excludes a service with service!=, keeping records without a service', async () => {
    expect(await messages({ 'service!': 'api' })).toEqual(['no service at all', 'Retrying ORDER-19']);
  });
});

describe('search across environments', () => {
  const across = (query: Record<string, string | number>, token?: string) =>
    gateway.call('GET', '/api/logging/search', { query, ...(token ? { token } : {}) });

  it('merges the environments newest first, each record naming its environment', async () => {
    const result = await across({ environmentIds: `${first},${second}`, level: 'error' });
    expect(result.status, result.text).toBe(200);
    const found = result.body.data.map((r: { message: string; environmentId: string }) => [
      r.environmentId,
      r.message,
    ]);
    // Same time: the later ingest (the second environment's) has the higher id and comes first.
    expect(found).toEqual([
      [second, 'card declined for order 20'],
      [first, 'GET /orders/18 took 950ms'],
    ]);
  });

  it('pages across environments with the cursor', async () => {
    const page = await across({ environmentIds: `${first},${second}`, limit: 4 });
    const names = (result: { body: { data: { message: string }[] } }) =>
      result.body.data.map((r) => r.message);
    expect(names(page)).toEqual([
      'invoice sent',
      'no service at all',
      'Retrying ORDER-19',
      'card declined for order 20',
    ]);
    const rest = await across({
      environmentIds: `${first},${second}`,
      limit: 4,
      cursor: page.body.nextCursor,
    });
    expect(names(rest)).toEqual(['GET /orders/18 took 950ms', 'GET /orders/17 took 12ms']);
    expect(rest.body.nextCursor).toBeNull();
  });

  it('answers 404 for an environment the caller may not view, as for one that does not exist', async () => {
    const onlyFirst = await gateway.tokenWithScopes([`logging:view:${first}`]);
    expect((await across({ environmentIds: first }, onlyFirst)).status).toBe(200);
    expectError(await across({ environmentIds: `${first},${second}` }, onlyFirst), 404, 'NOT_FOUND');
    expectError(await across({ environmentIds: `${first},${UNKNOWN}` }), 404, 'NOT_FOUND');
  });

  it('needs logging:view, environment ids, and at most 50 of them', async () => {
    const nobody = await gateway.tokenWithScopes([]);
    expectError(await across({ environmentIds: first }, nobody), 403, 'FORBIDDEN');
    expectError(await gateway.call('GET', '/api/logging/search', { token: null }), 401, 'UNAUTHORIZED');
    expectValidationError(await across({}), ['environmentIds']);
    expectValidationError(await across({ environmentIds: `${first},,${second}` }), ['environmentIds']);
    const many = Array.from(
      { length: 51 },
      (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    );
    expectValidationError(await across({ environmentIds: many.join(',') }), ['environmentIds']);
  });
});
