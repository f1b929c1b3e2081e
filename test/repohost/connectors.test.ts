import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/raw.js';
import { auditEvents } from '../../src/db/schema/index.js';
import { type FakeGitlab, startFakeGitlab } from '../services/fake-gitlab-v4.js';
import { auditEventsAbout } from '../support/audit-events.js';
import { describeBoundaryScope } from '../support/boundary-scopes.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { LogCapture } from '../support/log-capture.js';
import { describeResourceScopes } from '../support/resource-scopes.js';
import { seedGitlab, TOKENS } from './helpers.js';

const BASE = '/api/integrations/repohost/connectors';
const MISSING = '00000000-0000-4000-8000-000000000000';

let fake: FakeGitlab;
let gateway: TestGateway;
const logs = new LogCapture();
let counter = 0;

beforeAll(async () => {
  fake = await startFakeGitlab();
  seedGitlab(fake);
  gateway = await startTestGateway({ logLevel: 'trace' }, { logStream: logs });
});
afterAll(async () => {
  await gateway?.close();
  await fake?.close();
});

const body = (extra: Record<string, unknown> = {}) => ({
  name: `gitlab-${++counter}`,
  baseUrl: fake.url,
  token: TOKENS.full,
  allowlist: [
    { entryType: 'group', remoteId: '11', fullPath: 'platform' },
    { entryType: 'project', remoteId: '1001', fullPath: 'platform/service-1' },
  ],
  ...extra,
});

async function create(extra: Record<string, unknown> = {}) {
  const result = await gateway.call('POST', BASE, { body: body(extra) });
  expect(result.status).toBe(201);
  return result.body.data as { id: string; name: string };
}

const connectorCount = async () =>
  (
    await queryRows<{ n: number }>(gateway.deps.db, sql`select count(*)::int as n from repohost_connectors`)
  )[0]!.n;

