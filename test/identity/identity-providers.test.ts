import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityProviders } from '../../src/db/schema/index.js';
import { type OidcPeer, startOidcProvider } from '../services/oidc-provider.js';
import { auditEventsMatching } from '../support/audit-events.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { addProvider, callback, landing, startSignIn } from './oidc-helpers.js';

const BASE = '/api/admin/identity-providers';
const unknownId = '00000000-0000-4000-8000-000000000000';

let oidc: OidcPeer;
let gateway: TestGateway;
let noScopeToken: string;

beforeAll(async () => {
  oidc = await startOidcProvider();
  gateway = await startTestGateway();
  noScopeToken = await gateway.tokenWithScopes([]);
  await gateway.call('POST', '/api/admin/groups', { body: { name: 'sso-default', scopes: [] } });
});
afterAll(async () => {
  await gateway?.close();
  await oidc?.close();
});

const valid = () => ({
  name: `Corporate ${Math.random().toString(36).slice(2, 8)}`,
  issuer: oidc.issuer,
  clientId: oidc.sso.signIn,
  clientSecret: oidc.sso.secretOf(oidc.sso.signIn),
});

const create = (body: Record<string, unknown>, token?: string | null) =>
  gateway.call('POST', BASE, { body, ...(token === undefined ? {} : { token }) });

