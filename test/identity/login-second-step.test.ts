import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEventsMatching } from '../support/audit-events.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import {
  codeFor,
  createPasswordUser,
  enrolTotp,
  type PasswordUser,
  passwordLogin,
  sessionCookieOf,
  sessionTokenOf,
  wrongCodeFor,
} from './helpers.js';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway({ loginMaxFailuresPerEmail: 3, loginMaxFailuresPerAddress: 1000 });
});
afterAll(() => gateway.close());

/** A user with TOTP on, and the secret and recovery codes of their authenticator. */
async function userWithTotp(): Promise<PasswordUser & { secret: string; recoveryCodes: string[] }> {
  const user = await createPasswordUser(gateway, { scopes: ['audit:view'] });
  return { ...user, ...(await enrolTotp(gateway, await sessionTokenOf(gateway, user))) };
}

async function challengeOf(user: PasswordUser): Promise<string> {
  const result = await passwordLogin(gateway, user);
  expect(result.status).toBe(200);
  return result.body.data.challengeToken;
}

const secondStep = (body: Record<string, unknown>) =>
  gateway.call('POST', '/auth/login/totp', { token: null, body });

describe('POST /auth/login for an account with two-factor sign-in', () => {
  it('answers mfaRequired and a challenge token, and starts no session', async () => {
    const user = await userWithTotp();
    const result = await passwordLogin(gateway, user);
    expect(result.status).toBe(200);
    expect(Object.keys(result.body.data).sort()).toEqual(['challengeToken', 'expiresAt', 'mfaRequired']);
    expect(result.body.data.mfaRequired).toBe(true);
    expect(sessionCookieOf(result)).toBeUndefined();
  });

  it('still refuses a wrong password with the plain 401', async () => {
    const user = await userWithTotp();
    expectError(await passwordLogin(gateway, { ...user, password: 'wrong password' }), 401, 'UNAUTHORIZED');
  });
});

describe('POST /auth/login/totp', () => {
  it('completes the login with the code: a session, a CSRF token and the cookie', async () => {
    const user = await userWithTotp();
    const result = await secondStep({
      challengeToken: await challengeOf(user),
      code: await codeFor(user.secret, 1),
    });
    expect(result.status).toBe(200);
    expect(result.body.data.token).toMatch(/^igw_/);
    expect(result.body.data.csrfToken).toMatch(/^igc_/);
    expect(result.body.data.user).toMatchObject({ email: user.email, scopes: ['audit:view'] });
    expect(result.body.data).not.toHaveProperty('recoveryCodes');
    expect(sessionCookieOf(result)).toMatch(/^infragate_session=igw_/);
    const me = await gateway.call('GET', '/auth/me', { token: result.body.data.token });
    expect(me.body.data.email).toBe(user.email);
  });

  it('records which second factor completed the login', async () => {
    const user = await userWithTotp();
    await secondStep({ challengeToken: await challengeOf(user), code: await codeFor(user.secret, 1) });
    const events = await auditEventsMatching(gateway, { action: 'auth.login.succeeded', actorId: user.id });
    expect(events.map((event) => event.metadata)).toContainEqual({ secondFactor: 'totp' });
  });

  it('refuses a code used once already, even within its window', async () => {
    const user = await userWithTotp();
    const code = await codeFor(user.secret, 1);
    expect((await secondStep({ challengeToken: await challengeOf(user), code })).status).toBe(200);
    expectError(await secondStep({ challengeToken: await challengeOf(user), code }), 401, 'UNAUTHORIZED');
  });

  it('refuses a wrong code with 401 and counts it as a failed login', async () => {
    const user = await userWithTotp();
    const code = await wrongCodeFor(user.secret);
    expectError(await secondStep({ challengeToken: await challengeOf(user), code }), 401, 'UNAUTHORIZED');
    const failures = await auditEventsMatching(gateway, { action: 'auth.login.failed', actorId: user.id });
    expect(failures.map((event) => event.metadata)).toEqual([{ email: user.email, step: 'totp' }]);
  });

  it('keeps the challenge open after a wrong code, so the person can type it again', async () => {
    const user = await userWithTotp();
    const challengeToken = await challengeOf(user);
    await secondStep({ challengeToken, code: await wrongCodeFor(user.secret) });
    expect((await secondStep({ challengeToken, code: await codeFor(user.secret, 1) })).status).toBe(200);
  });

  it('locks the account after too many wrong codes, even for the right one', async () => {
    const user = await userWithTotp();
    const challengeToken = await challengeOf(user);
    const wrong = await wrongCodeFor(user.secret);
    for (let attempt = 0; attempt < 3; attempt++) await secondStep({ challengeToken, code: wrong });
    const locked = await secondStep({ challengeToken, code: await codeFor(user.secret, 1) });
    expectError(locked, 401, 'UNAUTHORIZED');
    expect(locked.body.details.reason).toBe('TOO_MANY_FAILED_LOGINS');
  });

  it('accepts a recovery code once', async () => {
    const user = await userWithTotp();
    const [recoveryCode] = user.recoveryCodes;
    const first = await secondStep({ challengeToken: await challengeOf(user), recoveryCode });
    expect(first.status).toBe(200);
    expectError(
      await secondStep({ challengeToken: await challengeOf(user), recoveryCode }),
      401,
      'UNAUTHORIZED',
    );
    const token = first.body.data.token;
    expect((await gateway.call('GET', '/auth/me/totp', { token })).body.data.recoveryCodesLeft).toBe(9);
  });

  it('accepts a recovery code typed in capitals and without dashes', async () => {
    const user = await userWithTotp();
    const typed = user.recoveryCodes[1]!.replaceAll('-', '').toUpperCase();
    expect((await secondStep({ challengeToken: await challengeOf(user), recoveryCode: typed })).status).toBe(
      200,
    );
  });

  it('uses the challenge up: the same challenge cannot start a second session', async () => {
    const user = await userWithTotp();
    const challengeToken = await challengeOf(user);
    expect((await secondStep({ challengeToken, recoveryCode: user.recoveryCodes[0] })).status).toBe(200);
    const again = await secondStep({ challengeToken, recoveryCode: user.recoveryCodes[1] });
    expectError(again, 401, 'UNAUTHORIZED');
    expect(again.body.details.reason).toBe('CHALLENGE_INVALID');
  });

  it('refuses an unknown challenge with 401 CHALLENGE_INVALID', async () => {
    const result = await secondStep({ challengeToken: 'igm_nope', code: '123456' });
    expectError(result, 401, 'UNAUTHORIZED');
    expect(result.body.details.reason).toBe('CHALLENGE_INVALID');
  });

  it('refuses a user disabled between the two steps', async () => {
    const user = await userWithTotp();
    const challengeToken = await challengeOf(user);
    await gateway.call('PATCH', `/api/admin/users/${user.id}/disabled`, { body: { disabled: true } });
    expectError(
      await secondStep({ challengeToken, code: await codeFor(user.secret, 1) }),
      401,
      'UNAUTHORIZED',
    );
  });

  it('asks for exactly one of code and recoveryCode', async () => {
    expectValidationError(await secondStep({ challengeToken: 'igm_x' }), ['code']);
    expectValidationError(await secondStep({ challengeToken: 'igm_x', code: '123456', recoveryCode: 'a' }), [
      'code',
    ]);
  });

  it('validates the fields', async () => {
    expectValidationError(await secondStep({ code: '123456' }), ['challengeToken']);
    expectValidationError(await secondStep({ challengeToken: 'igm_x', code: '12 456' }), ['code']);
    expectValidationError(await secondStep({ challengeToken: 'x'.repeat(129), code: '123456' }), [
      'challengeToken',
    ]);
  });
});

