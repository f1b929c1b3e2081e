import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema/index.js';
import { auditEventsMatching } from '../support/audit-events.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

let gateway: TestGateway;
const email = 'operator@test';
const password = 'correct horse battery';

async function login() {
  const result = await gateway.call('POST', '/auth/login', { token: null, body: { email, password } });
  expect(result.status).toBe(200);
  return result;
}

function sessionCookie(result: Awaited<ReturnType<typeof login>>): string {
  const setCookie = String(result.headers['set-cookie']);
  return setCookie.split(';')[0]!;
}

beforeAll(async () => {
  gateway = await startTestGateway();
  const created = await gateway.call('POST', '/api/admin/users', {
    body: { email, name: 'Operator', group: 'admins', password },
  });
  expect(created.status).toBe(201);
});
afterAll(() => gateway.close());

describe('POST /auth/login', () => {
  it('starts a session answered as a token, a CSRF token and an HttpOnly cookie', async () => {
    const result = await login();
    expect(result.body.data.token).toMatch(/^igw_/);
    expect(result.body.data.csrfToken).toMatch(/^igc_/);
    expect(result.body.data.user).toMatchObject({ email, groupName: 'admins' });
    expect(String(result.headers['set-cookie'])).toMatch(/infragate_session=igw_.*HttpOnly/);
  });

  it('accepts the email in any letter case', async () => {
    const result = await gateway.call('POST', '/auth/login', {
      token: null,
      body: { email: 'OPERATOR@test', password },
    });
    expect(result.status).toBe(200);
  });

  it('refuses a wrong password with 401 and records a failed login', async () => {
    const result = await gateway.call('POST', '/auth/login', {
      token: null,
      body: { email, password: 'wrong password' },
    });
    expectError(result, 401, 'UNAUTHORIZED');
    const events = await auditEventsMatching(gateway, { action: 'auth.login.failed' });
    expect(events.length).toBeGreaterThan(0);
    expect(JSON.stringify(events)).not.toContain('wrong password');
  });

  it('refuses an unknown email with the same 401', async () => {
    const result = await gateway.call('POST', '/auth/login', {
      token: null,
      body: { email: 'nobody@test', password },
    });
    expectError(result, 401, 'UNAUTHORIZED');
  });

  it('requires email and password', async () => {
    const result = await gateway.call('POST', '/auth/login', { token: null, body: {} });
    expectValidationError(result, ['email']);
    expectValidationError(result, ['password']);
  });
});

describe('session cookies', () => {
  it('authenticate safe requests by cookie alone', async () => {
    const cookie = sessionCookie(await login());
    const result = await gateway.call('GET', '/auth/me', { token: null, headers: { cookie } });
    expect(result.body.data.email).toBe(email);
  });

  it('answer the session its CSRF token again on GET /auth/me (a reloaded console page)', async () => {
    const session = await login();
    const result = await gateway.call('GET', '/auth/me', {
      token: null,
      headers: { cookie: sessionCookie(session) },
    });
    expect(result.body.data.csrfToken).toBe(session.body.data.csrfToken);
  });

  it('answer the session when it ends on GET /auth/me (the console signs out then)', async () => {
    const session = await login();
    const result = await gateway.call('GET', '/auth/me', {
      token: null,
      headers: { cookie: sessionCookie(session) },
    });
    expect(result.body.data.sessionExpiresAt).toBe(session.body.data.expiresAt);
  });

  it('never answer a CSRF token or a session end to a bearer token', async () => {
    const session = await login();
    const result = await gateway.call('GET', '/auth/me', { token: session.body.data.token });
    expect(result.body.data).not.toHaveProperty('csrfToken');
    expect(result.body.data).not.toHaveProperty('sessionExpiresAt');
  });

  it('refuse a cookie-authenticated change without the CSRF token', async () => {
    const cookie = sessionCookie(await login());
    const result = await gateway.call('POST', '/auth/tokens', {
      token: null,
      headers: { cookie },
      body: { name: 'x' },
    });
    expectError(result, 403, 'FORBIDDEN');
    expect(result.body.details.reason).toBe('CSRF_TOKEN_INVALID');
  });

  it('refuse a cookie-authenticated change from another origin', async () => {
    const session = await login();
    const headers = {
      cookie: sessionCookie(session),
      'x-csrf-token': session.body.data.csrfToken,
      origin: 'https://evil.example',
    };
    const result = await gateway.call('POST', '/auth/tokens', { token: null, headers, body: { name: 'x' } });
    expect(result.body.details.reason).toBe('CROSS_ORIGIN');
  });

  it('allow a cookie-authenticated change with the CSRF token', async () => {
    const session = await login();
    const headers = { cookie: sessionCookie(session), 'x-csrf-token': session.body.data.csrfToken };
    const result = await gateway.call('POST', '/auth/tokens', { token: null, headers, body: { name: 'x' } });
    expect(result.status).toBe(201);
  });
});

