import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEventsMatching } from '../support/audit-events.js';
import { expectError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

let gateway: TestGateway;
const password = 'the right password';

beforeAll(async () => {
  gateway = await startTestGateway({ loginMaxFailuresPerEmail: 3, loginMaxFailuresPerAddress: 1000 });
  for (const email of ['locked@test', 'other@test']) {
    await gateway.call('POST', '/api/admin/users', { body: { email, name: 'L', group: 'admins', password } });
  }
});
afterAll(() => gateway.close());

const login = (email: string, pass: string) =>
  gateway.call('POST', '/auth/login', { token: null, body: { email, password: pass } });

describe('login throttling', () => {
  it('locks an email after too many failed logins, even for the right password', async () => {
    for (let attempt = 0; attempt < 3; attempt++)
      expectError(await login('locked@test', 'wrong'), 401, 'UNAUTHORIZED');
    const locked = await login('locked@test', password);
    expectError(locked, 401, 'UNAUTHORIZED');
    expect(locked.body.details.reason).toBe('TOO_MANY_FAILED_LOGINS');
    expect(locked.body.details.retryAfterSeconds).toBeGreaterThan(0);
  });

  it('records throttled attempts in the audit trail', async () => {
    const events = await auditEventsMatching(gateway, { action: 'auth.login.throttled' });
    expect(events.length).toBeGreaterThan(0);
  });

  it('leaves other accounts alone', async () => {
    expect((await login('other@test', password)).status).toBe(200);
  });
});

describe('security headers', () => {
  it('API answers forbid sniffing, framing and any content loading', async () => {
    const result = await gateway.call('GET', '/auth/me');
    expect(result.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      'cache-control': 'no-store',
    });
  });

  it('error answers carry them too', async () => {
    const result = await gateway.call('GET', '/auth/me', { token: null });
    expect(result.headers['x-content-type-options']).toBe('nosniff');
  });

  it('send no CORS headers by default', async () => {
    const result = await gateway.call('GET', '/auth/me', {
      headers: { origin: 'https://elsewhere.example' },
    });
    expect(result.headers['access-control-allow-origin']).toBeUndefined();
  });
});