describe('POST /api/integrations/repohost/connectors', () => {
  it('tests the token, then stores the connector with its resolved allowlist and capabilities', async () => {
    const result = await gateway.call('POST', BASE, { body: body() });
    expect(result.status).toBe(201);
    expect(result.body.data).toMatchObject({
      baseUrl: fake.url,
      allowlist: [
        {
          entryType: 'group',
          remoteId: '11',
          fullPath: 'platform',
          name: 'Platform',
          webUrl: `${fake.url}/groups/platform`,
        },
        {
          entryType: 'project',
          remoteId: '1001',
          fullPath: 'platform/service-1',
          name: 'Service 1',
          webUrl: `${fake.url}/platform/service-1`,
        },
      ],
      capabilities: { apiReachable: true, repoRead: true, webhooksManage: true },
      tokenScopes: ['api'],
      tokenExpiresAt: '2027-12-31',
      remoteUser: { username: 'alice' },
      lastTestOk: true,
      lastTestError: null,
    });
    expect(result.text).not.toContain(TOKENS.full);
  });

  it('resolves an allowlist entry found on the last page of the listing', async () => {
    const result = await gateway.call('POST', BASE, {
      body: body({
        allowlist: [{ entryType: 'project', remoteId: '1250', fullPath: 'platform/service-250' }],
      }),
    });
    expect(result.status).toBe(201);
    expect(result.body.data.allowlist[0]).toMatchObject({ remoteId: '1250', name: 'Service 250' });
  });

  it('refuses a token the host rejects with 422 and stores nothing', async () => {
    const before = await connectorCount();
    const result = await gateway.call('POST', BASE, { body: body({ token: TOKENS.revoked }) });
    expectError(result, 422, 'UNPROCESSABLE_ENTITY');
    expect(result.body.details.reason).toBe('TOKEN_REJECTED');
    expect(await connectorCount()).toBe(before);
  });

  it('refuses an allowlist entry the token cannot see with 422, naming it', async () => {
    const result = await gateway.call('POST', BASE, {
      body: body({
        token: TOKENS.developer,
        allowlist: [{ entryType: 'project', remoteId: '1005', fullPath: 'platform/service-5' }],
      }),
    });
    expectError(result, 422, 'UNPROCESSABLE_ENTITY');
    expect(result.body.details.reason).toBe('ALLOWLIST_ENTRY_NOT_VISIBLE');
    expect(result.body.details.entries).toEqual([
      { entryType: 'project', remoteId: '1005', fullPath: 'platform/service-5' },
    ]);
  });

  it('refuses an allowlist entry whose path is not the one on the host', async () => {
    const result = await gateway.call('POST', BASE, {
      body: body({ allowlist: [{ entryType: 'group', remoteId: '11', fullPath: 'renamed' }] }),
    });
    expect(result.body.details).toMatchObject({
      reason: 'ALLOWLIST_PATH_MISMATCH',
      hostFullPath: 'platform',
    });
  });

  it('refuses a duplicate name with 409 before calling the host', async () => {
    const { name } = await create();
    fake.requests.length = 0;
    const result = await gateway.call('POST', BASE, { body: body({ name }) });
    expectError(result, 409, 'CONFLICT');
    expect(result.body.details).toMatchObject({ reason: 'CONNECTOR_NAME_TAKEN', name });
    expect(fake.requests).toHaveLength(0);
  });

  it('validates name, baseUrl, token and the allowlist', async () => {
    expectValidationError(await gateway.call('POST', BASE, { body: {} }), ['name']);
    expectValidationError(await gateway.call('POST', BASE, { body: body({ name: 'n'.repeat(256) }) }), [
      'name',
    ]);
    expectValidationError(await gateway.call('POST', BASE, { body: body({ baseUrl: 'nope' }) }), ['baseUrl']);
    expectValidationError(await gateway.call('POST', BASE, { body: body({ token: '' }) }), ['token']);
    expectValidationError(
      await gateway.call('POST', BASE, {
        body: body({ allowlist: [{ entryType: 'user', remoteId: '1', fullPath: 'x' }] }),
      }),
      ['allowlist', 0, 'entryType'],
    );
    expectValidationError(
      await gateway.call('POST', BASE, {
        body: body({ allowlist: [{ entryType: 'group', remoteId: 'abc', fullPath: 'x' }] }),
      }),
      ['allowlist', 0, 'remoteId'],
    );
    const twice = { entryType: 'group', remoteId: '11', fullPath: 'platform' };
    expectValidationError(await gateway.call('POST', BASE, { body: body({ allowlist: [twice, twice] }) }), [
      'allowlist',
      1,
    ]);
  });
});

describe('reading connectors', () => {
  it('lists connectors by name with pagination and a name filter', async () => {
    const prefix = `list-${++counter}`;
    for (const suffix of ['a', 'b', 'c']) await create({ name: `${prefix}-${suffix}`, allowlist: [] });
    const result = await gateway.call('GET', BASE, { query: { q: prefix, limit: 2 } });
    expect(result.status).toBe(200);
    expect(result.body.data.map((c: { name: string }) => c.name)).toEqual([`${prefix}-a`, `${prefix}-b`]);
    expect(result.body.pagination).toEqual({ page: 1, limit: 2, total: 3, totalPages: 2 });
  });

  it('gets one connector, and 404 for an unknown id', async () => {
    const { id, name } = await create();
    const result = await gateway.call('GET', `${BASE}/${id}`);
    expect(result.body.data).toMatchObject({ id, name });
    expect(result.text).not.toContain(TOKENS.full);
    expectError(await gateway.call('GET', `${BASE}/${MISSING}`), 404, 'NOT_FOUND');
  });
});

