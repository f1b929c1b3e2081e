import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestCa } from '../certificates/tls-material.js';
import { makeTestPki, openssl, type TestPki } from '../services/openssl-pki.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { uploadCertificate } from './domain-tls.js';
import { auditActions, createProject, pagesConfig, uniqueSlug } from './helpers.js';

const BASE_DOMAIN = 'pages.test';

let gateway: TestGateway;
let pki: TestPki | undefined;
let ca: TestCa | undefined;
let counter = 0;

beforeAll(async () => {
  gateway = await startTestGateway({ pages: pagesConfig({ baseDomain: BASE_DOMAIN }) });
  if (openssl.path) {
    pki = makeTestPki();
    ca = new TestCa();
  }
});
afterAll(async () => {
  await gateway.close();
  pki?.cleanup();
  ca?.cleanup();
});

const uniqueHost = () => `${uniqueSlug('d')}-${++counter}.example.org`;
const domainsOf = (projectId: string) => `/api/pages/${projectId}/domains`;

async function addDomain(projectId: string, body: Record<string, unknown> = { hostname: uniqueHost() }) {
  const result = await gateway.call('POST', domainsOf(projectId), { body });
  expect(result.status, result.text).toBe(201);
  return result.body.data as { id: string; hostname: string; verification: Record<string, string> };
}

describe('POST /api/pages/:projectId/domains', () => {
  it('adds a pending domain with the proofs that would verify it', async () => {
    const project = await createProject(gateway);
    const hostname = uniqueHost();
    const result = await gateway.call('POST', domainsOf(project.id), { body: { hostname } });
    expect(result.status).toBe(201);
    const domain = result.body.data;
    expect(domain).toMatchObject({
      projectId: project.id,
      hostname,
      status: 'pending',
      lastError: null,
      lastCheckedAt: null,
      verifiedAt: null,
      certificateId: null,
      url: `https://${hostname}/`,
    });
    const token = domain.verification.dnsValue as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(domain.verification).toEqual({
      dnsName: `_infragate-challenge.${hostname}`,
      dnsValue: token,
      httpUrl: `http://${hostname}/.well-known/infragate-domain/${token}`,
      httpBody: `${token}.${domain.id}`,
    });
    expect(await auditActions(gateway, domain.id)).toEqual(['pages.domain.created']);
  });

  it.each([
    ['Upper.Example.org'],
    ['single-label'],
    ['10.0.0.1'],
    ['*.example.org'],
    ['-bad.example.org'],
    ['a..example.org'],
    [`${'a'.repeat(64)}.example.org`],
    [`${'a.'.repeat(127)}org`],
  ])('refuses the host name %s with 400', async (hostname) => {
    const project = await createProject(gateway);
    expectValidationError(await gateway.call('POST', domainsOf(project.id), { body: { hostname } }), [
      'hostname',
    ]);
  });

  it('refuses a host name another project holds with 409 DOMAIN_TAKEN', async () => {
    const first = await createProject(gateway);
    const second = await createProject(gateway);
    const { hostname } = await addDomain(first.id);
    const result = await gateway.call('POST', domainsOf(second.id), { body: { hostname } });
    expectError(result, 409, 'CONFLICT');
    expect(result.body.details).toMatchObject({ reason: 'DOMAIN_TAKEN', hostname });
  });

  it('refuses the pages base domain and names under it with 422 HOSTNAME_RESERVED', async () => {
    const project = await createProject(gateway);
    for (const hostname of [BASE_DOMAIN, `docs.${BASE_DOMAIN}`]) {
      const result = await gateway.call('POST', domainsOf(project.id), { body: { hostname } });
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(result.body.details.reason).toBe('HOSTNAME_RESERVED');
    }
  });

  it('refuses the name the gateway is reached by with 422 HOSTNAME_RESERVED', async () => {
    const project = await createProject(gateway);
    const result = await gateway.call('POST', domainsOf(project.id), {
      body: { hostname: 'admin.example.org' },
      headers: { host: 'Admin.Example.org:8443' },
    });
    expectError(result, 422, 'UNPROCESSABLE_ENTITY');
    expect(result.body.details.reason).toBe('HOSTNAME_RESERVED');
  });

  it('answers 401 without a token, 403 with view only, 404 for an unknown project', async () => {
    const project = await createProject(gateway);
    const body = { hostname: uniqueHost() };
    expectError(
      await gateway.call('POST', domainsOf(project.id), { token: null, body }),
      401,
      'UNAUTHORIZED',
    );
    const viewer = await gateway.tokenWithScopes(['pages:view']);
    expectError(await gateway.call('POST', domainsOf(project.id), { token: viewer, body }), 403, 'FORBIDDEN');
    expectError(await gateway.call('POST', domainsOf(crypto.randomUUID()), { body }), 404, 'NOT_FOUND');
    expectValidationError(await gateway.call('POST', domainsOf('not-a-uuid'), { body }), ['projectId']);
  });

  it.skipIf(!openssl.path)('takes a stored certificate that names the host', async () => {
    const project = await createProject(gateway);
    const certificate = await gateway.call('POST', '/api/ssl-certificates/upload', {
      body: {
        name: `leaf-${++counter}`,
        certificatePem: pki!.rsaLeaf.certificatePem,
        privateKeyPem: pki!.rsaLeaf.keyPem,
      },
    });
    const certificateId = certificate.body.data.id as string;
    const taken = await gateway.call('POST', domainsOf(project.id), {
      body: { hostname: 'www.example.test', certificateId },
    });
    expect(taken.status).toBe(201);
    expect(taken.body.data.certificateId).toBe(certificateId);
    const mismatch = await gateway.call('POST', domainsOf(project.id), {
      body: { hostname: 'other.example.test', certificateId },
    });
    expectError(mismatch, 422, 'UNPROCESSABLE_ENTITY');
    expect(mismatch.body.details).toMatchObject({
      reason: 'CERTIFICATE_MISMATCH',
      names: expect.arrayContaining(['www.example.test']),
    });
  });

  it('refuses an unknown certificate with 422 CERTIFICATE_NOT_FOUND and stores nothing', async () => {
    const project = await createProject(gateway);
    const result = await gateway.call('POST', domainsOf(project.id), {
      body: { hostname: uniqueHost(), certificateId: crypto.randomUUID() },
    });
    expectError(result, 422, 'UNPROCESSABLE_ENTITY');
    expect(result.body.details.reason).toBe('CERTIFICATE_NOT_FOUND');
    expect((await gateway.call('GET', domainsOf(project.id))).body.pagination.total).toBe(0);
  });
});

