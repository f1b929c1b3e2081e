import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, inferenceConnections, inferenceOauthSessions } from '../../src/db/schema/index.js';
import { TOKEN_REFRESH_JOB } from '../../src/modules/inference/module.js';
import { startModelListServer } from '../services/model-list-server.js';
import type { OidcPeer } from '../services/oidc-provider.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import type { TestGateway } from '../support/gateway.js';
import { type OAuthTestBed, startOAuthTestBed } from './helpers.js';

let bed: OAuthTestBed;
let gateway: TestGateway;
let oidc: OidcPeer;

beforeAll(async () => {
  bed = await startOAuthTestBed();
  ({ gateway, oidc } = bed);
});
afterAll(() => bed?.close());

const SESSION_FIELDS = [
  'authorizationUrl',
  'completionMode',
  'connectionId',
  'errorCode',
  'errorMessage',
  'expiresAt',
  'id',
  'pollIntervalSeconds',
  'providerId',
  'status',
  'userCode',
];

async function start(name?: string) {
  const result = await gateway.call('POST', '/api/inference/providers/oauth/start', {
    body: { providerId: 'test-redirect', ...(name ? { name } : {}) },
  });
  expect(result.status).toBe(201);
  return result.body;
}

const complete = (id: string, callback?: string) =>
  gateway.call('POST', `/api/inference/providers/oauth/${id}/complete`, {
    body: callback === undefined ? {} : { callback },
  });