describe('PATCH /api/integrations/repohost/connectors/:id', () => {
  it('renames without calling the host', async () => {
    const { id } = await create();
    fake.requests.length = 0;
    const result = await gateway.call('PATCH', `${BASE}/${id}`, { body: { name: `renamed-${++counter}` } });
    expect(result.status).toBe(200);
    expect(result.body.data.name).toBe(`renamed-${counter}`);
    expect(fake.requests).toHaveLength(0);
  });

  it('re-tests a new token and keeps the old one when the new one fails', async () => {
    const { id } = await create();
    const refused = await gateway.call('PATCH', `${BASE}/${id}`, { body: { token: TOKENS.expired } });
    expect(refused.body.details.reason).toBe('TOKEN_REJECTED');
    const test = await gateway.call('POST', `${BASE}/${id}/test`);
    expect(test.body.data.ok).toBe(true);
    expect(test.body.data.user.username).toBe('alice');
  });

  it('replaces the token and the allowlist after a passing test', async () => {
    const { id } = await create();
    const result = await gateway.call('PATCH', `${BASE}/${id}`, {
      body: { token: TOKENS.developer, allowlist: [{ entryType: 'group', remoteId: '13', fullPath: 'web' }] },
    });
    expect(result.status).toBe(200);
    expect(result.body.data.remoteUser.username).toBe('bob');
    expect(result.body.data.allowlist).toMatchObject([{ remoteId: '13', fullPath: 'web' }]);
    fake.requests.length = 0;
    await gateway.call('POST', `${BASE}/${id}/test`);
    expect(fake.requests[0]!.headers['private-token']).toBe(TOKENS.developer);
  });

  it('answers 404 for an unknown id and 409 for a taken name', async () => {
    const first = await create();
    const second = await create();
    expectError(await gateway.call('PATCH', `${BASE}/${MISSING}`, { body: { name: 'x' } }), 404, 'NOT_FOUND');
    expectValidationError(
      await gateway.call('PATCH', `${BASE}/${MISSING}`, { body: { baseUrl: 'ftp://gitlab.example.com' } }),
      ['baseUrl'],
    );
    expectError(
      await gateway.call('PATCH', `${BASE}/${second.id}`, { body: { name: first.name } }),
      409,
      'CONFLICT',
    );
  });
});

describe('PATCH /api/integrations/repohost/connectors/:id to another host', () => {
  let other: FakeGitlab;
  beforeAll(async () => {
    other = await startFakeGitlab();
    seedGitlab(other);
  });
  afterAll(() => other?.close());

  const moveAway = async (extra: Record<string, unknown> = {}) => {
    const { id } = await create();
    fake.requests.length = 0;
    other.requests.length = 0;
    const result = await gateway.call('PATCH', `${BASE}/${id}`, { body: { baseUrl: other.url, ...extra } });
    expect(result.status, result.text).toBe(200);
    return { id, result };
  };

  it('drops the stored token when the base URL moves without one, and says so', async () => {
    const { result } = await moveAway();
    expect(result.body.droppedSecrets).toEqual(['token']);
    expect(result.body.data).toMatchObject({
      baseUrl: other.url,
      hasToken: false,
      lastTestOk: false,
      lastTestError: { reason: 'TOKEN_REQUIRED' },
      remoteUser: null,
      tokenScopes: null,
    });
  });

  it('sends nothing to either host in that change, not even its own test', async () => {
    await moveAway();
    expect(other.requests).toEqual([]);
    expect(fake.requests).toEqual([]);
  });

  it('then reports a test as TOKEN_REQUIRED without calling the new host', async () => {
    const { id } = await moveAway();
    const test = await gateway.call('POST', `${BASE}/${id}/test`);
    expect(test.body.data).toMatchObject({ ok: false, error: { reason: 'TOKEN_REQUIRED' } });
    expect(other.requests).toEqual([]);
  });

  it('works again once the token is sent: it is tested on the new host', async () => {
    const { id } = await moveAway();
    const result = await gateway.call('PATCH', `${BASE}/${id}`, { body: { token: TOKENS.full } });
    expect(result.body.data).toMatchObject({ hasToken: true, lastTestOk: true, lastTestError: null });
    expect(other.requests[0]!.headers['private-token']).toBe(TOKENS.full);
  });

  it('keeps a token sent in the same change, tested on the new host', async () => {
    const { result } = await moveAway({ token: TOKENS.readOnly });
    expect(result.body).not.toHaveProperty('droppedSecrets');
    expect(result.body.data).toMatchObject({
      hasToken: true,
      lastTestOk: true,
      tokenScopes: ['read_api', 'read_repository'],
    });
    expect(other.requests[0]!.headers['private-token']).toBe(TOKENS.readOnly);
  });

  it('refuses an allowlist for a connector without a token with 422 TOKEN_REQUIRED', async () => {
    const { id } = await moveAway();
    const result = await gateway.call('PATCH', `${BASE}/${id}`, {
      body: { allowlist: [{ entryType: 'group', remoteId: '13', fullPath: 'web' }] },
    });
    expectError(result, 422, 'UNPROCESSABLE_ENTITY');
    expect(result.body.details.reason).toBe('TOKEN_REQUIRED');
    expect(other.requests).toEqual([]);
  });

  it('keeps the token for the same host written with a trailing slash', async () => {
    const { id } = await create();
    const result = await gateway.call('PATCH', `${BASE}/${id}`, { body: { baseUrl: `${fake.url}/` } });
    expect(result.body).not.toHaveProperty('droppedSecrets');
    expect(result.body.data).toMatchObject({ hasToken: true, lastTestOk: true });
  });

  it('audits the dropped token by name, never its value', async () => {
    const { id } = await moveAway();
    const events = await auditEventsAbout(gateway, id);
    const updated = events.find((event) => event.action === 'repohost.connector.updated')!;
    expect(updated.metadata).toMatchObject({ droppedSecrets: ['token'] });
    expect(JSON.stringify(events)).not.toContain(TOKENS.full);
  });
});

