import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OidcPeer, startOidcProvider } from '../services/oidc-provider.js';
import { auditEventsMatching } from '../support/audit-events.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { LogCapture } from '../support/log-capture.js';
import { createPasswordUser } from './helpers.js';
import { addProvider, callback, landing, signInThrough, startSignIn } from './oidc-helpers.js';

let oidc: OidcPeer;
let gateway: TestGateway;
let subjects = 0;
const logs = new LogCapture();

beforeAll(async () => {
  oidc = await startOidcProvider();
  gateway = await startTestGateway(
    { loginMaxFailuresPerAddress: 1000, logLevel: 'warn' },
    { logStream: logs },
  );
});
afterAll(async () => {
  await gateway?.close();
  await oidc?.close();
});

/** A person at the provider with these claims; answers their subject (the login they type). */
function person(claims: { email: string; email_verified?: boolean; groups?: string[] }): string {
  subjects += 1;
  const subject = `person-${subjects}`;
  oidc.accounts.set(subject, { email_verified: true, ...claims });
  return subject;
}

/** What the provider's answer was refused for, as the gateway logged it for the operator. */
function lastProviderProblem(): string {
  const lines = logs.text.split('\n').filter((line) => line.includes('single sign-on'));
  return JSON.parse(lines.at(-1)!).problem;
}

const me = (cookie: string) => gateway.call('GET', '/auth/me', { token: null, headers: { cookie } });

describe('signing in through an OpenID Connect provider', () => {
  it('signs an existing user in with a browser session and lands on the console page asked for', async () => {
    const user = await createPasswordUser(gateway, { scopes: ['audit:view'] });
    const provider = await addProvider(gateway, oidc);
    const result = await signInThrough(
      gateway,
      oidc,
      provider.id,
      person({ email: user.email }),
      '/audit?page=2',
    );
    const { path, cookie } = landing(result);
    expect(path).toBe('/audit');
    expect(String(result.headers.location)).toBe('/audit?page=2');
    const session = await me(cookie!);
    expect(session.body.data).toMatchObject({ email: user.email, scopes: ['audit:view'] });
    expect(session.body.data.csrfToken).toMatch(/^igc_/);
  });

  it('lands on the console home when no page was asked for', async () => {
    const user = await createPasswordUser(gateway);
    const provider = await addProvider(gateway, oidc);
    expect(landing(await signInThrough(gateway, oidc, provider.id, person({ email: user.email }))).path).toBe(
      '/',
    );
  });

  it('records the sign-in with the provider and the subject', async () => {
    const user = await createPasswordUser(gateway);
    const provider = await addProvider(gateway, oidc);
    const subject = person({ email: user.email });
    await signInThrough(gateway, oidc, provider.id, subject);
    const [event] = await auditEventsMatching(gateway, { action: 'auth.login.succeeded', actorId: user.id });
    expect(event?.metadata).toEqual({ method: 'oidc', identityProvider: provider.name, subject });
  });

  it('creates the account at the first sign-in, in the default group', async () => {
    await gateway.call('POST', '/api/admin/groups', {
      body: { name: 'sso-newcomers', scopes: ['logging:view'] },
    });
    const provider = await addProvider(gateway, oidc, {
      autoCreateUsers: true,
      defaultGroup: 'sso-newcomers',
    });
    const { cookie } = landing(
      await signInThrough(gateway, oidc, provider.id, person({ email: 'New.Comer@Example.org' })),
    );
    expect((await me(cookie!)).body.data).toMatchObject({
      email: 'new.comer@example.org',
      groupName: 'sso-newcomers',
    });
    const created = (await gateway.call('GET', '/api/admin/users', { query: { q: 'new.comer' } })).body
      .data[0];
    expect(created).toMatchObject({ groupName: 'sso-newcomers', hasPassword: false });
    const [event] = await auditEventsMatching(gateway, {
      action: 'users.user.created',
      targetId: created.id,
    });
    expect(event?.metadata).toMatchObject({ via: 'oidc', identityProvider: provider.name });
  });

  it('refuses an unknown email when the provider does not create accounts', async () => {
    const provider = await addProvider(gateway, oidc);
    const result = await signInThrough(gateway, oidc, provider.id, person({ email: 'stranger@example.org' }));
    expect(landing(result)).toMatchObject({ path: '/signin', reason: 'SSO_USER_UNKNOWN', cookie: undefined });
  });

  it('applies the mapped group at every sign-in, so a change at the provider takes effect', async () => {
    for (const name of ['sso-ops', 'sso-dev'])
      await gateway.call('POST', '/api/admin/groups', {
        body: { name, scopes: [`${name === 'sso-ops' ? 'audit' : 'logging'}:view`] },
      });
    const provider = await addProvider(gateway, oidc, {
      autoCreateUsers: true,
      groupsClaim: 'groups',
      groupMap: { operators: 'sso-ops', developers: 'sso-dev' },
    });
    const subject = person({ email: 'mapped@example.org', groups: ['operators'] });
    const first = landing(await signInThrough(gateway, oidc, provider.id, subject));
    expect((await me(first.cookie!)).body.data).toMatchObject({
      groupName: 'sso-ops',
      scopes: ['audit:view'],
    });
    oidc.accounts.set(subject, { email: 'mapped@example.org', email_verified: true, groups: ['developers'] });
    const second = landing(await signInThrough(gateway, oidc, provider.id, subject));
    expect((await me(second.cookie!)).body.data).toMatchObject({
      groupName: 'sso-dev',
      scopes: ['logging:view'],
    });
  });

  it('refuses a member of no mapped group when there is no default group', async () => {
    const provider = await addProvider(gateway, oidc, {
      autoCreateUsers: true,
      groupsClaim: 'groups',
      groupMap: { operators: 'admins' },
    });
    const result = await signInThrough(
      gateway,
      oidc,
      provider.id,
      person({ email: 'nogroup@example.org', groups: ['x'] }),
    );
    expect(landing(result).reason).toBe('SSO_NO_GROUP');
  });

  it('refuses a user disabled in the gateway', async () => {
    const user = await createPasswordUser(gateway);
    await gateway.call('PATCH', `/api/admin/users/${user.id}/disabled`, { body: { disabled: true } });
    const provider = await addProvider(gateway, oidc);
    const result = await signInThrough(gateway, oidc, provider.id, person({ email: user.email }));
    expect(landing(result)).toMatchObject({ reason: 'SSO_USER_DISABLED', cookie: undefined });
  });

  it('refuses an email outside the allowed domains', async () => {
    const provider = await addProvider(gateway, oidc, {
      autoCreateUsers: true,
      defaultGroup: 'admins',
      allowedEmailDomains: ['example.com'],
    });
    const result = await signInThrough(gateway, oidc, provider.id, person({ email: 'someone@example.net' }));
    expect(landing(result)).toMatchObject({ reason: 'SSO_EMAIL_NOT_ALLOWED', cookie: undefined });
    expect(
      (await gateway.call('GET', '/api/admin/users', { query: { q: 'someone@example.net' } })).body.data,
    ).toEqual([]);
  });

  it('refuses an email the provider marks unverified', async () => {
    const user = await createPasswordUser(gateway);
    const provider = await addProvider(gateway, oidc);
    const result = await signInThrough(
      gateway,
      oidc,
      provider.id,
      person({ email: user.email, email_verified: false }),
    );
    expect(landing(result).reason).toBe('SSO_EMAIL_MISSING');
  });

  it('counts a refused sign-in as a failed login, with the reason', async () => {
    const provider = await addProvider(gateway, oidc);
    await signInThrough(gateway, oidc, provider.id, person({ email: 'counted@example.org' }));
    const failures = await auditEventsMatching(gateway, { action: 'auth.login.failed' });
    expect(failures.map((event) => event.metadata)).toContainEqual({
      email: 'counted@example.org',
      method: 'oidc',
      reason: 'SSO_USER_UNKNOWN',
      identityProvider: provider.name,
    });
  });
});

