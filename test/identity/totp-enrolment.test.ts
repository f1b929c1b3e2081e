import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recoveryCodes, userTotp } from '../../src/db/schema/index.js';
import { auditEventsMatching } from '../support/audit-events.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import {
  codeFor,
  createPasswordUser,
  enrolTotp,
  type PasswordUser,
  sessionTokenOf,
  wrongCodeFor,
} from './helpers.js';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.close());

async function signedInUser(options: { requireMfa?: boolean } = {}) {
  const user = await createPasswordUser(gateway);
  const token = await sessionTokenOf(gateway, user);
  if (options.requireMfa) {
    const group = (await gateway.call('GET', '/api/admin/groups')).body.data.find(
      (candidate: { name: string }) => candidate.name === user.group,
    );
    await gateway.call('PATCH', `/api/admin/groups/${group.id}`, { body: { requireMfa: true } });
  }
  return { user, token };
}

const status = async (token: string) => (await gateway.call('GET', '/auth/me/totp', { token })).body.data;

describe('POST /auth/me/totp', () => {
  it('answers a base32 secret and its otpauth URI (the defaults: SHA-1, 6 digits, 30 s)', async () => {
    const { user, token } = await signedInUser();
    const result = await gateway.call('POST', '/auth/me/totp', { token });
    expect(result.status).toBe(201);
    expect(result.body.data.secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(result.body.data.otpauthUrl);
    expect(url.protocol).toBe('otpauth:');
    expect(decodeURIComponent(url.pathname)).toContain(user.email);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      secret: result.body.data.secret,
      issuer: 'infragate',
    });
  });

  it('stores the secret sealed, never in the clear', async () => {
    const { user, token } = await signedInUser();
    const { secret } = (await gateway.call('POST', '/auth/me/totp', { token })).body.data;
    const [row] = await gateway.deps.db.select().from(userTotp).where(eq(userTotp.userId, user.id));
    expect(row!.secretSealed).not.toContain(secret);
  });

  it('leaves the enrolment pending until a first code confirms it', async () => {
    const { token } = await signedInUser();
    await gateway.call('POST', '/auth/me/totp', { token });
    expect(await status(token)).toMatchObject({ enabled: false, pending: true, recoveryCodesLeft: 0 });
  });

  it('answers 409 TOTP_ALREADY_ENABLED once two-factor sign-in is on', async () => {
    const { token } = await signedInUser();
    await enrolTotp(gateway, token);
    const result = await gateway.call('POST', '/auth/me/totp', { token });
    expectError(result, 409, 'CONFLICT');
    expect(result.body.details.reason).toBe('TOTP_ALREADY_ENABLED');
  });

  it('needs a signed-in caller', async () => {
    expectError(await gateway.call('POST', '/auth/me/totp', { token: null }), 401, 'UNAUTHORIZED');
  });
});

describe('POST /auth/me/totp/confirm', () => {
  it('turns two-factor sign-in on and answers ten different recovery codes', async () => {
    const { token } = await signedInUser();
    const { recoveryCodes: codes } = await enrolTotp(gateway, token);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/);
    expect(await status(token)).toMatchObject({ enabled: true, pending: false, recoveryCodesLeft: 10 });
  });

  it('stores only hashes of the recovery codes', async () => {
    const { user, token } = await signedInUser();
    const { recoveryCodes: codes } = await enrolTotp(gateway, token);
    const rows = await gateway.deps.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    expect(rows).toHaveLength(10);
    const stored = JSON.stringify(rows);
    for (const code of codes) expect(stored).not.toContain(code);
  });

  it('refuses a wrong code on the code field and stays pending', async () => {
    const { token } = await signedInUser();
    const { secret } = (await gateway.call('POST', '/auth/me/totp', { token })).body.data;
    expectValidationError(
      await gateway.call('POST', '/auth/me/totp/confirm', {
        token,
        body: { code: await wrongCodeFor(secret) },
      }),
      ['code'],
    );
    expect(await status(token)).toMatchObject({ enabled: false, pending: true });
  });

  it('refuses a code that is not six digits', async () => {
    const { token } = await signedInUser();
    for (const code of ['12345', '1234567', 'abcdef'])
      expectValidationError(await gateway.call('POST', '/auth/me/totp/confirm', { token, body: { code } }), [
        'code',
      ]);
  });

  it('answers 409 TOTP_NOT_STARTED without an enrolment', async () => {
    const { token } = await signedInUser();
    const result = await gateway.call('POST', '/auth/me/totp/confirm', { token, body: { code: '123456' } });
    expectError(result, 409, 'CONFLICT');
    expect(result.body.details.reason).toBe('TOTP_NOT_STARTED');
  });

  it('needs a signed-in caller before anything else', async () => {
    expectError(
      await gateway.call('POST', '/auth/me/totp/confirm', { token: null, body: {} }),
      401,
      'UNAUTHORIZED',
    );
  });
});