describeBoundaryScope(() => gateway, {
  area: 'integrations',
  create: async () => (await create()).id,
  path: (id) => `${BASE}/${id}`,
  move: { body: { baseUrl: 'http://127.0.0.1:9/gitlab' }, fields: ['baseUrl'] },
  rename: { name: `renamed-${crypto.randomUUID()}` },
});

describe('POST /api/integrations/repohost/connectors/:id/test', () => {
  it('reports a passing test and records it', async () => {
    const { id } = await create();
    const result = await gateway.call('POST', `${BASE}/${id}/test`);
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({ ok: true, error: null, capabilities: { repoRead: true } });
    expect(result.text).not.toContain(TOKENS.full);
  });

  it('reports a token revoked since saving as a failed test and records it on the connector', async () => {
    fake.tokens.push({ token: 'glpat-SoonRevokedToken00010', userId: 1, scopes: ['api'], expiresAt: null });
    const { id } = await create({ token: 'glpat-SoonRevokedToken00010' });
    fake.tokens.find((token) => token.token === 'glpat-SoonRevokedToken00010')!.revoked = true;
    const result = await gateway.call('POST', `${BASE}/${id}/test`);
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({
      ok: false,
      error: { reason: 'TOKEN_REJECTED' },
      capabilities: { apiReachable: true, tokenSelf: false, repoRead: false },
    });
    const saved = (await gateway.call('GET', `${BASE}/${id}`)).body.data;
    expect(saved).toMatchObject({ lastTestOk: false, lastTestError: { reason: 'TOKEN_REJECTED' } });
    const [event] = await gateway.deps.db
      .select()
      .from(auditEvents)
      .where(sql`${auditEvents.targetId} = ${id} and ${auditEvents.action} = 'repohost.connector.tested'`);
    expect(event).toMatchObject({ outcome: 'failure' });
  });

  it('answers 404 for an unknown id', async () => {
    expectError(await gateway.call('POST', `${BASE}/${MISSING}/test`), 404, 'NOT_FOUND');
  });
});