describe('a group that requires two-factor sign-in', () => {
  it('sends a member without TOTP to enrol: mfaEnrollmentRequired and no session', async () => {
    const user = await createPasswordUser(gateway, { requireMfa: true });
    const result = await passwordLogin(gateway, user);
    expect(result.body.data).toMatchObject({ mfaEnrollmentRequired: true });
    expect(result.body.data.challengeToken).toEqual(expect.any(String));
    expect(sessionCookieOf(result)).toBeUndefined();
  });

  it('lets the member enrol during the login; the first code signs in and answers the recovery codes', async () => {
    const user = await createPasswordUser(gateway, { requireMfa: true });
    const challengeToken = (await passwordLogin(gateway, user)).body.data.challengeToken;
    const enrolment = await gateway.call('POST', '/auth/login/totp/enrol', {
      token: null,
      body: { challengeToken },
    });
    expect(enrolment.status).toBe(200);
    const done = await secondStep({ challengeToken, code: await codeFor(enrolment.body.data.secret) });
    expect(done.status).toBe(200);
    expect(done.body.data.recoveryCodes).toHaveLength(10);
    expect(sessionCookieOf(done)).toBeDefined();
    const status = await gateway.call('GET', '/auth/me/totp', { token: done.body.data.token });
    expect(status.body.data).toMatchObject({ enabled: true, required: true });
  });

  it('asks an enrolled member for the code like anyone with TOTP', async () => {
    const user = await createPasswordUser(gateway);
    await enrolTotp(gateway, await sessionTokenOf(gateway, user));
    const groups = (await gateway.call('GET', '/api/admin/groups')).body.data;
    const group = groups.find((candidate: { name: string }) => candidate.name === user.group);
    await gateway.call('PATCH', `/api/admin/groups/${group.id}`, { body: { requireMfa: true } });
    expect((await passwordLogin(gateway, user)).body.data).toMatchObject({ mfaRequired: true });
  });

  it('refuses the enrolment step for a challenge that asks for a code', async () => {
    const user = await userWithTotp();
    const result = await gateway.call('POST', '/auth/login/totp/enrol', {
      token: null,
      body: { challengeToken: await challengeOf(user) },
    });
    expectError(result, 422, 'UNPROCESSABLE_ENTITY');
    expect(result.body.details.reason).toBe('ENROLMENT_NOT_EXPECTED');
  });

  it('refuses a recovery code during the enrolment', async () => {
    const user = await createPasswordUser(gateway, { requireMfa: true });
    const challengeToken = (await passwordLogin(gateway, user)).body.data.challengeToken;
    expectValidationError(await secondStep({ challengeToken, recoveryCode: 'aaaa-bbbb-cccc-dddd' }), [
      'recoveryCode',
    ]);
  });

  it('refuses the enrolment step for an unknown challenge', async () => {
    const result = await gateway.call('POST', '/auth/login/totp/enrol', {
      token: null,
      body: { challengeToken: 'igm_unknown' },
    });
    expectError(result, 401, 'UNAUTHORIZED');
  });
});