describe('the checks of the callback', () => {
  it('refuses a tampered state', async () => {
    const user = await createPasswordUser(gateway);
    const provider = await addProvider(gateway, oidc);
    const { location, binding } = await startSignIn(gateway, provider.id);
    const redirect = new URL(await oidc.browser.authorize(location, person({ email: user.email })));
    redirect.searchParams.set('state', `${redirect.searchParams.get('state')}x`);
    expect(landing(await callback(gateway, redirect.href, binding))).toMatchObject({
      reason: 'SSO_STATE_INVALID',
      cookie: undefined,
    });
  });

  it('refuses a callback in a browser that did not start the sign-in', async () => {
    const user = await createPasswordUser(gateway);
    const provider = await addProvider(gateway, oidc);
    const { location } = await startSignIn(gateway, provider.id);
    const redirect = await oidc.browser.authorize(location, person({ email: user.email }));
    expect(landing(await callback(gateway, redirect, 'infragate_oidc=someone-else')).reason).toBe(
      'SSO_STATE_INVALID',
    );
    expect(landing(await callback(gateway, redirect, undefined)).reason).toBe('SSO_STATE_INVALID');
  });

  it('uses a sign-in once: the same callback again is refused', async () => {
    const user = await createPasswordUser(gateway);
    const provider = await addProvider(gateway, oidc);
    const { location, binding } = await startSignIn(gateway, provider.id);
    const redirect = await oidc.browser.authorize(location, person({ email: user.email }));
    expect(landing(await callback(gateway, redirect, binding)).cookie).toBeDefined();
    expect(landing(await callback(gateway, redirect, binding)).reason).toBe('SSO_STATE_INVALID');
  });

  it('refuses an ID token issued to another client (wrong audience)', async () => {
    const user = await createPasswordUser(gateway);
    const provider = await addProvider(gateway, oidc, { clientId: oidc.sso.wrongAudience });
    const result = await signInThrough(gateway, oidc, provider.id, person({ email: user.email }));
    expect(landing(result)).toMatchObject({ reason: 'SSO_TOKEN_INVALID', cookie: undefined });
    expect(lastProviderProblem()).toMatch(/"aud" \(audience\)/);
  });

  it('refuses an expired ID token', async () => {
    const user = await createPasswordUser(gateway);
    const provider = await addProvider(gateway, oidc, { clientId: oidc.sso.expired });
    const result = await signInThrough(gateway, oidc, provider.id, person({ email: user.email }));
    expect(landing(result)).toMatchObject({ reason: 'SSO_TOKEN_INVALID', cookie: undefined });
    expect(lastProviderProblem()).toMatch(/"exp" \(expiration time\)/);
  });

  it('refuses an ID token not signed by the provider', async () => {
    const user = await createPasswordUser(gateway);
    const provider = await addProvider(gateway, oidc, { clientId: oidc.sso.forged });
    const result = await signInThrough(gateway, oidc, provider.id, person({ email: user.email }));
    expect(landing(result)).toMatchObject({ reason: 'SSO_TOKEN_INVALID', cookie: undefined });
    expect(lastProviderProblem()).toMatch(/signature verification failed/);
  });

  it('says so when the person declined at the provider', async () => {
    const provider = await addProvider(gateway, oidc);
    const { location, binding } = await startSignIn(gateway, provider.id);
    const state = new URL(location).searchParams.get('state')!;
    const declined = `http://127.0.0.1:8080/auth/oidc/callback?error=access_denied&state=${state}&iss=${encodeURIComponent(oidc.issuer)}`;
    expect(landing(await callback(gateway, declined, binding)).reason).toBe('SSO_REFUSED');
  });

  it('refuses a callback without state', async () => {
    expect(landing(await gateway.call('GET', '/auth/oidc/callback?code=x', { token: null })).reason).toBe(
      'SSO_STATE_INVALID',
    );
  });

  it('answers 400 for a callback parameter past its limit', async () => {
    const result = await gateway.call('GET', `/auth/oidc/callback?state=${'s'.repeat(4097)}`, {
      token: null,
    });
    expectValidationError(result, ['state']);
  });
});