describe('DELETE /api/integrations/repohost/connectors/:id', () => {
  it('deletes the connector and records an audit event', async () => {
    const { id } = await create();
    expect((await gateway.call('DELETE', `${BASE}/${id}`)).body).toEqual({ success: true });
    expectError(await gateway.call('GET', `${BASE}/${id}`), 404, 'NOT_FOUND');
    const actions = (await auditEventsAbout(gateway, id)).map((event) => event.action);
    expect(actions).toEqual(['repohost.connector.created', 'repohost.connector.deleted']);
    expectError(await gateway.call('DELETE', `${BASE}/${id}`), 404, 'NOT_FOUND');
  });
});

describe('access', () => {
  const routes = (id: string) =>
    [
      ['POST', `${BASE}/preview-test`],
      ['GET', BASE],
      ['POST', BASE],
      ['GET', `${BASE}/${id}`],
      ['PATCH', `${BASE}/${id}`],
      ['DELETE', `${BASE}/${id}`],
      ['POST', `${BASE}/${id}/test`],
    ] as const;

  it('refuses every route without a token (401) and without a scope (403)', async () => {
    const { id } = await create();
    const token = await gateway.tokenWithScopes([]);
    for (const [method, url] of routes(id)) {
      expectError(await gateway.call(method, url, { token: null, body: {} }), 401, 'UNAUTHORIZED');
      expectError(await gateway.call(method, url, { token, body: body() }), 403, 'FORBIDDEN');
    }
  });

  it('lets integrations:view read but not change or test', async () => {
    const { id } = await create();
    const token = await gateway.tokenWithScopes(['integrations:view']);
    expect((await gateway.call('GET', BASE, { token })).status).toBe(200);
    expect((await gateway.call('GET', `${BASE}/${id}`, { token })).status).toBe(200);
    for (const [method, url] of routes(id).filter(([method]) => method !== 'GET')) {
      expectError(await gateway.call(method, url, { token, body: body() }), 403, 'FORBIDDEN');
    }
  });
});

describe('the token is write-only', () => {
  it('is sealed in the database row', async () => {
    const { id } = await create();
    const [row] = await queryRows<Record<string, unknown>>(
      gateway.deps.db,
      sql`select * from repohost_connectors where id = ${id}`,
    );
    expect(JSON.stringify(row)).not.toContain(TOKENS.full);
    expect(row!.token_sealed).toMatch(/^v1\./);
  });

  it('appears in no table, no audit event and no log line after previews, creates, patches and tests', async () => {
    const secret = 'glpat-NeverWrittenDown00011';
    fake.tokens.push({ token: secret, userId: 1, scopes: ['api'], expiresAt: null });
    await gateway.call('POST', `${BASE}/preview-test`, { body: { baseUrl: fake.url, token: secret } });
    const { id } = await create({ token: secret });
    await gateway.call('POST', `${BASE}/${id}/test`);
    await gateway.call('PATCH', `${BASE}/${id}`, { body: { token: secret } });
    await gateway.call('PATCH', `${BASE}/${id}`, { body: { token: `${secret}-wrong` } });
    await gateway.call('POST', `${BASE}/preview-test`, {
      body: { baseUrl: 'http://169.254.169.254', token: secret },
    });

    const tables = await queryRows<{ name: string }>(
      gateway.deps.db,
      sql`select table_name as name from information_schema.tables where table_schema = 'public'`,
    );
    for (const { name } of tables) {
      const rows = await queryRows<unknown>(gateway.deps.db, sql.raw(`select * from "${name}"`));
      expect(JSON.stringify(rows), `table ${name}`).not.toContain(secret);
    }
    expect(logs.text).toContain(`${BASE}/preview-test`);
    expect(logs.text).not.toContain(secret);
  });
});

describeResourceScopes(() => gateway, {
  area: 'integrations',
  list: BASE,
  read: (id) => `${BASE}/${id}`,
  create: async () => (await create()).id,
});
