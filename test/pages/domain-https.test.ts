import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpsListener } from '../../src/modules/certificates/tls/https-listener.js';
import { TestCa } from '../certificates/tls-material.js';
import { openssl } from '../services/openssl-pki.js';
import { type Pebble, pebbleAvailable, startPebble } from '../services/pebble.js';
import { freePort } from '../services/peers.js';
import { ensureConsoleBuilt } from '../support/build.js';
import { eventually } from '../support/eventually.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { requestOverHttps } from '../support/https-client.js';
import { tarGz } from './archives.js';
import { listenHttpAndHttps, pebbleDomainConfig, uploadCertificate } from './domain-tls.js';
import { createProject, deployOk, uniqueSlug } from './helpers.js';

const pebble = pebbleAvailable();
if (pebble.skipReason) console.warn(`skipping custom domains over HTTPS: ${pebble.skipReason}`);

const SITE = 'the site over TLS';
const EMAIL = 'pages@example.test';

interface Domain {
  id: string;
  hostname: string;
  status: string;
  certificateId: string | null;
  verification: { dnsName: string; dnsValue: string };
}

/**
 * The whole path of a custom domain to HTTPS: a gateway with its HTTP listener on the port Pebble
 * validates http-01 on and a TLS listener, domains proven by TXT records in pebble-challtestsrv
 * (which answers every name with 127.0.0.1), certificates uploaded from a test CA or issued by Pebble.
 */
