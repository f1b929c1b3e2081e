import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { acmeDnsProviders } from '../../src/db/schema/index.js';
import { makeTestPki, openssl, type TestPki } from '../services/openssl-pki.js';
import { freePort } from '../services/peers.js';
import { eventually } from '../support/eventually.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const BASE = '/api/ssl-certificates';
const PROVIDERS = `${BASE}/dns-providers`;
const MISSING = '00000000-0000-4000-8000-000000000000';
// Nothing listens there: orders made by these tests fail at once and never leave the machine.
let NOWHERE: string;
const acmeConfig = async () => {
  NOWHERE = `https://127.0.0.1:${await freePort()}/directory`;
  return { acme: { ...loadConfig({}).acme, directoryUrl: NOWHERE, intervalMs: 100 } };
};

describe('ACME and DNS provider routes: access, validation and errors', () => {
  let gateway: TestGateway;
  let counter = 0;
  beforeAll(async () => {
    gateway = await startTestGateway(await acmeConfig());
  });
  afterAll(async () => {
    await gateway?.close();
  });

  const orderBody = (overrides: Record<string, unknown> = {}) => ({
    name: `order-${++counter}`,
    domains: ['app.example.test'],
    challenge: 'http-01',
    accountEmail: 'ops@example.test',
    ...overrides,
  });
  const providerBody = (overrides: Record<string, unknown> = {}) => ({
    name: `dns-${++counter}`,
    kind: 'rfc2136',
    server: '127.0.0.1',
    zone: 'example.test',
    tsigKeyName: 'acme-key',
    tsigSecret: Buffer.alloc(32, 1).toString('base64'),
    ...overrides,
  });
  const order = (body: Record<string, unknown>) => gateway.call('POST', `${BASE}/acme`, { body });
  const total = async (url: string) => (await gateway.call('GET', url)).body.pagination.total;

  describe('access', () => {
    const routes = (id: string) =>
      [
        ['POST', `${BASE}/acme`],
        ['POST', `${BASE}/${id}/acme/confirm`],
        ['POST', `${BASE}/${id}/acme/renew`],
        ['GET', PROVIDERS],
        ['POST', PROVIDERS],
        ['GET', `${PROVIDERS}/${id}`],
        ['DELETE', `${PROVIDERS}/${id}`],
      ] as const;

    it('refuses every route without a token with 401', async () => {
      for (const [method, url] of routes(MISSING)) {
        expectError(await gateway.call(method, url, { token: null, body: {} }), 401, 'UNAUTHORIZED');
      }
    });

    it('refuses every route to a token without a certificates scope with 403', async () => {
      const token = await gateway.tokenWithScopes([]);
      for (const [method, url] of routes(MISSING)) {
        expectError(await gateway.call(method, url, { token, body: {} }), 403, 'FORBIDDEN');
      }
    });

    it('lets certificates:view read DNS providers but not order, confirm, renew or change providers', async () => {
      const token = await gateway.tokenWithScopes(['certificates:view']);
      expect((await gateway.call('GET', PROVIDERS, { token })).status).toBe(200);
      for (const [method, url] of routes(MISSING).filter(([method]) => method !== 'GET')) {
        expectError(await gateway.call(method, url, { token, body: {} }), 403, 'FORBIDDEN');
      }
    });

    it('answers HTTP-01 challenges without a token: 404 for a token it does not know', async () => {
      expectError(
        await gateway.call('GET', '/.well-known/acme-challenge/unknown-token', { token: null }),
        404,
        'NOT_FOUND',
      );
    });

    it('refuses a challenge token with characters outside base64url with 400', async () => {
      expectValidationError(await gateway.call('GET', '/.well-known/acme-challenge/a.b', { token: null }), [
        'token',
      ]);
    });
  });

  describe('POST /api/ssl-certificates/acme', () => {
    it('answers 202 with a pending ACME certificate using the configured directory', async () => {
      const result = await order(orderBody({ domains: ['App.Example.TEST', 'app.example.test'] }));
      expect(result.status).toBe(202);
      expect(result.body.data).toMatchObject({ source: 'acme', status: 'pending' });
      expect(result.body.data.acme).toMatchObject({ directoryUrl: NOWHERE, domains: ['app.example.test'] });
    });

    it('reports the CA it cannot reach in lastError', async () => {
      const { id } = (await order(orderBody())).body.data;
      // The worker runs by itself; polling only waits for its run to reach this order.
      const record = await eventually(async () => {
        const current = (await gateway.call('GET', `${BASE}/${id}`)).body.data;
        return current.status === 'failed' ? current : undefined;
      }, 'the order to fail');
      expect(record.lastError).toMatch(/ECONNREFUSED/);
    });

    it.each([
      ['name', { name: undefined }],
      ['domains', { domains: [] }],
      ['domains/0', { domains: ['not a domain'] }],
      ['domains/0', { domains: ['10.0.0.1'] }],
      ['domains', { domains: Array.from({ length: 101 }, (_, index) => `h${index}.example.test`) }],
      ['challenge', { challenge: 'tls-alpn-01' }],
      ['accountEmail', { accountEmail: 'not-an-email' }],
      ['directoryUrl', { directoryUrl: 'not a url' }],
      ['dnsProviderId', { dnsProviderId: 'nope' }],
    ])('refuses a bad %s with 400, creating nothing', async (field, overrides) => {
      const before = await total(BASE);
      const result = await order(orderBody(overrides));
      expectError(result, 400, 'VALIDATION_ERROR');
      expect(JSON.stringify(result.body.details)).toContain(field.split('/')[0]!);
      expect(await total(BASE)).toBe(before);
    });

    it('refuses a directory that is not https with 400', async () => {
      expectValidationError(await order(orderBody({ directoryUrl: 'http://127.0.0.1:8/directory' })), [
        'directoryUrl',
      ]);
    });

    it('refuses a wildcard with http-01 with 400 on that domain', async () => {
      expectValidationError(await order(orderBody({ domains: ['a.example.test', '*.example.test'] })), [
        'domains',
        1,
      ]);
    });

    it('refuses a DNS provider with http-01 with 400', async () => {
      expectValidationError(await order(orderBody({ dnsProviderId: MISSING })), ['dnsProviderId']);
    });

    it('answers 404 for a DNS provider that does not exist, creating nothing', async () => {
      const before = await total(BASE);
      expectError(await order(orderBody({ challenge: 'dns-01', dnsProviderId: MISSING })), 404, 'NOT_FOUND');
      expect(await total(BASE)).toBe(before);
    });

    it('answers 409 for a name another certificate has', async () => {
      const body = orderBody();
      expect((await order(body)).status).toBe(202);
      expectError(await order({ ...body, domains: ['other.example.test'] }), 409, 'CONFLICT');
    });
  });

  describe('confirm and renew', () => {
    it.each(['confirm', 'renew'])('%s answers 404 for a certificate that does not exist', async (action) => {
      expectError(await gateway.call('POST', `${BASE}/${MISSING}/acme/${action}`), 404, 'NOT_FOUND');
    });

    it.each(['confirm', 'renew'])('%s answers 400 for an id that is not a uuid', async (action) => {
      expectValidationError(await gateway.call('POST', `${BASE}/nope/acme/${action}`), ['id']);
    });

    it('download answers 409 while the certificate is not issued', async () => {
      const { id } = (await order(orderBody())).body.data;
      expectError(await gateway.call('GET', `${BASE}/${id}/download`), 409, 'CONFLICT');
    });
  });

  describe('DNS providers', () => {
    it('creates one with 201, never answering the TSIG secret, which is sealed at rest', async () => {
      const body = providerBody();
      const result = await gateway.call('POST', PROVIDERS, { body });
      expect(result.status).toBe(201);
      expect(result.body.data).toMatchObject({
        name: body.name,
        kind: 'rfc2136',
        port: 53,
        ttl: 60,
        tsigAlgorithm: 'hmac-sha256',
      });
      expect(result.text).not.toContain(body.tsigSecret);
      const [row] = await gateway.deps.db
        .select()
        .from(acmeDnsProviders)
        .where(eq(acmeDnsProviders.id, result.body.data.id));
      expect(row!.tsigSecretSealed).toMatch(/^v1\./);
      expect(row!.tsigSecretSealed).not.toContain(body.tsigSecret);
    });

    it('lists, gets and deletes one', async () => {
      const { id, name } = (await gateway.call('POST', PROVIDERS, { body: providerBody() })).body.data;
      const listed = await gateway.call('GET', PROVIDERS, { query: { q: name } });
      expect(listed.body.data.map((provider: { id: string }) => provider.id)).toEqual([id]);
      expect((await gateway.call('GET', `${PROVIDERS}/${id}`)).body.data.name).toBe(name);
      expect((await gateway.call('DELETE', `${PROVIDERS}/${id}`)).body).toEqual({ success: true });
      expectError(await gateway.call('GET', `${PROVIDERS}/${id}`), 404, 'NOT_FOUND');
    });

    it('answers 404 to get or delete one that does not exist', async () => {
      expectError(await gateway.call('GET', `${PROVIDERS}/${MISSING}`), 404, 'NOT_FOUND');
      expectError(await gateway.call('DELETE', `${PROVIDERS}/${MISSING}`), 404, 'NOT_FOUND');
    });

    it('answers 409 for a name already taken', async () => {
      const body = providerBody();
      expect((await gateway.call('POST', PROVIDERS, { body })).status).toBe(201);
      expectError(await gateway.call('POST', PROVIDERS, { body }), 409, 'CONFLICT');
    });

    it.each([
      ['kind', { kind: 'route53' }],
      ['server', { server: 'bad server' }],
      ['port', { port: 0 }],
      ['zone', { zone: '-bad-' }],
      ['tsigKeyName', { tsigKeyName: '' }],
      ['tsigAlgorithm', { tsigAlgorithm: 'hmac-md5' }],
      ['tsigSecret', { tsigSecret: 'not base64!' }],
      ['ttl', { ttl: 0 }],
    ])('refuses a bad %s with 400, creating nothing', async (field, overrides) => {
      const before = await total(PROVIDERS);
      expectValidationError(await gateway.call('POST', PROVIDERS, { body: providerBody(overrides) }), [
        field,
      ]);
      expect(await total(PROVIDERS)).toBe(before);
    });
  });
});

