import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleSetupCodes, users } from '../../src/db/schema/index.js';
import { createSetupCode } from '../../src/modules/console/setup-codes.js';
import { auditEventsMatching } from '../support/audit-events.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

let gateway: TestGateway;
const password = 'a new password';

beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.close());

/** A user without a password and a fresh setup code for it, as the first start makes them. */
async function userWithCode(ttlSeconds = 3600) {
  const email = `setup-${Math.random().toString(36).slice(2)}@test`;
  const created = await gateway.call('POST', '/api/admin/users', {
    body: { email, name: 'S', group: 'admins' },
  });
  const { code } = await createSetupCode(gateway.deps.db, created.body.data.id, ttlSeconds);
  return { email, code, userId: created.body.data.id as string };
}

const check = (code: string) => gateway.call('POST', '/auth/setup/check', { token: null, body: { code } });
const complete = (code: string, newPassword = password) =>
  gateway.call('POST', '/auth/setup', { token: null, body: { code, password: newPassword } });
const login = (email: string, pass = password) =>
  gateway.call('POST', '/auth/login', { token: null, body: { email, password: pass } });

function expectRefused(result: Awaited<ReturnType<typeof check>>, reason: string) {
  expectError(result, 422, 'UNPROCESSABLE_ENTITY');
  expect(result.body.details.reason).toBe(reason);
  expect(result.body.details.explanation).toEqual(expect.any(String));
}

describe('POST /auth/setup/check', () => {
  it('names the account of a usable code and when the code expires', async () => {
    const { email, code } = await userWithCode();
    const result = await check(code);
    expect(result.status).toBe(200);
    expect(result.body.data).toEqual({ email, expiresAt: expect.any(String) });
  });

  it('refuses a code it never issued', async () => {
    expectRefused(await check('no-such-code'), 'SETUP_CODE_UNKNOWN');
  });

  it('needs no token', async () => {
    const { code } = await userWithCode();
    expect((await check(code)).status).toBe(200);
  });

  it('requires the code', async () => {
    expectValidationError(await gateway.call('POST', '/auth/setup/check', { token: null, body: {} }), [
      'code',
    ]);
  });
});

describe('POST /auth/setup', () => {
  it('sets the password, which then signs in', async () => {
    const { email, code } = await userWithCode();
    expect((await complete(code)).status).toBe(200);
    expect((await login(email)).status).toBe(200);
  });

  it('starts a browser session: an HttpOnly cookie and its CSRF token', async () => {
    const { email, code } = await userWithCode();
    const result = await complete(code);
    expect(result.body.data).toEqual({
      email,
      csrfToken: expect.stringMatching(/^igc_/),
      expiresAt: expect.any(String),
    });
    expect(String(result.headers['set-cookie'])).toMatch(/infragate_session=igw_.*HttpOnly/);
    const cookie = String(result.headers['set-cookie']).split(';')[0]!;
    const me = await gateway.call('GET', '/auth/me', { token: null, headers: { cookie } });
    expect(me.body.data).toMatchObject({ email, csrfToken: result.body.data.csrfToken });
  });

  it('works once: the same code is refused afterwards', async () => {
    const { code } = await userWithCode();
    expect((await complete(code)).status).toBe(200);
    expectRefused(await complete(code, 'another password'), 'SETUP_CODE_USED');
    expectRefused(await check(code), 'SETUP_CODE_USED');
  });

  it('refuses an expired code and changes nothing', async () => {
    const { email, code, userId } = await userWithCode();
    await gateway.deps.db
      .update(consoleSetupCodes)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(consoleSetupCodes.userId, userId));
    expectRefused(await complete(code), 'SETUP_CODE_EXPIRED');
    expectError(await login(email), 401, 'UNAUTHORIZED');
  });

  it('refuses a code whose account has a password already', async () => {
    const { userId, code } = await userWithCode();
    await gateway.call('PUT', `/api/admin/users/${userId}/password`, {
      body: { password: 'set by an admin' },
    });
    expectRefused(await complete(code), 'PASSWORD_ALREADY_SET');
  });

  it('refuses a code whose account is disabled', async () => {
    const { userId, code } = await userWithCode();
    await gateway.call('PATCH', `/api/admin/users/${userId}/disabled`, { body: { disabled: true } });
    expectRefused(await complete(code), 'USER_DISABLED');
  });

  it('refuses a password shorter than 8 characters and leaves the code usable', async () => {
    const { code } = await userWithCode();
    expectValidationError(await complete(code, 'short'), ['password']);
    expect((await check(code)).status).toBe(200);
  });

  it('requires the code and the password', async () => {
    const result = await gateway.call('POST', '/auth/setup', { token: null, body: {} });
    expectValidationError(result, ['code']);
    expectValidationError(result, ['password']);
  });

  it('records the setup and the sign-in in the audit trail, never the code or the password', async () => {
    const { userId, code } = await userWithCode();
    await complete(code);
    const events = await auditEventsMatching(gateway, { actorId: userId });
    expect(events.map((event) => event.action)).toEqual(
      expect.arrayContaining(['console.setup.completed', 'auth.login.succeeded']),
    );
    expect(JSON.stringify(events)).not.toContain(code);
    expect(JSON.stringify(events)).not.toContain(password);
  });

  it('records a refused code in the audit trail', async () => {
    await complete('a-code-never-issued');
    const refused = await auditEventsMatching(gateway, { action: 'console.setup.refused' });
    expect(refused.some((event) => event.outcome === 'failure')).toBe(true);
  });

  it('stores only a hash of the code', async () => {
    const { userId, code } = await userWithCode();
    const rows = await gateway.deps.db
      .select()
      .from(consoleSetupCodes)
      .where(eq(consoleSetupCodes.userId, userId));
    expect(JSON.stringify(rows)).not.toContain(code);
    const [user] = await gateway.deps.db.select().from(users).where(eq(users.id, userId));
    expect(user!.passwordHash).toBeNull();
  });
});
