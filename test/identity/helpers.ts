import crypto from 'node:crypto';
import { generate } from 'otplib';
import { expect } from 'vitest';
import type { CallResult, TestGateway } from '../support/gateway.js';

export interface PasswordUser {
  id: string;
  email: string;
  password: string;
  group: string;
}

/** A user with a password in a new group holding `scopes` (made through the admin API). */
export async function createPasswordUser(
  gateway: TestGateway,
  options: { scopes?: string[]; requireMfa?: boolean } = {},
): Promise<PasswordUser> {
  const suffix = crypto.randomBytes(4).toString('hex');
  const group = `group-${suffix}`;
  const created = await gateway.call('POST', '/api/admin/groups', {
    body: { name: group, scopes: options.scopes ?? [] },
  });
  expect(created.status).toBe(201);
  if (options.requireMfa) {
    const changed = await gateway.call('PATCH', `/api/admin/groups/${created.body.data.id}`, {
      body: { requireMfa: true },
    });
    expect(changed.status).toBe(200);
  }
  const user = { email: `user-${suffix}@test`, password: `password-${suffix}`, group };
  const result = await gateway.call('POST', '/api/admin/users', {
    body: { email: user.email, name: `User ${suffix}`, group, password: user.password },
  });
  expect(result.status).toBe(201);
  return { ...user, id: result.body.data.id };
}

export const passwordLogin = (gateway: TestGateway, user: { email: string; password: string }) =>
  gateway.call('POST', '/auth/login', { token: null, body: { email: user.email, password: user.password } });

/** Signs in with the password alone (an account without a second factor) and answers the session token. */
export async function sessionTokenOf(gateway: TestGateway, user: PasswordUser): Promise<string> {
  const result = await passwordLogin(gateway, user);
  expect(result.status).toBe(200);
  return result.body.data.token;
}

/**
 * The authenticator's code `steps` time steps from now. Each accepted code must be of a later step
 * than the one before it, so a test uses step 0 to enrol and step 1 for the login after.
 */
export const codeFor = (secret: string, steps = 0): Promise<string> =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

/** A six-digit code that is not the authenticator's code of the step after this one. */
export async function wrongCodeFor(secret: string): Promise<string> {
  const right = await codeFor(secret, 1);
  return String((Number(right) + 1) % 1_000_000).padStart(6, '0');
}

/** Enrols an authenticator for the owner of `token` with a code of the current step. */
export async function enrolTotp(gateway: TestGateway, token: string) {
  const started = await gateway.call('POST', '/auth/me/totp', { token });
  expect(started.status).toBe(201);
  const secret: string = started.body.data.secret;
  const confirmed = await gateway.call('POST', '/auth/me/totp/confirm', {
    token,
    body: { code: await codeFor(secret) },
  });
  expect(confirmed.status).toBe(200);
  return { secret, recoveryCodes: confirmed.body.data.recoveryCodes as string[] };
}

/** The `name=value` of the session cookie an answer sets, if it sets one. */
export function sessionCookieOf(result: CallResult): string | undefined {
  const header = result.headers['set-cookie'];
  const lines = Array.isArray(header) ? header : header ? [String(header)] : [];
  return lines.find((line) => line.startsWith('infragate_session='))?.split(';')[0];
}
