import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEventsAbout } from '../support/audit-events.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { UNKNOWN, unique } from './helpers.js';
import { logStore } from './log-store.js';

let gateway: TestGateway;
let environmentId: string;
let otherEnvironmentId: string;
const url = (path = '') => `/api/logging/environments/${environmentId}/saved-searches${path}`;
const errors = { q: 'timeout', levels: ['error', 'fatal'], excludedFields: { route: '/health' } };

beforeAll(async () => {
  gateway = await startTestGateway();
  const store = logStore(gateway);
  environmentId = (await store.environment()).id;
  otherEnvironmentId = (await store.environment()).id;
});
afterAll(() => gateway.close());

const save = (body: unknown, token?: string) =>
  gateway.call('POST', url(), { body, ...(token ? { token } : {}) });

describe('saved searches', () => {
  it('saves a search under a name and answers it, audited', async () => {
    const result = await save({ name: 'Errors', query: errors });
    expect(result.status, result.text).toBe(201);
    expect(result.body.data).toMatchObject({ environmentId, name: 'Errors', query: errors });
    const events = await auditEventsAbout(gateway, result.body.data.id);
    expect(events.map((event: { action: string }) => event.action)).toEqual(['logging.saved_search.created']);
  });

  it('lists them by name, and gets one', async () => {
    const made = (await save({ name: 'A first', query: { match: 'refused', mode: 'substring' } })).body.data;
    const list = await gateway.call('GET', url());
    expect(list.status).toBe(200);
    expect(list.body.data.map((s: { name: string }) => s.name)).toEqual(['A first', 'Errors']);
    expect((await gateway.call('GET', url(`/${made.id}`))).body.data).toEqual(made);
  });

  it('renames and replaces the query, refusing a name taken in the environment', async () => {
    const made = (await save({ name: unique('s'), query: { q: 'x' } })).body.data;
    const changed = await gateway.call('PATCH', url(`/${made.id}`), {
      body: { name: 'Renamed', query: { services: ['api'] } },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.data).toMatchObject({ name: 'Renamed', query: { services: ['api'] } });
    expectError(
      await gateway.call('PATCH', url(`/${made.id}`), { body: { name: 'Errors' } }),
      409,
      'CONFLICT',
    );
    expectError(await save({ name: 'Errors', query: {} }), 409, 'CONFLICT');
    const elsewhere = await gateway.call(
      'POST',
      `/api/logging/environments/${otherEnvironmentId}/saved-searches`,
      {
        body: { name: 'Errors', query: {} },
      },
    );
    expect(elsewhere.status).toBe(201);
  });

  it('deletes one, audited', async () => {
    const made = (await save({ name: unique('s'), query: {} })).body.data;
    expect((await gateway.call('DELETE', url(`/${made.id}`))).body).toEqual({ success: true });
    expectError(await gateway.call('GET', url(`/${made.id}`)), 404, 'NOT_FOUND');
    const events = await auditEventsAbout(gateway, made.id);
    expect(events.map((event: { action: string }) => event.action)).toEqual([
      'logging.saved_search.created',
      'logging.saved_search.deleted',
    ]);
  });

  it('refuses a query that is not one, naming what is wrong', async () => {
    expectValidationError(await save({ name: 'x', query: { levels: ['loud'] } }), ['query', 'levels', 0]);
    expectValidationError(await save({ name: 'x', query: { mode: 'regex' } }), ['query', 'mode']);
    expectValidationError(await save({ name: 'x', query: { fields: { ['a'.repeat(201)]: '1' } } }), [
      'query',
      'fields',
    ]);
    expectValidationError(await save({ name: '', query: {} }), ['name']);
    expectValidationError(await save({ name: 'x' }), ['query']);
    const made = (await save({ name: unique('s'), query: {} })).body.data;
    expectError(await gateway.call('PATCH', url(`/${made.id}`), { body: {} }), 400, 'VALIDATION_ERROR');
  });

  it('answers 404 for an unknown environment or search, and one of another environment', async () => {
    const mine = (await save({ name: unique('s'), query: {} })).body.data;
    expectError(
      await gateway.call('GET', `/api/logging/environments/${UNKNOWN}/saved-searches`),
      404,
      'NOT_FOUND',
    );
    expectError(await gateway.call('GET', url(`/${UNKNOWN}`)), 404, 'NOT_FOUND');
    const other = `/api/logging/environments/${otherEnvironmentId}/saved-searches/${mine.id}`;
    expectError(await gateway.call('GET', other), 404, 'NOT_FOUND');
    expectError(await gateway.call('DELETE', other), 404, 'NOT_FOUND');
  });

  it('reads with logging:view and writes with logging:manage, on the environment', async () => {
    const viewer = await gateway.tokenWithScopes([`logging:view:${environmentId}`]);
    expect((await gateway.call('GET', url(), { token: viewer })).status).toBe(200);
    expectError(await save({ name: unique('s'), query: {} }, viewer), 403, 'FORBIDDEN');
    const manager = await gateway.tokenWithScopes([
      `logging:manage:${environmentId}`,
      `logging:view:${environmentId}`,
    ]);
    expect((await save({ name: unique('s'), query: {} }, manager)).status).toBe(201);
    const stranger = await gateway.tokenWithScopes([`logging:manage:${otherEnvironmentId}`]);
    expectError(await gateway.call('GET', url(), { token: stranger }), 404, 'NOT_FOUND');
    expectError(await gateway.call('GET', url(), { token: null }), 401, 'UNAUTHORIZED');
  });
});