describe.skipIf(!pebble.ok || !openssl.path)('pages custom domains served over HTTPS by SNI name', () => {
  let ca: Pebble;
  let testCa: TestCa;
  let gateway: TestGateway;
  let https: HttpsListener;
  let projectId: string;

  beforeAll(async () => {
    await ensureConsoleBuilt();
    const httpPort = await freePort();
    ca = await startPebble({ httpPort });
    testCa = new TestCa();
    gateway = await startTestGateway({
      ...pebbleDomainConfig(ca, httpPort, EMAIL),
      https: { port: 0, defaultCertificate: undefined, redirect: false },
      cookieSecure: true,
    });
    https = await listenHttpAndHttps(gateway, httpPort);
    projectId = (await createProject(gateway)).id;
    await deployOk(gateway, projectId, await tarGz({ 'index.html': SITE }));
  });
  afterAll(async () => {
    await https?.close();
    await gateway?.close();
    await ca?.stop();
    testCa?.cleanup();
  });

  /** A parent domain of its own per test, so one test's wildcard certificate matches nothing of another's. */
  const parent = () => `${uniqueSlug('p')}.test`;

  const upload = (names: string[]) => uploadCertificate(gateway, testCa, names);

  const addDomain = async (hostname: string, certificateId?: string) => {
    const result = await gateway.call('POST', `/api/pages/${projectId}/domains`, {
      body: { hostname, ...(certificateId ? { certificateId } : {}) },
    });
    expect(result.status, result.text).toBe(201);
    const domain = result.body.data as Domain;
    await ca.challtestsrv.setTxt(domain.verification.dnsName, domain.verification.dnsValue);
    return domain;
  };

  const verify = async (domain: Domain) => {
    const result = await gateway.call('POST', `/api/pages/${projectId}/domains/${domain.id}/verify`, {
      query: { method: 'dns' },
    });
    expect(result.body.data, result.text).toMatchObject({ status: 'verified' });
    return result.body.data as Domain;
  };

  const servedFingerprint = async (hostname: string) =>
    (await requestOverHttps(https.port, hostname, '/', { ca: testCa.caPem })).fingerprint256;

  it('answers a verified domain at https://{hostname}/ with the site and the certificate chosen for it', async () => {
    const hostname = `www.${parent()}`;
    const chosen = await upload([hostname]);
    await verify(await addDomain(hostname, chosen.id));
    const answer = await eventually(async () => {
      const candidate = await requestOverHttps(https.port, hostname, '/', { ca: testCa.caPem });
      return candidate.body === SITE ? candidate : undefined;
    }, 'the site to answer over HTTPS');
    expect(answer).toMatchObject({ status: 200, fingerprint256: chosen.fingerprint });
    expect(answer.headers['strict-transport-security']).toBe('max-age=31536000');
  });

  /** A new domain with a wildcard certificate chosen for it, while another one carries its exact name. */
  const wildcardChosen = async () => {
    const domain = parent();
    const hostname = `www.${domain}`;
    const chosen = await upload([`*.${domain}`]);
    const exact = await upload([hostname]);
    return { hostname, chosen, exact, added: await addDomain(hostname, chosen.id) };
  };

  /** Waits until a handshake for `hostname` is answered with `certificate`. */
  const served = (hostname: string, certificate: { fingerprint: string }, what: string) =>
    eventually(async () => (await servedFingerprint(hostname)) === certificate.fingerprint, what);

  it('serves the chosen wildcard certificate over one that carries the exact name', async () => {
    const { hostname, chosen, added } = await wildcardChosen();
    await verify(added);
    await served(hostname, chosen, 'the chosen certificate to be served');
  });

  it('serves another certificate chosen for a domain from the next handshake on, without a restart', async () => {
    const domain = parent();
    const hostname = `www.${domain}`;
    const first = await upload([`*.${domain}`]);
    const second = await upload([`*.${domain}`, hostname]);
    const added = await verify(await addDomain(hostname, first.id));
    await served(hostname, first, 'the first choice to be served');
    const changed = await gateway.call('PATCH', `/api/pages/${projectId}/domains/${added.id}`, {
      body: { certificateId: second.id },
    });
    expect(changed.status, changed.text).toBe(200);
    await served(hostname, second, 'the second choice to be served');
  });

  it('leaves a domain that is not verified to the certificate that carries its exact name', async () => {
    const { hostname, exact } = await wildcardChosen();
    await served(hostname, exact, 'the exact certificate to be served');
  });

  it('answers at https://{hostname}/ with the certificate the ACME CA issued for a domain verified without one', async () => {
    const hostname = `www.${parent()}`;
    const { certificateId } = await verify(await addDomain(hostname));
    expect(certificateId).toEqual(expect.any(String));
    const issued = await eventually(
      async () => {
        const record = (await gateway.call('GET', `/api/ssl-certificates/${certificateId}`)).body.data;
        return record.status === 'valid' ? record : undefined;
      },
      'the certificate to be issued',
      60_000,
    );
    // Trusted through Pebble's root: the served chain is the one the CA issued.
    const answer = await requestOverHttps(https.port, hostname, '/', { ca: await ca.issuingRootPem() });
    expect(answer).toMatchObject({ status: 200, body: SITE, fingerprint256: issued.fingerprintSha256 });
  });

  it("serves the API on the gateway's own name over HTTPS to an authenticated caller, and refuses an anonymous one", async () => {
    const hostname = `gateway.${parent()}`;
    const certificate = await upload([hostname]);
    const call = (headers: Record<string, string>) =>
      requestOverHttps(https.port, hostname, `/api/ssl-certificates/${certificate.id}`, {
        ca: testCa.caPem,
        headers,
      });
    const answer = await eventually(async () => {
      const candidate = await call({ authorization: `Bearer ${gateway.adminToken}` });
      return candidate.fingerprint256 === certificate.fingerprint ? candidate : undefined;
    }, "the gateway's certificate to be served");
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).data).toMatchObject({ id: certificate.id, sans: [hostname] });
    const me = await requestOverHttps(https.port, hostname, '/auth/me', {
      ca: testCa.caPem,
      headers: { authorization: `Bearer ${gateway.adminToken}` },
    });
    expect(JSON.parse(me.body)).toMatchObject({ data: { email: 'admin@test' } });
    const anonymous = await call({});
    expect(anonymous.status).toBe(401);
  });

  it("serves the console on the gateway's own name over HTTPS, where a signed-in browser session makes a change", async () => {
    const hostname = `console.${parent()}`;
    const origin = `https://${hostname}:${https.port}`;
    const certificate = await upload([hostname]);
    const page = await eventually(async () => {
      const candidate = await requestOverHttps(https.port, hostname, '/', {
        ca: testCa.caPem,
        headers: { accept: 'text/html' },
      });
      return candidate.fingerprint256 === certificate.fingerprint ? candidate : undefined;
    }, "the gateway's certificate to be served");
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const credentials = {
      email: `${uniqueSlug('operator')}@example.test`,
      password: 'correct horse battery',
    };
    const created = await gateway.call('POST', '/api/admin/users', {
      body: { ...credentials, name: 'Operator', group: 'admins' },
    });
    expect(created.status, created.text).toBe(201);
    const login = await requestOverHttps(https.port, hostname, '/auth/login', {
      ca: testCa.caPem,
      method: 'POST',
      headers: { origin },
      json: credentials,
    });
    expect(login.status, login.body).toBe(200);
    const setCookie = String(login.headers['set-cookie']);
    expect(setCookie).toMatch(/; Secure/);
    const slug = uniqueSlug();
    const change = await requestOverHttps(https.port, hostname, '/api/pages', {
      ca: testCa.caPem,
      method: 'POST',
      headers: {
        origin,
        cookie: setCookie.split(';')[0]!,
        'x-csrf-token': JSON.parse(login.body).data.csrfToken,
      },
      json: { name: slug, slug },
    });
    expect(change.status, change.body).toBe(201);
    expect(JSON.parse(change.body).data).toMatchObject({ slug });
  });
});
