import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestCa } from '../certificates/tls-material.js';
import { openssl } from '../services/openssl-pki.js';
import { type Pebble, pebbleAvailable, startPebble } from '../services/pebble.js';
import { freePort } from '../services/peers.js';
import { eventually } from '../support/eventually.js';
import { startTestGateway } from '../support/gateway.js';
import { pebbleDomainConfig, uploadCertificate } from './domain-tls.js';
import { auditActions, createProject, uniqueSlug } from './helpers.js';

const pebble = pebbleAvailable();
if (pebble.skipReason)
  console.warn(`skipping automatic certificates of custom domains: ${pebble.skipReason}`);

const EMAIL = 'pages@example.test';
/** The domain whose ordered certificate the gateway also serves as its default TLS certificate. */
const DEFAULT_HOST = `${uniqueSlug('default')}.example.test`;

interface Domain {
  id: string;
  projectId: string;
  hostname: string;
  status: string;
  lastError: string | null;
  certificateId: string | null;
  certificateOrdered: boolean;
  verification: { dnsName: string; dnsValue: string };
}

/**
 * A gateway whose custom domains are checked through pebble-challtestsrv (every name resolves to
 * 127.0.0.1) and whose HTTP port is the one Pebble validates http-01 on.
 */
async function domainGateway(ca: Pebble, httpPort: number, acmeEmail: string | undefined) {
  const gateway = await startTestGateway({
    ...pebbleDomainConfig(ca, httpPort, acmeEmail),
    https: { port: undefined, defaultCertificate: `pages ${DEFAULT_HOST}`, redirect: false },
  });
  const projectId = (await createProject(gateway)).id;
  const add = async (hostname = `${uniqueSlug('c')}.example.test`, certificateId?: string) => {
    const result = await gateway.call('POST', `/api/pages/${projectId}/domains`, {
      body: { hostname, ...(certificateId ? { certificateId } : {}) },
    });
    expect(result.status, result.text).toBe(201);
    return result.body.data as Domain;
  };
  const verify = async (domain: Domain) => {
    const result = await gateway.call('POST', `/api/pages/${domain.projectId}/domains/${domain.id}/verify`, {
      query: { method: 'dns' },
    });
    expect(result.status, result.text).toBe(200);
    return result.body.data as Domain;
  };
  const addVerifiable = async (hostname?: string, certificateId?: string) => {
    const domain = await add(hostname, certificateId);
    await ca.challtestsrv.setTxt(domain.verification.dnsName, domain.verification.dnsValue);
    return domain;
  };
  const certificate = async (id: string) =>
    (await gateway.call('GET', `/api/ssl-certificates/${id}`)).body.data;
  const certificateStatus = async (id: string) =>
    (await gateway.call('GET', `/api/ssl-certificates/${id}`)).status;
  const removeDomain = async (domain: Domain) => {
    const result = await gateway.call('DELETE', `/api/pages/${domain.projectId}/domains/${domain.id}`);
    expect(result.status, result.text).toBe(200);
  };
  return { gateway, projectId, addVerifiable, verify, certificate, certificateStatus, removeDomain };
}