describe.skipIf(!openssl.path)('certificates a caller may not view', () => {
  /** A project, a stored certificate naming `hostname`, and a caller with these scopes beside `pages:manage`. */
  async function setting(scopes: (certificateId: string) => string[] = () => []) {
    const project = await createProject(gateway);
    const hostname = uniqueHost();
    const certificate = await uploadCertificate(gateway, ca!, [hostname]);
    const token = await gateway.tokenWithScopes(['pages:manage', ...scopes(certificate.id)]);
    return { projectId: project.id, hostname, certificateId: certificate.id, token };
  }

  it('answers a certificate the caller may not view as one that does not exist, naming nothing', async () => {
    const { projectId, hostname, certificateId, token } = await setting();
    for (const name of [hostname, uniqueHost()]) {
      const result = await gateway.call('POST', domainsOf(projectId), {
        token,
        body: { hostname: name, certificateId },
      });
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(result.body.details).toEqual({
        reason: 'CERTIFICATE_NOT_FOUND',
        explanation: expect.any(String),
        certificateId,
      });
    }
    expect((await gateway.call('GET', domainsOf(projectId))).body.pagination.total).toBe(0);
  });

  it('does not let such a caller choose it for a domain with PATCH either', async () => {
    const { projectId, hostname, certificateId, token } = await setting();
    const domain = await addDomain(projectId, { hostname });
    const result = await gateway.call('PATCH', `${domainsOf(projectId)}/${domain.id}`, {
      token,
      body: { certificateId },
    });
    expectError(result, 422, 'UNPROCESSABLE_ENTITY');
    expect(result.body.details.reason).toBe('CERTIFICATE_NOT_FOUND');
  });

  it('lets a caller who may view that one certificate choose it, and see its names when they do not fit', async () => {
    const { projectId, hostname, certificateId, token } = await setting((id) => [`certificates:view:${id}`]);
    const mismatch = await gateway.call('POST', domainsOf(projectId), {
      token,
      body: { hostname: uniqueHost(), certificateId },
    });
    expect(mismatch.body.details).toMatchObject({ reason: 'CERTIFICATE_MISMATCH', names: [hostname] });
    const taken = await gateway.call('POST', domainsOf(projectId), {
      token,
      body: { hostname, certificateId },
    });
    expect(taken.status, taken.text).toBe(201);
    expect(taken.body.data.certificateId).toBe(certificateId);
  });

  it('lets such a caller keep the certificate an operator chose for the domain', async () => {
    const { projectId, hostname, certificateId, token } = await setting();
    const domain = await addDomain(projectId, { hostname, certificateId });
    const kept = await gateway.call('PATCH', `${domainsOf(projectId)}/${domain.id}`, {
      token,
      body: { certificateId },
    });
    expect(kept.status, kept.text).toBe(200);
    expect(kept.body.data.certificateId).toBe(certificateId);
  });
});

