import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pagesDomains } from '../../src/db/schema/index.js';
import { TestCa } from '../certificates/tls-material.js';
import { openssl } from '../services/openssl-pki.js';
import { eventually } from '../support/eventually.js';
import { expectError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { tarGz } from './archives.js';
import { uploadCertificate } from './domain-tls.js';
import { auditActions, createProject, deployOk, pagesConfig } from './helpers.js';

const BASE_DOMAIN = 'pages.test';
/** Where people reach the console, written as an operator might: case, Unicode, a final dot. */
const PUBLIC_URL = 'https://Console.Bücher.test.:8443';
const PUBLIC_HOST = 'console.xn--bcher-kva.test';
/** The public URL of the second gateway: a name under the pages base domain. */
const CONSOLE_UNDER_BASE = `console.${BASE_DOMAIN}`;
const DEFAULT_CERTIFICATE = 'gateway';

let gateway: TestGateway;
let projectId: string;
let ca: TestCa | undefined;

beforeAll(async () => {
  gateway = await startTestGateway({
    publicUrl: PUBLIC_URL,
    host: 'Listen.Example.test',
    pages: pagesConfig({ baseDomain: BASE_DOMAIN }),
    https: { port: undefined, defaultCertificate: DEFAULT_CERTIFICATE, redirect: false },
  });
  projectId = (await createProject(gateway)).id;
  await deployOk(gateway, projectId, await tarGz({ 'index.html': 'the site', '404.html': 'site 404' }));
  if (openssl.path) ca = new TestCa();
});
afterAll(async () => {
  await gateway.close();
  ca?.cleanup();
});

const addDomain = (hostname: string, host = 'elsewhere.example.org') =>
  gateway.call('POST', `/api/pages/${projectId}/domains`, { body: { hostname }, headers: { host } });

function expectReserved(result: Awaited<ReturnType<typeof addDomain>>, hostname: string) {
  expectError(result, 422, 'UNPROCESSABLE_ENTITY');
  expect(result.body.details).toMatchObject({ reason: 'HOSTNAME_RESERVED', hostname });
}

describe("the gateway's own names are never a custom domain", () => {
  it('refuses the host of INFRAGATE_PUBLIC_URL in its canonical spelling, whatever Host the request names', async () => {
    expectReserved(await addDomain(PUBLIC_HOST), PUBLIC_HOST);
  });

  it('refuses the listen HOST when it is a name', async () => {
    expectReserved(await addDomain('listen.example.test'), 'listen.example.test');
  });

  it('refuses the name the request reached the gateway by, in another spelling', async () => {
    expectReserved(await addDomain('admin.example.org', 'Admin.Example.ORG.:8080'), 'admin.example.org');
  });

  it.skipIf(!openssl.path)(
    'refuses the exact names of the HTTPS default certificate, not the names its wildcard covers',
    async () => {
      const leaf = ca!.leaf(['Gw.Example.test', '*.apps.example.test']);
      const uploaded = await gateway.call('POST', '/api/ssl-certificates/upload', {
        body: {
          name: DEFAULT_CERTIFICATE,
          certificatePem: leaf.certificatePem,
          privateKeyPem: leaf.privateKeyPem,
        },
      });
      expect(uploaded.status, uploaded.text).toBe(201);
      expectReserved(await addDomain('gw.example.test'), 'gw.example.test');
      expect((await addDomain('shop.apps.example.test')).status).toBe(201);
    },
  );

  it('takes any other name', async () => {
    expect((await addDomain('free.example.org')).status).toBe(201);
  });
});

describe('a domain that claimed a reserved name before it was reserved', () => {
  /** The certificate both claimed domains chose (none without openssl). */
  let certificateId: string | null = null;
  let listenDomainId: string;

  /** A verified domain as it could be stored before its name was reserved. */
  const claim = async (hostname: string) => {
    const [row] = await gateway.deps.db
      .insert(pagesDomains)
      .values({
        projectId,
        hostname,
        status: 'verified',
        verifiedAt: new Date(),
        certificateId,
        verificationToken: crypto.randomBytes(24).toString('base64url'),
      })
      .returning();
    return row!.id;
  };

  beforeAll(async () => {
    if (ca) certificateId = (await uploadCertificate(gateway, ca, [PUBLIC_HOST, 'www.example.org'])).id;
    await claim(PUBLIC_HOST);
    await claim('www.example.org');
    listenDomainId = await claim('listen.example.test');
  });

  it('is not served: its name stays the gateway’s', async () => {
    const onHost = (host: string) => gateway.call('GET', '/healthz', { token: null, headers: { host } });
    // Stored behind the service's back: the domains are read again within a second.
    await eventually(async () => (await onHost('www.example.org')).text === 'site 404', 'the domains read');
    expect((await onHost(PUBLIC_HOST)).body).toEqual({ status: 'ok' });
  });

  it.skipIf(!openssl.path)('gives the TLS listener no certificate for that name', async () => {
    const chosen = await gateway.deps.certificateChoices.chosen();
    expect(chosen.get('www.example.org')).toBe(certificateId);
    expect(chosen.has(PUBLIC_HOST)).toBe(false);
  });

  it('fails its next verification without any check, and says why', async () => {
    const result = await gateway.call('POST', `/api/pages/${projectId}/domains/${listenDomainId}/verify`);
    expect(result.status, result.text).toBe(200);
    expect(result.body.data).toMatchObject({ status: 'failed', verifiedAt: null });
    expect(result.body.data.lastError).toMatch(/^HOSTNAME_RESERVED: the gateway itself answers at this name/);
    expect(await auditActions(gateway, listenDomainId)).toEqual(['pages.domain.verification_failed']);
  });
});

describe('a public URL under the pages base domain', () => {
  let underBase: TestGateway;

  beforeAll(async () => {
    underBase = await startTestGateway({
      publicUrl: `https://${CONSOLE_UNDER_BASE}`,
      pages: pagesConfig({ baseDomain: BASE_DOMAIN }),
    });
    const project = await createProject(underBase, { slug: 'console' });
    await deployOk(underBase, project.id, await tarGz({ 'index.html': 'a site called console' }));
  });
  afterAll(() => underBase.close());

  it('stays the gateway’s, though a project has the slug it names', async () => {
    const result = await underBase.call('GET', '/healthz', {
      token: null,
      headers: { host: CONSOLE_UNDER_BASE },
    });
    expect(result.body).toEqual({ status: 'ok' });
  });
});