describe('GET /auth/oidc/{providerId}/start', () => {
  it('sends the browser to the provider with state, nonce and an S256 PKCE challenge', async () => {
    const provider = await addProvider(gateway, oidc);
    const { location, binding } = await startSignIn(gateway, provider.id);
    const url = new URL(location);
    expect(`${url.origin}${url.pathname}`).toBe(oidc.endpoints.authorization);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: oidc.sso.signIn,
      redirect_uri: 'http://127.0.0.1:8080/auth/oidc/callback',
      scope: 'openid email groups',
      code_challenge_method: 'S256',
    });
    for (const name of ['state', 'nonce', 'code_challenge'])
      expect(url.searchParams.get(name)!.length).toBeGreaterThanOrEqual(22);
    expect(binding).toMatch(/^infragate_oidc=.{20,}/);
  });

  it('answers 404 for an unknown provider and for a disabled one', async () => {
    expectError(
      await gateway.call('GET', '/auth/oidc/00000000-0000-4000-8000-000000000000/start', { token: null }),
      404,
      'NOT_FOUND',
    );
    const provider = await addProvider(gateway, oidc, { enabled: false });
    expectError(
      await gateway.call('GET', `/auth/oidc/${provider.id}/start`, { token: null }),
      404,
      'NOT_FOUND',
    );
  });

  it('accepts only a path of this console as next', async () => {
    const provider = await addProvider(gateway, oidc);
    for (const next of ['//evil.example/x', 'https://evil.example/', '/\\evil.example'])
      expectValidationError(
        await gateway.call('GET', `/auth/oidc/${provider.id}/start`, { token: null, query: { next } }),
        ['next'],
      );
  });

  it('answers 400 for a provider id that is not a uuid', async () => {
    expectValidationError(await gateway.call('GET', '/auth/oidc/nope/start', { token: null }), [
      'providerId',
    ]);
  });
});

describe('GET /auth/oidc/providers', () => {
  it('lists the enabled providers with their id and name only, without a token', async () => {
    const shown = await addProvider(gateway, oidc, { name: 'Shown SSO' });
    const hidden = await addProvider(gateway, oidc, { name: 'Hidden SSO', enabled: false });
    const result = await gateway.call('GET', '/auth/oidc/providers', { token: null });
    expect(result.status).toBe(200);
    expect(result.body.data).toContainEqual({ id: shown.id, name: 'Shown SSO' });
    expect(result.body.data.map((provider: { id: string }) => provider.id)).not.toContain(hidden.id);
  });
});