describe('reading, changing and removing domains', () => {
  it('lists a project’s domains by host name, paginated', async () => {
    const project = await createProject(gateway);
    await addDomain(project.id, { hostname: `b-${uniqueHost()}` });
    await addDomain(project.id, { hostname: `a-${uniqueHost()}` });
    const page = await gateway.call('GET', domainsOf(project.id), { query: { limit: 1 } });
    expect(page.body.pagination).toMatchObject({ total: 2, limit: 1, totalPages: 2 });
    expect(page.body.data[0].hostname).toMatch(/^a-/);
    expect(page.body.data[0].verificationToken).toBeUndefined();
  });

  it('gets one domain; one of another project is 404', async () => {
    const project = await createProject(gateway);
    const other = await createProject(gateway);
    const domain = await addDomain(project.id);
    expect((await gateway.call('GET', `${domainsOf(project.id)}/${domain.id}`)).body.data.id).toBe(domain.id);
    expectError(await gateway.call('GET', `${domainsOf(other.id)}/${domain.id}`), 404, 'NOT_FOUND');
    expectError(
      await gateway.call('GET', `${domainsOf(project.id)}/${crypto.randomUUID()}`),
      404,
      'NOT_FOUND',
    );
  });

  it('clears the certificate with PATCH certificateId null', async () => {
    const project = await createProject(gateway);
    const domain = await addDomain(project.id);
    const result = await gateway.call('PATCH', `${domainsOf(project.id)}/${domain.id}`, {
      body: { certificateId: null },
    });
    expect(result.body.data.certificateId).toBeNull();
    expect(await auditActions(gateway, domain.id)).toEqual(['pages.domain.created', 'pages.domain.updated']);
    expectValidationError(
      await gateway.call('PATCH', `${domainsOf(project.id)}/${domain.id}`, { body: {} }),
      ['certificateId'],
    );
  });

  it('removes a domain, audited; a second delete is 404', async () => {
    const project = await createProject(gateway);
    const domain = await addDomain(project.id);
    const url = `${domainsOf(project.id)}/${domain.id}`;
    expect((await gateway.call('DELETE', url)).body).toEqual({ success: true });
    expectError(await gateway.call('DELETE', url), 404, 'NOT_FOUND');
    expect(await auditActions(gateway, domain.id)).toEqual(['pages.domain.created', 'pages.domain.deleted']);
  });

  it('frees the host name when the project is deleted', async () => {
    const project = await createProject(gateway);
    const { hostname } = await addDomain(project.id);
    await gateway.call('DELETE', `/api/pages/${project.id}`);
    await addDomain((await createProject(gateway)).id, { hostname });
  });

  it('answers 401 and 403 on every domain route before anything else', async () => {
    const project = await createProject(gateway);
    const domain = await addDomain(project.id);
    const viewer = await gateway.tokenWithScopes(['pages:view']);
    const nobody = await gateway.tokenWithScopes([]);
    const one = `${domainsOf(project.id)}/${domain.id}`;
    const writes = [
      ['POST', domainsOf(project.id)],
      ['PATCH', one],
      ['POST', `${one}/verify`],
      ['DELETE', one],
    ] as const;
    for (const [method, url] of [...writes, ['GET', domainsOf(project.id)], ['GET', one]] as const) {
      expectError(await gateway.call(method, url, { token: null, body: {} }), 401, 'UNAUTHORIZED');
      expectError(await gateway.call(method, url, { token: nobody, body: {} }), 403, 'FORBIDDEN');
    }
    for (const [method, url] of writes) {
      expectError(await gateway.call(method, url, { token: viewer, body: {} }), 403, 'FORBIDDEN');
    }
  });

  it('answers 400 for malformed ids and 404 for unknown projects and domains on every domain route', async () => {
    const project = await createProject(gateway);
    const domain = await addDomain(project.id);
    const routes = (projectId: string, domainId: string) =>
      [
        ['GET', domainsOf(projectId), undefined],
        ['GET', `${domainsOf(projectId)}/${domainId}`, undefined],
        ['PATCH', `${domainsOf(projectId)}/${domainId}`, { certificateId: null }],
        ['POST', `${domainsOf(projectId)}/${domainId}/verify`, undefined],
        ['DELETE', `${domainsOf(projectId)}/${domainId}`, undefined],
      ] as const;
    for (const [method, url, body] of routes('nope', domain.id)) {
      expectValidationError(await gateway.call(method, url, body ? { body } : {}), ['projectId']);
    }
    for (const [method, url, body] of routes(project.id, 'nope').slice(1)) {
      expectValidationError(await gateway.call(method, url, body ? { body } : {}), ['domainId']);
    }
    for (const [method, url, body] of [
      ...routes(crypto.randomUUID(), domain.id),
      ...routes(project.id, crypto.randomUUID()).slice(1),
    ]) {
      expectError(await gateway.call(method, url, body ? { body } : {}), 404, 'NOT_FOUND');
    }
  });

  it('refuses an unknown verification method with 400', async () => {
    const project = await createProject(gateway);
    const domain = await addDomain(project.id);
    expectValidationError(
      await gateway.call('POST', `${domainsOf(project.id)}/${domain.id}/verify`, {
        query: { method: 'smtp' },
      }),
      ['method'],
    );
  });
});