describe('POST /api/inference/providers/oauth/start (redirect + PKCE)', () => {
  it('answers 201 with exactly the session record fields, pending, with a paste_callback completion', async () => {
    const session = await start();
    expect(Object.keys(session).sort()).toEqual(SESSION_FIELDS);
    expect(session).toMatchObject({
      providerId: 'test-redirect',
      status: 'pending',
      completionMode: 'paste_callback',
      userCode: null,
      pollIntervalSeconds: null,
      connectionId: null,
      errorCode: null,
      errorMessage: null,
    });
    expect(new Date(session.expiresAt).getTime()).toBeGreaterThan(Date.now());
  });

  it('builds an authorization URL with client, redirect URI, state and an S256 PKCE challenge', async () => {
    const url = new URL((await start()).authorizationUrl);
    expect(`${url.origin}${url.pathname}`).toBe(oidc.endpoints.authorization);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('client_id')).toBe(oidc.redirectClientId);
    expect(url.searchParams.get('redirect_uri')).toBe(oidc.redirectUri);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('state')!.length).toBeGreaterThanOrEqual(20);
  });

  it('refuses an unknown provider with 400 on providerId', async () => {
    const result = await gateway.call('POST', '/api/inference/providers/oauth/start', {
      body: { providerId: 'nope' },
    });
    expectValidationError(result, ['providerId']);
  });

  it('refuses a provider without OAuth with 422 OAUTH_NOT_SUPPORTED', async () => {
    const result = await gateway.call('POST', '/api/inference/providers/oauth/start', {
      body: { providerId: 'test-api' },
    });
    expectError(result, 422, 'UNPROCESSABLE_ENTITY');
    expect(result.body.details.reason).toBe('OAUTH_NOT_SUPPORTED');
  });

  it('refuses creating an OAuth connection directly with 422 OAUTH_SESSION_REQUIRED', async () => {
    const result = await gateway.call('POST', '/api/inference/connections', {
      body: { providerId: 'test-redirect', name: 'direct oauth', authType: 'oauth' },
    });
    expectError(result, 422, 'UNPROCESSABLE_ENTITY');
    expect(result.body.details.reason).toBe('OAUTH_SESSION_REQUIRED');
  });

  it('refuses a missing providerId with 400', async () => {
    expectValidationError(await gateway.call('POST', '/api/inference/providers/oauth/start', { body: {} }), [
      'providerId',
    ]);
  });

  it('refuses a connection name already taken with 409', async () => {
    await gateway.call('POST', '/api/inference/connections', {
      body: { providerId: 'test-local', name: 'taken-name', authType: 'local' },
    });
    const result = await gateway.call('POST', '/api/inference/providers/oauth/start', {
      body: { providerId: 'test-redirect', name: 'taken-name' },
    });
    expectError(result, 409, 'CONFLICT');
  });

  it('needs a token (401) and inference:manage (403)', async () => {
    const body = { providerId: 'test-redirect' };
    expectError(
      await gateway.call('POST', '/api/inference/providers/oauth/start', { token: null, body }),
      401,
      'UNAUTHORIZED',
    );
    const viewer = await gateway.tokenWithScopes(['inference:view']);
    expectError(
      await gateway.call('POST', '/api/inference/providers/oauth/start', { token: viewer, body }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('POST /api/inference/providers/oauth/{id}/complete (paste_callback)', () => {
  it('exchanges the code of the pasted callback URL and stores the tokens in a new connection', async () => {
    const session = await start('Signed in by redirect');
    const callback = await oidc.browser.authorize(session.authorizationUrl);
    expect(callback.startsWith(oidc.redirectUri)).toBe(true);

    const result = await complete(session.id, callback);
    expect(result.status).toBe(200);
    expect(Object.keys(result.body).sort()).toEqual(SESSION_FIELDS);
    expect(result.body.status).toBe('complete');
    expect(result.body.connectionId).toMatch(/^[0-9a-f-]{36}$/);

    const connection = await gateway.call('GET', `/api/inference/connections/${result.body.connectionId}`);
    expect(connection.body.data).toMatchObject({
      providerId: 'test-redirect',
      name: 'Signed in by redirect',
      authType: 'oauth',
      hasAccessToken: true,
      hasRefreshToken: true,
    });
    expect(new Date(connection.body.data.accessTokenExpiresAt).getTime()).toBeGreaterThan(Date.now());
  });

  it('stores the tokens encrypted, and they work at the provider', async () => {
    const session = await start();
    const done = await complete(session.id, await oidc.browser.authorize(session.authorizationUrl));
    const [row] = await gateway.deps.db
      .select()
      .from(inferenceConnections)
      .where(eq(inferenceConnections.id, done.body.connectionId));
    expect(row!.accessTokenSealed).toMatch(/^v1\./);
    const accessToken = gateway.deps.secrets.open(
      row!.accessTokenSealed!,
      'inference_connections.access_token',
    );
    expect(await oidc.isActive(accessToken)).toBe(true);
  });

  it('accepts the callback as code#state', async () => {
    const session = await start();
    const url = new URL(await oidc.browser.authorize(session.authorizationUrl));
    const pasted = `${url.searchParams.get('code')}#${url.searchParams.get('state')}`;
    const result = await complete(session.id, pasted);
    expect(result.body.status).toBe('complete');
  });

  it('lists models with the OAuth access token through the connection test', async () => {
    const session = await start();
    const done = await complete(session.id, await oidc.browser.authorize(session.authorizationUrl));
    const result = await gateway.call('POST', `/api/inference/connections/${done.body.connectionId}/test`);
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({ ok: true, httpStatus: 200, modelCount: 2 });
  });

  it("drops the sign-in's tokens when the connection's base URL moves, and the new URL gets none", async () => {
    const elsewhere = await startModelListServer({
      apiKeys: [],
      isActiveToken: (token) => oidc.isActive(token),
    });
    try {
      const session = await start();
      const done = await complete(session.id, await oidc.browser.authorize(session.authorizationUrl));
      const path = `/api/inference/connections/${done.body.connectionId}`;
      const moved = await gateway.call('PATCH', path, { body: { baseUrl: `${elsewhere.url}/v1` } });
      expect(moved.body.droppedSecrets).toEqual(['accessToken', 'refreshToken']);
      expect(moved.body.data).toMatchObject({ hasAccessToken: false, hasRefreshToken: false });
      expect((await gateway.call('POST', `${path}/test`)).body.details.reason).toBe('NO_ACCESS_TOKEN');
      expect((await gateway.call('POST', `${path}/refresh`)).body.details.reason).toBe('NO_REFRESH_TOKEN');
      expect(elsewhere.requests).toEqual([]);
    } finally {
      await elsewhere.close();
    }
  });

  it('ends the session in error with state_mismatch when the state is wrong, and creates no connection', async () => {
    const session = await start();
    const url = new URL(await oidc.browser.authorize(session.authorizationUrl));
    url.searchParams.set('state', 'someone-elses-state');
    const result = await complete(session.id, url.href);
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ status: 'error', errorCode: 'state_mismatch', connectionId: null });
    expect(typeof result.body.errorMessage).toBe('string');
  });

  it('ends the session in error with the provider error when the user denied access', async () => {
    const session = await start();
    const state = new URL(session.authorizationUrl).searchParams.get('state');
    const callback = `${oidc.redirectUri}?error=access_denied&error_description=End-User+denied&state=${state}`;
    const result = await complete(session.id, callback);
    expect(result.body).toMatchObject({
      status: 'error',
      errorCode: 'access_denied',
      errorMessage: 'End-User denied',
    });
  });

  it('ends the session in error when the provider refuses the code (invalid_grant)', async () => {
    const session = await start();
    const state = new URL(session.authorizationUrl).searchParams.get('state');
    const result = await complete(session.id, `forged-code#${state}`);
    expect(result.body).toMatchObject({ status: 'error', errorCode: 'invalid_grant' });
  });

  it('answers a session that is no longer pending as it is, without calling the provider again', async () => {
    const session = await start();
    const callback = await oidc.browser.authorize(session.authorizationUrl);
    const first = await complete(session.id, callback);
    const second = await complete(session.id, callback);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
  });

  it('answers a session past its expiresAt as expired', async () => {
    const session = await start();
    await gateway.deps.db
      .update(inferenceOauthSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(inferenceOauthSessions.id, session.id));
    const result = await complete(session.id, 'code#state');
    expect(result.body.status).toBe('expired');
    expect((await gateway.call('GET', `/api/inference/providers/oauth/${session.id}`)).body.status).toBe(
      'expired',
    );
  });

  it('refuses a callback over 8192 characters with 400 on callback', async () => {
    const session = await start();
    expectValidationError(await complete(session.id, `x#${'a'.repeat(8191)}`), ['callback']);
  });

  it('refuses a callback that is neither a URL nor code#state with 400', async () => {
    const session = await start();
    expectValidationError(await complete(session.id, 'just some words'), ['callback']);
  });

  it('refuses a redirect session without a callback with 422 CALLBACK_REQUIRED, leaving it pending', async () => {
    const session = await start();
    const result = await complete(session.id);
    expectError(result, 422, 'UNPROCESSABLE_ENTITY');
    expect(result.body.details.reason).toBe('CALLBACK_REQUIRED');
    expect((await gateway.call('GET', `/api/inference/providers/oauth/${session.id}`)).body.status).toBe(
      'pending',
    );
  });

  it('answers 404 for an unknown session id, uuid or not', async () => {
    expectError(await complete('00000000-0000-4000-8000-000000000000', 'a#b'), 404, 'NOT_FOUND');
    expectError(await complete('not-a-uuid', 'a#b'), 404, 'NOT_FOUND');
  });

  it('needs a token (401) and inference:manage (403)', async () => {
    const session = await start();
    const url = `/api/inference/providers/oauth/${session.id}/complete`;
    expectError(await gateway.call('POST', url, { token: null, body: {} }), 401, 'UNAUTHORIZED');
    const viewer = await gateway.tokenWithScopes(['inference:view']);
    expectError(await gateway.call('POST', url, { token: viewer, body: {} }), 403, 'FORBIDDEN');
  });

  it('never answers or audits the code, state, verifier or tokens', async () => {
    const session = await start();
    const callback = await oidc.browser.authorize(session.authorizationUrl);
    const done = await complete(session.id, callback);
    const code = new URL(callback).searchParams.get('code')!;
    const [row] = await gateway.deps.db
      .select()
      .from(inferenceConnections)
      .where(eq(inferenceConnections.id, done.body.connectionId));
    const accessToken = gateway.deps.secrets.open(
      row!.accessTokenSealed!,
      'inference_connections.access_token',
    );
    const refreshToken = gateway.deps.secrets.open(
      row!.refreshTokenSealed!,
      'inference_connections.refresh_token',
    );
    const connection = await gateway.call('GET', `/api/inference/connections/${done.body.connectionId}`);
    const audit = JSON.stringify(await gateway.deps.db.select().from(auditEvents));
    for (const secret of [code, accessToken, refreshToken]) {
      expect(JSON.stringify(done.body)).not.toContain(secret);
      expect(connection.text).not.toContain(secret);
      expect(audit).not.toContain(secret);
    }
  });
});

describe('GET and cancel of an OAuth session', () => {
  it('answers the session record by id', async () => {
    const session = await start();
    const result = await gateway.call('GET', `/api/inference/providers/oauth/${session.id}`);
    expect(result.status).toBe(200);
    expect(result.body).toEqual(session);
  });

  it('cancels a pending session, after which a callback no longer completes it', async () => {
    const session = await start();
    const callback = await oidc.browser.authorize(session.authorizationUrl);
    const cancelled = await gateway.call('POST', `/api/inference/providers/oauth/${session.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    const result = await complete(session.id, callback);
    expect(result.body).toMatchObject({ status: 'cancelled', connectionId: null });
  });

  it('lists sessions newest first, filtered by status', async () => {
    const session = await start();
    await gateway.call('POST', `/api/inference/providers/oauth/${session.id}/cancel`);
    const result = await gateway.call('GET', '/api/inference/providers/oauth', {
      query: { status: 'cancelled', limit: 100 },
    });
    expect(result.status).toBe(200);
    expect(result.body.data.map((s: { id: string }) => s.id)).toContain(session.id);
    expect(new Set(result.body.data.map((s: { status: string }) => s.status))).toEqual(
      new Set(['cancelled']),
    );
    expect(result.body.pagination).toMatchObject({ page: 1, limit: 100 });
  });

  it('answers 404 for an unknown session on GET and cancel', async () => {
    expectError(await gateway.call('GET', '/api/inference/providers/oauth/nope'), 404, 'NOT_FOUND');
    expectError(
      await gateway.call(
        'POST',
        '/api/inference/providers/oauth/00000000-0000-4000-8000-000000000000/cancel',
      ),
      404,
      'NOT_FOUND',
    );
  });

  it('needs inference:view to read and inference:manage to cancel', async () => {
    const session = await start();
    const none = await gateway.tokenWithScopes([]);
    expectError(
      await gateway.call('GET', `/api/inference/providers/oauth/${session.id}`, { token: none }),
      403,
      'FORBIDDEN',
    );
    const viewer = await gateway.tokenWithScopes(['inference:view']);
    expect(
      (await gateway.call('GET', `/api/inference/providers/oauth/${session.id}`, { token: viewer })).status,
    ).toBe(200);
    expectError(
      await gateway.call('POST', `/api/inference/providers/oauth/${session.id}/cancel`, { token: viewer }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('refresh tokens', () => {
  it('renews an access token about to expire in the background job, rotating the refresh token', async () => {
    const session = await start();
    const done = await complete(session.id, await oidc.browser.authorize(session.authorizationUrl));
    const id = done.body.connectionId;
    const soon = new Date(Date.now() + 60_000);
    await gateway.deps.db
      .update(inferenceConnections)
      .set({ accessTokenExpiresAt: soon })
      .where(eq(inferenceConnections.id, id));
    const [before] = await gateway.deps.db
      .select()
      .from(inferenceConnections)
      .where(eq(inferenceConnections.id, id));

    await gateway.deps.jobs.runNow(TOKEN_REFRESH_JOB);

    const [after] = await gateway.deps.db
      .select()
      .from(inferenceConnections)
      .where(eq(inferenceConnections.id, id));
    expect(after!.accessTokenExpiresAt!.getTime()).toBeGreaterThan(soon.getTime());
    expect(after!.accessTokenSealed).not.toBe(before!.accessTokenSealed);
    expect(after!.lastRefreshedAt).not.toBeNull();
    const accessToken = gateway.deps.secrets.open(
      after!.accessTokenSealed!,
      'inference_connections.access_token',
    );
    expect(await oidc.isActive(accessToken)).toBe(true);
  });

  it('renews an access token about to expire before using it for a connection test', async () => {
    const session = await start();
    const done = await complete(session.id, await oidc.browser.authorize(session.authorizationUrl));
    await gateway.deps.db
      .update(inferenceConnections)
      .set({ accessTokenExpiresAt: new Date(Date.now() + 30_000) })
      .where(eq(inferenceConnections.id, done.body.connectionId));
    const tested = await gateway.call('POST', `/api/inference/connections/${done.body.connectionId}/test`);
    expect(tested.body.data.ok).toBe(true);
    const connection = await gateway.call('GET', `/api/inference/connections/${done.body.connectionId}`);
    expect(connection.body.data.lastRefreshedAt).not.toBeNull();
    expect(new Date(connection.body.data.accessTokenExpiresAt).getTime()).toBeGreaterThan(
      Date.now() + 600_000,
    );
  });

  it('renews on demand with POST /api/inference/connections/{id}/refresh', async () => {
    const session = await start();
    const done = await complete(session.id, await oidc.browser.authorize(session.authorizationUrl));
    const result = await gateway.call('POST', `/api/inference/connections/${done.body.connectionId}/refresh`);
    expect(result.status).toBe(200);
    expect(result.body.data.lastRefreshedAt).not.toBeNull();
    expect(result.body.data.lastRefreshError).toBeNull();
  });
});