describe('POST /api/admin/identity-providers', () => {
  it('adds a provider with defaults and answers the redirect URI to register', async () => {
    const result = await create({ ...valid(), name: 'Corporate' });
    expect(result.status).toBe(201);
    expect(result.body.data).toMatchObject({
      name: 'Corporate',
      issuer: oidc.issuer,
      clientId: oidc.sso.signIn,
      scopes: ['openid', 'email', 'profile'],
      groupsClaim: null,
      groupMap: {},
      autoCreateUsers: false,
      defaultGroup: null,
      allowedEmailDomains: [],
      enabled: true,
      redirectUri: 'http://127.0.0.1:8080/auth/oidc/callback',
    });
  });

  it('never answers the client secret, and stores it sealed', async () => {
    const body = valid();
    const result = await create(body);
    expect(result.text).not.toContain(body.clientSecret);
    expect(result.body.data).not.toHaveProperty('clientSecret');
    const [row] = await gateway.deps.db
      .select()
      .from(identityProviders)
      .where(eq(identityProviders.id, result.body.data.id));
    expect(row!.clientSecretSealed).not.toContain(body.clientSecret);
    const listed = await gateway.call('GET', BASE);
    expect(listed.text).not.toContain(body.clientSecret);
  });

  it('records the change without the secret', async () => {
    const body = valid();
    const result = await create(body);
    const [event] = await auditEventsMatching(gateway, {
      action: 'users.identity_provider.created',
      targetId: result.body.data.id,
    });
    expect(event?.metadata).toMatchObject({ name: body.name, issuer: oidc.issuer });
    expect(JSON.stringify(event)).not.toContain(body.clientSecret);
  });

  it('maps provider groups to gateway groups by name, keeping openid in the scopes', async () => {
    const result = await create({
      ...valid(),
      scopes: ['email', 'groups'],
      groupsClaim: 'groups',
      groupMap: { ops: 'sso-default', root: 'admins' },
      autoCreateUsers: true,
      defaultGroup: 'sso-default',
      allowedEmailDomains: ['Example.COM'],
    });
    expect(result.body.data).toMatchObject({
      scopes: ['openid', 'email', 'groups'],
      groupMap: { ops: 'sso-default', root: 'admins' },
      defaultGroup: 'sso-default',
      allowedEmailDomains: ['example.com'],
    });
  });

  it('refuses an issuer that is not https', async () => {
    expectValidationError(await create({ ...valid(), issuer: 'http://idp.example.com' }), ['issuer']);
    expectValidationError(await create({ ...valid(), issuer: 'not a url' }), ['issuer']);
    expectValidationError(await create({ ...valid(), issuer: `${oidc.issuer}?x=1` }), ['issuer']);
  });

  it('answers 422 ISSUER_DISCOVERY_FAILED for an issuer without an OpenID configuration', async () => {
    const result = await create({ ...valid(), issuer: `${oidc.issuer}/not-an-issuer` });
    expectError(result, 422, 'UNPROCESSABLE_ENTITY');
    expect(result.body.details.reason).toBe('ISSUER_DISCOVERY_FAILED');
  });

  it('answers 422 PROVIDER_UNREACHABLE for an issuer nobody answers at', async () => {
    const result = await create({ ...valid(), issuer: 'http://127.0.0.1:1' });
    expectError(result, 422, 'UNPROCESSABLE_ENTITY');
    expect(result.body.details.reason).toBe('PROVIDER_UNREACHABLE');
  });

  it('names each unknown group, and asks for the claim a group map is about', async () => {
    const result = await create({ ...valid(), groupMap: { ops: 'no-such-group' }, defaultGroup: 'nor-this' });
    expectValidationError(result, ['groupMap', 'ops']);
    expectValidationError(result, ['defaultGroup']);
    expectValidationError(result, ['groupsClaim']);
  });

  it('asks for a group for the accounts it would create', async () => {
    expectValidationError(await create({ ...valid(), autoCreateUsers: true }), ['defaultGroup']);
  });

  it('refuses an email domain that is not a domain, pointing at its index', async () => {
    expectValidationError(
      await create({ ...valid(), allowedEmailDomains: ['example.com', 'not a domain'] }),
      ['allowedEmailDomains', 1],
    );
  });

  it('validates the fields and their limits', async () => {
    const { clientSecret, ...noSecret } = valid();
    expect(clientSecret).toBeTruthy();
    expectValidationError(await create(noSecret), ['clientSecret']);
    expectValidationError(await create({ ...valid(), name: '' }), ['name']);
    expectValidationError(await create({ ...valid(), name: 'n'.repeat(256) }), ['name']);
    expectValidationError(await create({ ...valid(), clientId: '' }), ['clientId']);
    expectValidationError(await create({ ...valid(), scopes: ['has space'] }), ['scopes', 0]);
    expectValidationError(await create({ ...valid(), autoCreateUsers: 'yes' }), ['autoCreateUsers']);
  });

  it('answers 409 IDENTITY_PROVIDER_NAME_TAKEN for a name in use', async () => {
    const body = valid();
    await create(body);
    const result = await create(body);
    expectError(result, 409, 'CONFLICT');
    expect(result.body.details.reason).toBe('IDENTITY_PROVIDER_NAME_TAKEN');
  });

  it('checks authentication first, then admin:users, then the body', async () => {
    expectError(await create({}, null), 401, 'UNAUTHORIZED');
    expectError(await create({}, noScopeToken), 403, 'FORBIDDEN');
  });
});

describe('the egress policy', () => {
  let strict: TestGateway;
  beforeAll(async () => {
    strict = await startTestGateway({ egress: 'private' });
  });
  afterAll(() => strict.close());

  it('refuses a plain-http loopback issuer unless INFRAGATE_EGRESS=any', async () => {
    const result = await strict.call('POST', BASE, { body: valid() });
    expectValidationError(result, ['issuer']);
  });

  it('refuses to discover an issuer the policy does not allow, naming the rule', async () => {
    const result = await strict.call('POST', BASE, { body: { ...valid(), issuer: 'https://127.0.0.1:1' } });
    expectError(result, 422, 'UNPROCESSABLE_ENTITY');
    expect(result.body.details.reason).toBe('EGRESS_DENIED');
  });
});