describe('DELETE /auth/me/totp', () => {
  async function enrolled(): Promise<{ user: PasswordUser; token: string; secret: string }> {
    const { user, token } = await signedInUser();
    return { user, token, ...(await enrolTotp(gateway, token)) };
  }

  it('turns two-factor sign-in off with the password', async () => {
    const { user, token } = await enrolled();
    const result = await gateway.call('DELETE', '/auth/me/totp', {
      token,
      body: { password: user.password },
    });
    expect(result.body).toEqual({ success: true });
    expect(await status(token)).toMatchObject({ enabled: false, pending: false });
  });

  it('turns two-factor sign-in off with a current code', async () => {
    const { token, secret } = await enrolled();
    const result = await gateway.call('DELETE', '/auth/me/totp', {
      token,
      body: { code: await codeFor(secret, 1) },
    });
    expect(result.status).toBe(200);
    expect((await status(token)).enabled).toBe(false);
  });

  it('refuses a wrong password on the password field and keeps it on', async () => {
    const { token } = await enrolled();
    const result = await gateway.call('DELETE', '/auth/me/totp', { token, body: { password: 'not it' } });
    expectValidationError(result, ['password']);
    expect((await status(token)).enabled).toBe(true);
  });

  it('counts a wrong proof as a failed login', async () => {
    const { user, token } = await enrolled();
    await gateway.call('DELETE', '/auth/me/totp', { token, body: { password: 'not it' } });
    const events = await auditEventsMatching(gateway, { action: 'auth.login.failed', actorId: user.id });
    expect(events.map((event) => event.metadata)).toContainEqual({
      email: user.email,
      step: 'totp_removal',
    });
  });

  it('asks for a code or the password', async () => {
    const { token } = await enrolled();
    expectValidationError(await gateway.call('DELETE', '/auth/me/totp', { token, body: {} }), ['code']);
  });

  it('cancels a pending enrolment without proof', async () => {
    const { token } = await signedInUser();
    await gateway.call('POST', '/auth/me/totp', { token });
    expect((await gateway.call('DELETE', '/auth/me/totp', { token, body: {} })).status).toBe(200);
    expect((await status(token)).pending).toBe(false);
  });

  it('answers 409 TOTP_NOT_ENABLED when there is nothing to turn off', async () => {
    const { token } = await signedInUser();
    const result = await gateway.call('DELETE', '/auth/me/totp', { token, body: {} });
    expectError(result, 409, 'CONFLICT');
    expect(result.body.details.reason).toBe('TOTP_NOT_ENABLED');
  });

  it('answers 422 TOTP_REQUIRED_BY_GROUP while the group requires it', async () => {
    const { user, token } = await signedInUser();
    await enrolTotp(gateway, token);
    const group = (await gateway.call('GET', '/api/admin/groups')).body.data.find(
      (candidate: { name: string }) => candidate.name === user.group,
    );
    await gateway.call('PATCH', `/api/admin/groups/${group.id}`, { body: { requireMfa: true } });
    const result = await gateway.call('DELETE', '/auth/me/totp', {
      token,
      body: { password: user.password },
    });
    expectError(result, 422, 'UNPROCESSABLE_ENTITY');
    expect(result.body.details.reason).toBe('TOTP_REQUIRED_BY_GROUP');
    expect(await status(token)).toMatchObject({ enabled: true, required: true });
  });

  it('needs a signed-in caller', async () => {
    expectError(
      await gateway.call('DELETE', '/auth/me/totp', { token: null, body: {} }),
      401,
      'UNAUTHORIZED',
    );
  });
});
