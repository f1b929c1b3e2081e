import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PAGE } from '../../src/core/pagination.js';
import { auditEventsMatching } from '../support/audit-events.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway({ bodyLimitBytes: 2048 });
});
afterAll(() => gateway.close());

describe('error envelope', () => {
  it('answers malformed JSON with 400 VALIDATION_ERROR and path []', async () => {
    const result = await gateway.call('POST', '/auth/tokens', {
      rawBody: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expectValidationError(result, []);
  });

  it('answers an unknown route with the 404 NOT_FOUND envelope', async () => {
    expectError(await gateway.call('GET', '/api/does-not-exist'), 404, 'NOT_FOUND');
    expectError(await gateway.call('GET', '/nothing-here', { token: null }), 404, 'NOT_FOUND');
  });

  it('answers a body over the limit with 413 VALIDATION_ERROR', async () => {
    const result = await gateway.call('POST', '/auth/tokens', { body: { name: 'x'.repeat(5000) } });
    expectError(result, 413, 'VALIDATION_ERROR');
  });

  it('answers an unsupported content type with 415 VALIDATION_ERROR', async () => {
    const result = await gateway.call('POST', '/auth/tokens', {
      rawBody: '<name>x</name>',
      headers: { 'content-type': 'application/xml' },
    });
    expectError(result, 415, 'VALIDATION_ERROR');
  });

  it('answers a missing JSON body with 400 VALIDATION_ERROR', async () => {
    const result = await gateway.call('POST', '/auth/tokens', {});
    expectError(result, 400, 'VALIDATION_ERROR');
  });

  it('answers a JSON body of the wrong type with 400 and path []', async () => {
    expectValidationError(await gateway.call('POST', '/auth/tokens', { body: [1, 2] }), []);
  });

  it('ignores unknown body properties', async () => {
    const result = await gateway.call('POST', '/auth/tokens', {
      body: { name: 'x', surprise: { deep: true } },
    });
    expect(result.status).toBe(201);
  });

  it('does not coerce JSON body types (a string is not an integer)', async () => {
    expectValidationError(
      await gateway.call('POST', '/auth/tokens', { body: { name: 'x', expiresInDays: '5' } }),
      ['expiresInDays'],
    );
  });

  it('coerces query strings to their declared types', async () => {
    const result = await gateway.call('GET', '/api/admin/users?limit=5&page=1');
    expect(result.body.pagination.limit).toBe(5);
  });

  it('names every bad field at once', async () => {
    const result = await gateway.call('POST', '/api/admin/users', { body: { email: 5 } });
    expectValidationError(result, ['email']);
    expectValidationError(result, ['name']);
    expectValidationError(result, ['group']);
  });

  it('sends a request id with every answer', async () => {
    const result = await gateway.call('GET', '/healthz', { token: null });
    expect(result.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('health endpoints', () => {
  it('healthz answers 200 without a token', async () => {
    const result = await gateway.call('GET', '/healthz', { token: null });
    expect(result.body).toEqual({ status: 'ok' });
  });

  it('readyz answers 200 when the database answers', async () => {
    const result = await gateway.call('GET', '/readyz', { token: null });
    expect(result.body).toEqual({ status: 'ready' });
  });
});

describe('NUL characters', () => {
  it('are refused in JSON bodies with the field path', async () => {
    expectValidationError(await gateway.call('POST', '/auth/tokens', { body: { name: 'a\u0000b' } }), [
      'name',
    ]);
  });

  it('are refused in query strings', async () => {
    expectValidationError(await gateway.call('GET', '/api/admin/users?q=%00'), ['q']);
  });
});

describe('unpaired UTF-16 surrogates (which PostgreSQL cannot store)', () => {
  /** A JSON body as a client may write it: the surrogate escaped, as `JSON.stringify` never does. */
  const escapedJson = (text: string) => ({
    rawBody: text,
    headers: { 'content-type': 'application/json' },
  });

  it('are refused in the email of a login, which is not audited as a failed one', async () => {
    const result = await gateway.call('POST', '/auth/login', {
      token: null,
      ...escapedJson('{"email": "x\\ud800@example.org", "password": "wrong password"}'),
    });
    expectValidationError(result, ['email']);
    expect(result.body.details[0].message).toBe('must not contain an unpaired UTF-16 surrogate');
    expect(await auditEventsMatching(gateway, { action: 'auth.login.failed' })).toEqual([]);
  });

  it('are refused in the name of a new group, and no group is made', async () => {
    const result = await gateway.call(
      'POST',
      '/api/admin/groups',
      escapedJson('{"name": "ops\\udc00", "scopes": []}'),
    );
    expectValidationError(result, ['name']);
    const groups = (await gateway.call('GET', '/api/admin/groups')).body.data as { name: string }[];
    expect(groups.filter((group) => group.name.startsWith('ops'))).toEqual([]);
  });

  it('are refused in a list item, with its index in the path', async () => {
    const result = await gateway.call(
      'POST',
      '/api/admin/groups',
      escapedJson('{"name": "readers", "scopes": ["logging:view", "\\ud83d"]}'),
    );
    expectValidationError(result, ['scopes', 1]);
  });

  it('are refused in a key of a body', async () => {
    const result = await gateway.call('POST', '/auth/tokens', escapedJson('{"name": "ci", "\\ud800": true}'));
    expectValidationError(result, ['\ud800']);
    expect(result.body.details[0].message).toBe(
      'has a key that must not contain an unpaired UTF-16 surrogate',
    );
    const tokens = (await gateway.call('GET', '/auth/tokens')).body.data as { name: string }[];
    expect(tokens.map((token) => token.name)).not.toContain('ci');
  });

  it('are refused in a new name of a user, which keeps the old one', async () => {
    const result = await gateway.call(
      'PATCH',
      `/api/admin/users/${gateway.adminUserId}/name`,
      escapedJson('{"name": "Admin \\udfff"}'),
    );
    expectValidationError(result, ['name']);
    const admin = await gateway.call('GET', `/api/admin/users/${gateway.adminUserId}`);
    expect(admin.body.data.name).toBe('admin');
  });

  it('are accepted in pairs: a character beyond the Basic Multilingual Plane', async () => {
    const result = await gateway.call(
      'POST',
      '/api/admin/groups',
      escapedJson('{"name": "launch \\ud83d\\ude80", "scopes": []}'),
    );
    expect(result.status).toBe(201);
    expect(result.body.data.name).toBe('launch 🚀');
  });
});

describe('the page of a list', () => {
  it('may be the last page whose offset is an exact integer, at the largest page size', async () => {
    const result = await gateway.call('GET', `/api/admin/users?page=${MAX_PAGE}&limit=100`);
    expect(result.status).toBe(200);
    expect(result.body.data).toEqual([]);
    expect(result.body.pagination.page).toBe(MAX_PAGE);
  });

  it('is refused one page beyond, with the bound in the message', async () => {
    const result = await gateway.call('GET', `/api/admin/users?page=${MAX_PAGE + 1}`);
    expectValidationError(result, ['page']);
    expect(result.body.details[0].message).toContain(String(MAX_PAGE));
  });

  it('is refused when far too large to count, on every list of the API', async () => {
    const { body: document } = await gateway.call('GET', '/openapi.json', { token: null });
    const lists = Object.entries(
      document.paths as Record<string, { get?: { parameters?: { name: string }[] } }>,
    )
      .filter(([, operations]) => operations.get?.parameters?.some((parameter) => parameter.name === 'page'))
      .map(([path]) => path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000'));
    expect(lists.length).toBeGreaterThan(10);
    for (const page of ['99999999999999999999', '1e308'])
      for (const list of lists) {
        const result = await gateway.call('GET', `${list}?page=${page}`);
        expect({ list, page, status: result.status }).toEqual({ list, page, status: 400 });
        expectValidationError(result, ['page']);
      }
  });
});

describe('router-level failures', () => {
  it('answer a path parameter longer than the router keeps with the envelope, not a framework error', async () => {
    const result = await gateway.call('GET', `/api/admin/users/${'a'.repeat(3000)}`);
    expectError(result, 400, 'VALIDATION_ERROR');
  });
});