describe('PATCH /api/admin/identity-providers/{id} to another issuer', () => {
  let second: OidcPeer;
  beforeAll(async () => {
    second = await startOidcProvider();
  });
  afterAll(() => second?.close());

  const moveAway = async (extra: Record<string, unknown> = {}) => {
    const provider = await addProvider(gateway, oidc);
    const result = await gateway.call('PATCH', `${BASE}/${provider.id}`, {
      body: { issuer: second.issuer, ...extra },
    });
    expect(result.status, result.text).toBe(200);
    return { provider, result };
  };
  const offered = async () =>
    (await gateway.call('GET', '/auth/oidc/providers', { token: null })).body.data.map(
      (provider: { id: string }) => provider.id,
    );

  it('drops the stored client secret unless the change sends it, and says so', async () => {
    const { provider, result } = await moveAway();
    expect(result.body.droppedSecrets).toEqual(['clientSecret']);
    expect(result.body.data).toMatchObject({ issuer: second.issuer, hasClientSecret: false });
    const [row] = await gateway.deps.db
      .select()
      .from(identityProviders)
      .where(eq(identityProviders.id, provider.id));
    expect(row!.clientSecretSealed).toBeNull();
  });

  it('keeps a client secret sent in the same change', async () => {
    const { result } = await moveAway({ clientSecret: second.sso.secretOf(second.sso.signIn) });
    expect(result.body).not.toHaveProperty('droppedSecrets');
    expect(result.body.data.hasClientSecret).toBe(true);
  });

  it('takes a provider without a secret off the sign-in page: no button, its start is 404', async () => {
    const { provider } = await moveAway();
    expect(await offered()).not.toContain(provider.id);
    expectError(
      await gateway.call('GET', `/auth/oidc/${provider.id}/start`, { token: null }),
      404,
      'NOT_FOUND',
    );
  });

  it('offers it again once a secret is sent', async () => {
    const { provider } = await moveAway();
    await gateway.call('PATCH', `${BASE}/${provider.id}`, {
      body: { clientSecret: second.sso.secretOf(second.sso.signIn) },
    });
    expect(await offered()).toContain(provider.id);
  });

  it('refuses to complete a sign-in started before the secret was dropped', async () => {
    const provider = await addProvider(gateway, oidc);
    const { location, binding } = await startSignIn(gateway, provider.id);
    await gateway.call('PATCH', `${BASE}/${provider.id}`, { body: { issuer: second.issuer } });
    const result = await callback(gateway, await oidc.browser.authorize(location, 'late'), binding);
    expect(landing(result).reason).toBe('SSO_PROVIDER_DISABLED');
  });

  it('audits the dropped secret by name, never its value', async () => {
    const { provider } = await moveAway();
    const [event] = await auditEventsMatching(gateway, {
      action: 'users.identity_provider.updated',
      targetId: provider.id,
    });
    expect(event?.metadata).toMatchObject({ droppedSecrets: ['clientSecret'] });
    expect(JSON.stringify(event)).not.toContain(oidc.sso.secretOf(oidc.sso.signIn));
  });
});