describe.skipIf(!pebble.ok)('automatic certificates of custom domains (against Pebble)', () => {
  let ca: Pebble;
  let testCa: TestCa | undefined;
  /** Uploads a certificate for `hostname` and answers its id. */
  const upload = async (hostname: string) => (await uploadCertificate(on.gateway, testCa!, [hostname])).id;
  let on: Awaited<ReturnType<typeof domainGateway>>;
  let off: Awaited<ReturnType<typeof domainGateway>>;

  beforeAll(async () => {
    const httpPort = await freePort();
    ca = await startPebble({ httpPort });
    if (openssl.path) testCa = new TestCa();
    on = await domainGateway(ca, httpPort, EMAIL);
    await on.gateway.app.listen({ port: httpPort, host: '127.0.0.1' });
    off = await domainGateway(ca, httpPort, undefined);
  });
  afterAll(async () => {
    await on?.gateway.close();
    await off?.gateway.close();
    await ca?.stop();
    testCa?.cleanup();
  });

  it('orders a certificate for a domain once it is verified, and shows it on the domain', async () => {
    const domain = await on.addVerifiable();
    const verified = await on.verify(domain);
    expect(verified).toMatchObject({ status: 'verified', lastError: null, certificateOrdered: true });
    expect(verified.certificateId).toEqual(expect.any(String));
    expect(await on.certificate(verified.certificateId!)).toMatchObject({
      name: `pages ${domain.hostname}`,
      source: 'acme',
      acme: {
        domains: [domain.hostname],
        challenge: 'http-01',
        accountEmail: EMAIL,
        directoryUrl: ca.directoryUrl,
      },
    });
    expect(await auditActions(on.gateway, domain.id)).toEqual([
      'pages.domain.created',
      'pages.domain.verified',
      'pages.domain.certificate_ordered',
    ]);
  });

  it('has the certificate issued by the CA, answered over http-01 at the domain, covering the host name', async () => {
    const domain = await on.addVerifiable();
    const { certificateId } = await on.verify(domain);
    const issued = await eventually(
      async () => {
        const record = await on.certificate(certificateId!);
        return record.status === 'pending' ? undefined : record;
      },
      'the certificate to be issued',
      30_000,
    );
    expect(issued).toMatchObject({ status: 'valid', lastError: null, sans: [domain.hostname] });
  });

  it('orders nothing more when a verified domain is verified again', async () => {
    const domain = await on.addVerifiable();
    const first = await on.verify(domain);
    const again = await on.verify(domain);
    expect(again.certificateId).toBe(first.certificateId);
    expect(
      (await auditActions(on.gateway, domain.id)).filter((action) => action.includes('certificate')),
    ).toEqual(['pages.domain.certificate_ordered']);
  });

  it('records a failure to order on the domain, which stays verified', async () => {
    const hostname = `${uniqueSlug('taken')}.example.test`;
    const taken = await on.gateway.call('POST', '/api/ssl-certificates/acme', {
      body: { name: `pages ${hostname}`, domains: [hostname], challenge: 'http-01', accountEmail: EMAIL },
    });
    expect(taken.status).toBe(202);
    const domain = await on.addVerifiable(hostname);
    const verified = await on.verify(domain);
    expect(verified).toMatchObject({ status: 'verified', certificateId: null });
    expect(verified.lastError).toBe(
      `certificate "pages ${hostname}" could not be ordered: CERTIFICATE_NAME_TAKEN`,
    );
    expect(await auditActions(on.gateway, domain.id)).toEqual([
      'pages.domain.created',
      'pages.domain.verified',
      'pages.domain.certificate_failed',
    ]);
  });

  it('deletes the certificate ordered for a domain when the domain is deleted, so it is not renewed', async () => {
    const domain = await on.addVerifiable();
    const { certificateId } = await on.verify(domain);
    await on.removeDomain(domain);
    expect(await on.certificateStatus(certificateId!)).toBe(404);
    expect((await auditActions(on.gateway, certificateId!)).at(-1)).toBe('certificates.certificate.deleted');
  });

  it('deletes the certificates ordered for the domains of a project deleted with them', async () => {
    const project = await createProject(on.gateway);
    const added = await on.gateway.call('POST', `/api/pages/${project.id}/domains`, {
      body: { hostname: `${uniqueSlug('p')}.example.test` },
    });
    const domain = added.body.data as Domain;
    await ca.challtestsrv.setTxt(domain.verification.dnsName, domain.verification.dnsValue);
    const { certificateId } = await on.verify(domain);
    expect(certificateId).toEqual(expect.any(String));
    expect((await on.gateway.call('DELETE', `/api/pages/${project.id}`)).status).toBe(200);
    expect(await on.certificateStatus(certificateId!)).toBe(404);
  });

  it.skipIf(!openssl.path)(
    'deletes the ordered certificate when another one is chosen for the domain',
    async () => {
      const hostname = `${uniqueSlug('c')}.example.test`;
      const domain = await on.addVerifiable(hostname);
      const { certificateId: ordered } = await on.verify(domain);
      const chosen = await upload(hostname);
      const changed = await on.gateway.call('PATCH', `/api/pages/${domain.projectId}/domains/${domain.id}`, {
        body: { certificateId: chosen },
      });
      expect(changed.body.data).toMatchObject({ certificateId: chosen, certificateOrdered: false });
      expect(await on.certificateStatus(ordered!)).toBe(404);
    },
  );

  it.skipIf(!openssl.path)(
    'keeps a certificate that was chosen for a domain when the domain is deleted',
    async () => {
      const hostname = `${uniqueSlug('c')}.example.test`;
      const chosen = await upload(hostname);
      const domain = await on.addVerifiable(hostname, chosen);
      expect(await on.verify(domain)).toMatchObject({ certificateId: chosen, certificateOrdered: false });
      await on.removeDomain(domain);
      expect(await on.certificateStatus(chosen)).toBe(200);
    },
  );

  it('keeps an ordered certificate that the gateway serves as its default certificate', async () => {
    const domain = await on.addVerifiable(DEFAULT_HOST);
    const { certificateId } = await on.verify(domain);
    await on.removeDomain(domain);
    expect(await on.certificate(certificateId!)).toMatchObject({ name: `pages ${DEFAULT_HOST}` });
  });

  it('orders nothing without INFRAGATE_PAGES_ACME_EMAIL', async () => {
    const domain = await off.addVerifiable();
    const verified = await off.verify(domain);
    expect(verified).toMatchObject({ status: 'verified', certificateId: null, lastError: null });
    const certificates = await off.gateway.call('GET', '/api/ssl-certificates', { query: { limit: 100 } });
    expect(certificates.body.pagination.total).toBe(0);
  });
});
