import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, loggingIngestTokens } from '../../src/db/schema/index.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { UNKNOWN } from './helpers.js';
import { logStore } from './log-store.js';

let gateway: TestGateway;
let store: ReturnType<typeof logStore>;
let viewer: string;
beforeAll(async () => {
  gateway = await startTestGateway();
  store = logStore(gateway);
  viewer = await gateway.tokenWithScopes(['logging:view']);
});
afterAll(() => gateway.close());

const tokensUrl = (environmentId: string) => `/api/logging/environments/${environmentId}/tokens`;

async function actions(targetId: string) {
  // In the order they were written (a plain select has no order on PostgreSQL).
  const events = await gateway.deps.db
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.targetId, targetId))
    .orderBy(auditEvents.entry);
  return events.map((event) => event.action);
}

describe('ingest tokens', () => {
  it('answers the secret once, as igl_…, and stores only its hash', async () => {
    const environment = await store.environment();
    const result = await gateway.call('POST', tokensUrl(environment.id), { body: { name: 'shipper' } });
    expect(result.status).toBe(201);
    expect(result.body.data).toMatchObject({
      name: 'shipper',
      environmentId: environment.id,
      revokedAt: null,
    });
    expect(result.body.data.token).toMatch(/^igl_[A-Za-z0-9_-]{43}$/);
    const [row] = await gateway.deps.db
      .select()
      .from(loggingIngestTokens)
      .where(eq(loggingIngestTokens.id, result.body.data.id));
    expect(row!.tokenHash).not.toContain(result.body.data.token);
    expect(JSON.stringify(row)).not.toContain(result.body.data.token.slice(4));
  });

  it('lists the tokens of an environment without their secrets', async () => {
    const environment = await store.environment();
    const secret = await store.token(environment.id, 'listed');
    const result = await gateway.call('GET', tokensUrl(environment.id));
    expect(result.status).toBe(200);
    expect(result.body.data).toHaveLength(1);
    expect(result.body.data[0]).toMatchObject({ name: 'listed', lastUsedAt: null });
    expect(result.text).not.toContain(secret);
    expect(result.body.pagination).toMatchObject({ total: 1 });
  });

  it('records when a token was last used', async () => {
    const environment = await store.environment();
    const secret = await store.token(environment.id);
    await store.ingest(secret, { message: 'x' });
    const listed = async () => (await gateway.call('GET', tokensUrl(environment.id))).body.data[0].lastUsedAt;
    await expect.poll(listed).not.toBeNull();
  });

  it('revokes a token: the next ingest with it is refused', async () => {
    const environment = await store.environment();
    const secret = await store.token(environment.id);
    const [listed] = (await gateway.call('GET', tokensUrl(environment.id))).body.data;
    const revoked = await gateway.call('DELETE', `${tokensUrl(environment.id)}/${listed.id}`);
    expect(revoked.body).toEqual({ success: true });
    expectError(await store.ingest(secret, { message: 'x' }), 401, 'UNAUTHORIZED');
    expect((await gateway.call('GET', tokensUrl(environment.id))).body.data[0].revokedAt).not.toBeNull();
  });

  it('audits every token change without the secret', async () => {
    const environment = await store.environment();
    const created = await gateway.call('POST', tokensUrl(environment.id), { body: { name: 'audited' } });
    await gateway.call('DELETE', `${tokensUrl(environment.id)}/${created.body.data.id}`);
    expect(await actions(created.body.data.id)).toEqual([
      'logging.ingest_token.created',
      'logging.ingest_token.revoked',
    ]);
    const events = await gateway.deps.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.targetId, created.body.data.id));
    expect(JSON.stringify(events)).not.toContain(created.body.data.token);
  });

  it('refuses an expired token', async () => {
    const environment = await store.environment();
    const expiresAt = new Date(Date.now() + 60_000).toISOString();
    const created = await gateway.call('POST', tokensUrl(environment.id), {
      body: { name: 'brief', expiresAt },
    });
    await gateway.deps.db
      .update(loggingIngestTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(loggingIngestTokens.id, created.body.data.id));
    expectError(await store.ingest(created.body.data.token, { message: 'x' }), 401, 'UNAUTHORIZED');
  });

  it('validates name and expiresAt', async () => {
    const environment = await store.environment();
    expectValidationError(await gateway.call('POST', tokensUrl(environment.id), { body: {} }), ['name']);
    expectValidationError(await gateway.call('POST', tokensUrl(environment.id), { body: { name: '   ' } }), [
      'name',
    ]);
    const past = new Date(Date.now() - 1000).toISOString();
    expectValidationError(
      await gateway.call('POST', tokensUrl(environment.id), { body: { name: 'x', expiresAt: past } }),
      ['expiresAt'],
    );
    expectValidationError(
      await gateway.call('POST', tokensUrl(environment.id), { body: { name: 'x', expiresAt: 'soon' } }),
      ['expiresAt'],
    );
  });

  it('answers 404 for an unknown environment or token', async () => {
    const environment = await store.environment();
    expectError(await gateway.call('POST', tokensUrl(UNKNOWN), { body: { name: 'x' } }), 404, 'NOT_FOUND');
    expectError(await gateway.call('GET', tokensUrl('not-an-id')), 404, 'NOT_FOUND');
    expectError(await gateway.call('DELETE', `${tokensUrl(environment.id)}/${UNKNOWN}`), 404, 'NOT_FOUND');
  });

  it('cannot revoke a token through another environment', async () => {
    const [a, b] = [await store.environment(), await store.environment()];
    const secret = await store.token(a.id);
    const [listed] = (await gateway.call('GET', tokensUrl(a.id))).body.data;
    expectError(await gateway.call('DELETE', `${tokensUrl(b.id)}/${listed.id}`), 404, 'NOT_FOUND');
    expect((await store.ingest(secret, { message: 'x' })).status).toBe(200);
  });

  it('needs logging:manage, even to list', async () => {
    const environment = await store.environment();
    expectError(await gateway.call('GET', tokensUrl(environment.id), { token: viewer }), 403, 'FORBIDDEN');
    expectError(
      await gateway.call('POST', tokensUrl(environment.id), { token: viewer, body: { name: 'x' } }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('what an ingest token opens', () => {
  it('writes only to its own environment', async () => {
    const [a, b] = [await store.environment(), await store.environment()];
    await store.ingest(await store.token(a.id), { message: 'for a' });
    expect(await store.records(a.id)).toHaveLength(1);
    expect(await store.records(b.id)).toEqual([]);
  });

  it('is refused by every other route', async () => {
    const environment = await store.environment();
    const secret = await store.token(environment.id);
    for (const [method, url] of [
      ['GET', `/api/logging/environments/${environment.id}/records`],
      ['GET', '/api/logging/environments'],
      ['GET', '/auth/me'],
      ['POST', tokensUrl(environment.id)],
    ] as const) {
      expectError(
        await gateway.call(method, url, { token: secret, body: { name: 'x' } }),
        401,
        'UNAUTHORIZED',
      );
    }
  });

  it('is the only credential ingest takes: no token, an API token or a made-up one are 401', async () => {
    expectError(await store.ingest(null, { message: 'x' }), 401, 'UNAUTHORIZED');
    expectError(await store.ingest(gateway.adminToken, { message: 'x' }), 401, 'UNAUTHORIZED');
    expectError(await store.ingest(`igl_${'A'.repeat(43)}`, { message: 'x' }), 401, 'UNAUTHORIZED');
  });

  it('stops working when its environment is deleted', async () => {
    const environment = await store.environment();
    const secret = await store.token(environment.id);
    await gateway.call('DELETE', `/api/logging/environments/${environment.id}`);
    expectError(await store.ingest(secret, { message: 'x' }), 401, 'UNAUTHORIZED');
  });
});

describe('a caller holding logging scopes on one environment', () => {
  it('manages the ingest tokens of that environment, and gets 404 for those of another', async () => {
    const [mine, theirs] = [await store.environment(), await store.environment()];
    const token = await gateway.tokenWithScopes([`logging:manage:${mine.id}`]);
    const body = { name: 'scoped' };
    expect((await gateway.call('POST', tokensUrl(mine.id), { token, body })).status).toBe(201);
    expect((await gateway.call('GET', tokensUrl(mine.id), { token })).status).toBe(200);
    expectError(await gateway.call('POST', tokensUrl(theirs.id), { token, body }), 404, 'NOT_FOUND');
  });

  it.each(['records', 'facets', 'histogram', 'tail'])(
    'reads the %s of that environment only',
    async (what) => {
      const [mine, theirs] = [await store.environment(), await store.environment()];
      const token = await gateway.tokenWithScopes([`logging:view:${mine.id}`]);
      const query: Record<string, string> = what === 'facets' ? { field: 'level' } : {};
      const read = (id: string) =>
        gateway.call('GET', `/api/logging/environments/${id}/${what}`, { token, query });
      const other = await read(theirs.id);
      expectError(other, 404, 'NOT_FOUND');
      // The tail stays open, so only the refusal is read here (test/logging/tail.test.ts streams it).
      if (what === 'tail') return;
      const own = await read(mine.id);
      expect(own.status, own.text).toBe(200);
    },
  );
});