describe('GET, PATCH and DELETE /api/admin/identity-providers/{id}', () => {
  it('lists providers a page at a time, searchable by name', async () => {
    await addProvider(gateway, oidc, { name: 'Findable Needle' });
    const result = await gateway.call('GET', BASE, { query: { q: 'needle', limit: 1 } });
    expect(result.body.data.map((provider: { name: string }) => provider.name)).toEqual(['Findable Needle']);
    expect(result.body.pagination).toMatchObject({ page: 1, limit: 1, total: 1 });
    expectValidationError(await gateway.call('GET', BASE, { query: { limit: 101 } }), ['limit']);
  });

  it('gets one provider, 404 for an unknown one', async () => {
    const provider = await addProvider(gateway, oidc);
    expect((await gateway.call('GET', `${BASE}/${provider.id}`)).body.data.name).toBe(provider.name);
    expectError(await gateway.call('GET', `${BASE}/${unknownId}`), 404, 'NOT_FOUND');
  });

  it('changes the fields sent and keeps the others', async () => {
    const provider = await addProvider(gateway, oidc, { groupsClaim: 'groups', groupMap: { ops: 'admins' } });
    const result = await gateway.call('PATCH', `${BASE}/${provider.id}`, {
      body: { enabled: false, groupMap: { root: 'sso-default' } },
    });
    expect(result.body.data).toMatchObject({
      name: provider.name,
      enabled: false,
      groupsClaim: 'groups',
      groupMap: { root: 'sso-default' },
    });
  });

  it('clears the groups claim with null, and replaces the secret without answering it', async () => {
    const provider = await addProvider(gateway, oidc, { groupsClaim: 'groups' });
    const result = await gateway.call('PATCH', `${BASE}/${provider.id}`, {
      body: { groupsClaim: null, clientSecret: 'a-new-secret-value' },
    });
    expect(result.body.data.groupsClaim).toBeNull();
    expect(result.text).not.toContain('a-new-secret-value');
    const [event] = await auditEventsMatching(gateway, {
      action: 'users.identity_provider.updated',
      targetId: provider.id,
    });
    expect(event?.metadata).toMatchObject({ changed: ['clientSecret', 'groupsClaim'] });
    expect(JSON.stringify(event)).not.toContain('a-new-secret-value');
  });

  it('refuses an empty change, and a change that breaks a rule', async () => {
    const provider = await addProvider(gateway, oidc);
    expectError(await gateway.call('PATCH', `${BASE}/${provider.id}`, { body: {} }), 400, 'VALIDATION_ERROR');
    expectValidationError(
      await gateway.call('PATCH', `${BASE}/${provider.id}`, { body: { autoCreateUsers: true } }),
      ['defaultGroup'],
    );
  });

  it('answers 404 when changing an unknown provider', async () => {
    expectError(
      await gateway.call('PATCH', `${BASE}/${unknownId}`, { body: { enabled: false } }),
      404,
      'NOT_FOUND',
    );
  });

  it('removes a provider, audited; it disappears from the sign-in page', async () => {
    const provider = await addProvider(gateway, oidc);
    expect((await gateway.call('DELETE', `${BASE}/${provider.id}`)).body).toEqual({ success: true });
    expectError(await gateway.call('GET', `${BASE}/${provider.id}`), 404, 'NOT_FOUND');
    const buttons = (await gateway.call('GET', '/auth/oidc/providers', { token: null })).body.data;
    expect(buttons.map((button: { id: string }) => button.id)).not.toContain(provider.id);
    expectError(await gateway.call('DELETE', `${BASE}/${provider.id}`), 404, 'NOT_FOUND');
  });

  it('keeps a group that a provider maps to from being deleted (409 GROUP_IN_USE)', async () => {
    const group = (
      await gateway.call('POST', '/api/admin/groups', { body: { name: 'mapped-to', scopes: [] } })
    ).body.data;
    const provider = await addProvider(gateway, oidc, {
      groupsClaim: 'groups',
      groupMap: { x: 'mapped-to' },
    });
    const result = await gateway.call('DELETE', `/api/admin/groups/${group.id}`);
    expectError(result, 409, 'CONFLICT');
    expect(result.body.details).toMatchObject({ reason: 'GROUP_IN_USE', identityProviders: [provider.name] });
  });

  it('shows a renamed group under its new name in the mapping', async () => {
    const group = (
      await gateway.call('POST', '/api/admin/groups', { body: { name: 'old-name', scopes: [] } })
    ).body.data;
    const provider = await addProvider(gateway, oidc, { groupsClaim: 'groups', defaultGroup: 'old-name' });
    await gateway.call('PATCH', `/api/admin/groups/${group.id}`, { body: { name: 'new-name' } });
    expect((await gateway.call('GET', `${BASE}/${provider.id}`)).body.data.defaultGroup).toBe('new-name');
  });

  it('needs admin:users for every route', async () => {
    for (const [method, url] of [
      ['GET', BASE],
      ['GET', `${BASE}/${unknownId}`],
      ['PATCH', `${BASE}/${unknownId}`],
      ['DELETE', `${BASE}/${unknownId}`],
    ] as const) {
      expectError(await gateway.call(method, url, { token: noScopeToken, body: {} }), 403, 'FORBIDDEN');
      expectError(await gateway.call(method, url, { token: null, body: {} }), 401, 'UNAUTHORIZED');
    }
  });
});