describe.skipIf(!openssl.path)('uploads and ACME certificates side by side', () => {
  let gateway: TestGateway;
  let pki: TestPki;
  beforeAll(async () => {
    pki = makeTestPki();
    gateway = await startTestGateway(await acmeConfig());
  });
  afterAll(async () => {
    await gateway?.close();
    pki?.cleanup();
  });

  it('answers 409 to replacing an ACME certificate by upload', async () => {
    const ordered = await gateway.call('POST', `${BASE}/acme`, {
      body: {
        name: 'acme-owned',
        domains: ['a.example.test'],
        challenge: 'http-01',
        accountEmail: 'a@example.test',
      },
    });
    const result = await gateway.call('PUT', `${BASE}/${ordered.body.data.id}`, {
      body: { certificatePem: pki.rsaLeaf.certificatePem, privateKeyPem: pki.rsaLeaf.keyPem },
    });
    expectError(result, 409, 'CONFLICT');
    expect(result.body.details.reason).toBe('CERTIFICATE_MANAGED_BY_ACME');
  });

  it('shows uploaded certificates as source uploaded, valid, with no ACME settings', async () => {
    const result = await gateway.call('POST', `${BASE}/upload`, {
      body: {
        name: 'uploaded',
        certificatePem: pki.rsaLeaf.certificatePem,
        privateKeyPem: pki.rsaLeaf.keyPem,
      },
    });
    expect(result.body.data).toMatchObject({
      source: 'uploaded',
      status: 'valid',
      lastError: null,
      nextRenewalAt: null,
      acme: null,
    });
  });
});
