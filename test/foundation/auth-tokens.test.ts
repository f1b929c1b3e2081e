import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../src/core/auth/tokens.js';
import { authTokens } from '../../src/db/schema/index.js';
import { eventually } from '../support/eventually.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.close());

describe('bearer token checks', () => {
  it('refuses a missing Authorization header with 401', async () => {
    expectError(await gateway.call('GET', '/auth/me', { token: null }), 401, 'UNAUTHORIZED');
  });

  it('refuses a malformed Authorization header with 401', async () => {
    const result = await gateway.call('GET', '/auth/me', {
      token: null,
      headers: { authorization: 'Basic abc' },
    });
    expectError(result, 401, 'UNAUTHORIZED');
  });

  it('refuses a token that is not of the igw_ form with 401', async () => {
    expectError(await gateway.call('GET', '/auth/me', { token: 'not-a-token' }), 401, 'UNAUTHORIZED');
  });

  it('refuses a well-formed but unknown token with 401', async () => {
    expectError(
      await gateway.call('GET', '/auth/me', { token: `igw_${'A'.repeat(43)}` }),
      401,
      'UNAUTHORIZED',
    );
  });

  it('refuses an expired token with 401', async () => {
    const issued = await issueToken(gateway.deps.db, {
      userId: gateway.adminUserId,
      kind: 'api',
      name: 'expired',
      expiresAt: new Date(Date.now() - 1000),
    });
    expectError(await gateway.call('GET', '/auth/me', { token: issued.token }), 401, 'UNAUTHORIZED');
  });

  it('refuses a revoked token with 401 at once, even after it was used', async () => {
    const created = await gateway.call('POST', '/auth/tokens', { body: { name: 'to revoke' } });
    const token = created.body.data.token as string;
    expect((await gateway.call('GET', '/auth/me', { token })).status).toBe(200);
    expect((await gateway.call('DELETE', `/auth/tokens/${created.body.data.id}`)).body).toEqual({
      success: true,
    });
    expectError(await gateway.call('GET', '/auth/me', { token }), 401, 'UNAUTHORIZED');
  });

  it('answers 401 rather than 404 for unknown API paths without a token', async () => {
    expectError(await gateway.call('GET', '/api/no-such-thing', { token: null }), 401, 'UNAUTHORIZED');
  });
});

describe('API tokens of the caller', () => {
  it('creates a token whose secret is shown once and stored only as a hash', async () => {
    const result = await gateway.call('POST', '/auth/tokens', { body: { name: 'ci', expiresInDays: 30 } });
    expect(result.status).toBe(201);
    expect(result.body.data).toMatchObject({ name: 'ci', lastUsedAt: null });
    expect(result.body.data.token).toMatch(/^igw_/);
    const [row] = await gateway.deps.db
      .select()
      .from(authTokens)
      .where(eq(authTokens.id, result.body.data.id));
    expect(JSON.stringify(row)).not.toContain(result.body.data.token);
    expect(new Date(result.body.data.expiresAt).getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
  });

  it('lists the caller’s tokens without their secrets', async () => {
    const result = await gateway.call('GET', '/auth/tokens');
    expect(result.status).toBe(200);
    expect(result.body.data.length).toBeGreaterThan(0);
    for (const token of result.body.data) expect(token).not.toHaveProperty('token');
  });

  it('lists each token with the first characters of its secret, to tell them apart', async () => {
    const created = (await gateway.call('POST', '/auth/tokens', { body: { name: 'prefixed' } })).body.data;
    expect(created.prefix).toBe(created.token.slice(0, 12));
    const listed = (await gateway.call('GET', '/auth/tokens')).body.data.find(
      (token: { id: string }) => token.id === created.id,
    );
    expect(listed).toMatchObject({ name: 'prefixed', prefix: created.token.slice(0, 12), lastUsedAt: null });
  });

  it('shows when a token was last used', async () => {
    const created = (await gateway.call('POST', '/auth/tokens', { body: { name: 'used' } })).body.data;
    await gateway.call('GET', '/auth/me', { token: created.token });
    const lastUsed = await eventually(async () => {
      const tokens = (await gateway.call('GET', '/auth/tokens')).body.data;
      return tokens.find((token: { id: string }) => token.id === created.id).lastUsedAt;
    }, 'the last use of the token');
    expect(new Date(lastUsed).getTime()).toBeGreaterThanOrEqual(new Date(created.createdAt).getTime());
  });

  it('answers that no lifetime limit applies by default', async () => {
    expect((await gateway.call('GET', '/auth/tokens')).body.maxLifetimeDays).toBeNull();
  });

  it('rejects a token name that is empty or too long', async () => {
    expectValidationError(await gateway.call('POST', '/auth/tokens', { body: { name: '' } }), ['name']);
    expectValidationError(await gateway.call('POST', '/auth/tokens', { body: { name: 'x'.repeat(256) } }), [
      'name',
    ]);
  });

  it('rejects an expiry outside 1 to 3650 days', async () => {
    const body = { name: 'x', expiresInDays: 0 };
    expectValidationError(await gateway.call('POST', '/auth/tokens', { body }), ['expiresInDays']);
  });

  it('answers 404 when revoking a token that is not the caller’s', async () => {
    const other = await gateway.tokenWithScopes([]);
    const mine = await gateway.call('POST', '/auth/tokens', { body: { name: 'mine' } });
    expectError(
      await gateway.call('DELETE', `/auth/tokens/${mine.body.data.id}`, { token: other }),
      404,
      'NOT_FOUND',
    );
  });

  it('answers 400 for a token id that is not a uuid', async () => {
    expectValidationError(await gateway.call('DELETE', '/auth/tokens/abc'), ['id']);
  });
});

describe('a token lifetime policy (INFRAGATE_TOKEN_MAX_DAYS)', () => {
  let limited: TestGateway;
  beforeAll(async () => {
    limited = await startTestGateway({ tokenMaxDays: 30 });
  });
  afterAll(() => limited.close());

  it('gives a token without an expiry the longest lifetime allowed', async () => {
    const created = await limited.call('POST', '/auth/tokens', { body: { name: 'default expiry' } });
    expect(created.status).toBe(201);
    const lifetime = new Date(created.body.data.expiresAt).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(29 * 86_400_000);
    expect(lifetime).toBeLessThanOrEqual(30 * 86_400_000);
  });

  it('accepts a shorter lifetime', async () => {
    const created = await limited.call('POST', '/auth/tokens', { body: { name: 'short', expiresInDays: 7 } });
    expect(new Date(created.body.data.expiresAt).getTime()).toBeLessThan(Date.now() + 8 * 86_400_000);
  });

  it('refuses a longer lifetime on expiresInDays and creates nothing', async () => {
    const before = (await limited.call('GET', '/auth/tokens')).body.data.length;
    const result = await limited.call('POST', '/auth/tokens', { body: { name: 'long', expiresInDays: 31 } });
    expectValidationError(result, ['expiresInDays']);
    expect((await limited.call('GET', '/auth/tokens')).body.data).toHaveLength(before);
  });

  it('answers the limit with the token list, for the console to show', async () => {
    expect((await limited.call('GET', '/auth/tokens')).body.maxLifetimeDays).toBe(30);
  });
});