describe('sessions of the caller', () => {
  it('lists active sessions and marks the current one', async () => {
    const session = await login();
    const result = await gateway.call('GET', '/auth/me/sessions', { token: session.body.data.token });
    const current = result.body.data.filter((s: { current: boolean }) => s.current);
    expect(current).toHaveLength(1);
    expect(current[0].userAgent).toBe('lightMyRequest');
  });

  it('revoke-others revokes the other sessions and keeps the current one', async () => {
    const [first, second, third] = [await login(), await login(), await login()];
    const result = await gateway.call('POST', '/auth/me/sessions/revoke-others', {
      token: first.body.data.token,
    });
    expect(result.status).toBe(200);
    expect(result.body.revoked).toBeGreaterThanOrEqual(2);
    expect((await gateway.call('GET', '/auth/me', { token: first.body.data.token })).status).toBe(200);
    expectError(
      await gateway.call('GET', '/auth/me', { token: second.body.data.token }),
      401,
      'UNAUTHORIZED',
    );
    expectError(await gateway.call('GET', '/auth/me', { token: third.body.data.token }), 401, 'UNAUTHORIZED');
  });

  it('revoke-others answers 0 when there is nothing else to revoke', async () => {
    const only = await login();
    await gateway.call('POST', '/auth/me/sessions/revoke-others', { token: only.body.data.token });
    const again = await gateway.call('POST', '/auth/me/sessions/revoke-others', {
      token: only.body.data.token,
    });
    expect(again.body).toEqual({ revoked: 0 });
  });

  it('revoke-others with an API token revokes every browser session of the user', async () => {
    const session = await login();
    const [operator] = await gateway.deps.db.select().from(users).where(eq(users.email, email));
    const { issueToken } = await import('../../src/core/auth/tokens.js');
    const api = await issueToken(gateway.deps.db, {
      userId: operator!.id,
      kind: 'api',
      name: 'api',
      expiresAt: null,
    });
    const result = await gateway.call('POST', '/auth/me/sessions/revoke-others', { token: api.token });
    expect(result.body.revoked).toBeGreaterThanOrEqual(1);
    expectError(
      await gateway.call('GET', '/auth/me', { token: session.body.data.token }),
      401,
      'UNAUTHORIZED',
    );
    expect((await gateway.call('GET', '/auth/me', { token: api.token })).status).toBe(200);
  });

  it('revoke-others needs authentication', async () => {
    expectError(
      await gateway.call('POST', '/auth/me/sessions/revoke-others', { token: null }),
      401,
      'UNAUTHORIZED',
    );
  });

  it('logout ends the current session', async () => {
    const session = await login();
    const token = session.body.data.token;
    expect((await gateway.call('POST', '/auth/logout', { token })).body).toEqual({ success: true });
    expectError(await gateway.call('GET', '/auth/me', { token }), 401, 'UNAUTHORIZED');
  });
});
