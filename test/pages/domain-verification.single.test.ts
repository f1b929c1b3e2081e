import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../services/peers.js';
import { expectError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { tarGz } from './archives.js';
import { auditActions, createProject, deployOk, pagesConfig, uniqueSlug } from './helpers.js';
import { type KnotZone, knotBinaries, startKnotZone } from './knot-dns.js';

const { skipReason } = knotBinaries();
if (skipReason) console.warn(`skipping custom domain verification: ${skipReason}`);

interface Domain {
  id: string;
  hostname: string;
  status: string;
  lastError: string | null;
  verifiedAt: string | null;
  verification: { dnsName: string; dnsValue: string; httpBody: string };
}

describe.skipIf(skipReason)('custom domain verification against a real DNS server (Knot)', () => {
  let knot: KnotZone;
  let gateway: TestGateway;
  let projectId: string;

  beforeAll(async () => {
    knot = await startKnotZone('example.test');
    // The HTTP check connects to the address Knot answers (127.0.0.1) on this port: the gateway's.
    const port = await freePort();
    gateway = await startTestGateway({
      pages: pagesConfig({ dnsServers: [knot.server], verifyHttpPort: port }),
    });
    await gateway.app.listen({ port, host: '127.0.0.1' });
    projectId = (await createProject(gateway)).id;
    await deployOk(
      gateway,
      projectId,
      await tarGz({ 'index.html': 'the custom site', '404.html': 'site 404' }),
    );
  });
  afterAll(async () => {
    await gateway?.close();
    await knot?.stop();
  });

  const host = () => `${uniqueSlug('h')}.example.test`;
  const add = async (hostname: string) =>
    (await gateway.call('POST', `/api/pages/${projectId}/domains`, { body: { hostname } })).body
      .data as Domain;
  const verify = async (domain: Domain, query?: { method: 'dns' | 'http' }) => {
    const result = await gateway.call('POST', `/api/pages/${projectId}/domains/${domain.id}/verify`, {
      ...(query ? { query } : {}),
    });
    expect(result.status, result.text).toBe(200);
    return result.body.data as Domain;
  };
  const onHost = (hostname: string, url = '/') =>
    gateway.call('GET', url, { token: null, headers: { host: hostname } });

  it('verifies a domain by its TXT record and then serves the site at its root', async () => {
    const domain = await add(host());
    await knot.addTxt(domain.verification.dnsName, domain.verification.dnsValue);
    const verified = await verify(domain, { method: 'dns' });
    expect(verified).toMatchObject({ status: 'verified', lastError: null });
    expect(verified.verifiedAt).not.toBeNull();
    expect((await onHost(domain.hostname)).text).toBe('the custom site');
    expect((await onHost(domain.hostname, '/api/pages')).text).toBe('site 404');
    expect(await auditActions(gateway, domain.id)).toEqual(['pages.domain.created', 'pages.domain.verified']);
  });

  it('records a TXT record with another value as a failure, with the reason', async () => {
    const domain = await add(host());
    await knot.addTxt(domain.verification.dnsName, 'someone-else');
    const failed = await verify(domain, { method: 'dns' });
    expect(failed.status).toBe('failed');
    expect(failed.lastError).toBe(
      `DNS: the TXT records at ${domain.verification.dnsName} do not include the verification token`,
    );
    expect(await auditActions(gateway, domain.id)).toEqual([
      'pages.domain.created',
      'pages.domain.verification_failed',
    ]);
  });

  it('records a missing TXT record as a failure', async () => {
    const domain = await add(host());
    const failed = await verify(domain, { method: 'dns' });
    expect(failed).toMatchObject({
      status: 'failed',
      lastError: `DNS: no TXT record at ${domain.verification.dnsName}`,
    });
    expect((await onHost(domain.hostname)).text).not.toBe('the custom site');
  });

  it('verifies a domain pointed at the gateway by the HTTP token the gateway answers itself', async () => {
    const domain = await add(host());
    const verified = await verify(domain, { method: 'http' });
    expect(verified).toMatchObject({ status: 'verified', lastError: null });
    expect((await onHost(domain.hostname)).text).toBe('the custom site');
  });

  it('tries the TXT record, then the HTTP token, when no method is given', async () => {
    const domain = await add(host());
    expect(await verify(domain)).toMatchObject({ status: 'verified' });
  });

  it('reports both reasons when neither proof holds', async () => {
    const domain = await add(`${uniqueSlug('far')}.elsewhere.test`);
    const failed = await verify(domain);
    expect(failed.status).toBe('failed');
    expect(failed.lastError).toMatch(
      /^DNS: the DNS lookup of .* failed \(\w+\); HTTP: http:\/\/.* could not be resolved/,
    );
  });

  it('stops serving a verified domain whose proof fails on a later check', async () => {
    const domain = await add(host());
    await verify(domain, { method: 'http' });
    expect((await onHost(domain.hostname)).text).toBe('the custom site');
    const failed = await verify(domain, { method: 'dns' });
    expect(failed).toMatchObject({ status: 'failed', verifiedAt: null });
    expect((await onHost(domain.hostname)).text).not.toBe('the custom site');
  });

  it('answers the HTTP proof only to requests that name the domain as Host', async () => {
    const domain = await add(host());
    const url = `/.well-known/infragate-domain/${domain.verification.dnsValue}`;
    const own = await onHost(domain.hostname, url);
    expect(own.status).toBe(200);
    expect(own.text).toBe(domain.verification.httpBody);
    expect(own.headers['content-type']).toBe('text/plain; charset=utf-8');
    const other = await onHost('other.example.test', url);
    expectError(other, 404, 'NOT_FOUND');
    expect(other.body.details.reason).toBe('DOMAIN_TOKEN_NOT_FOUND');
  });

  it('keeps the HTTP proof on the gateway once the domain serves a site', async () => {
    const domain = await add(host());
    await verify(domain, { method: 'http' });
    expect(await verify(domain, { method: 'http' })).toMatchObject({ status: 'verified' });
  });

  it('stops serving a domain once it is removed', async () => {
    const domain = await add(host());
    await verify(domain, { method: 'http' });
    await gateway.call('DELETE', `/api/pages/${projectId}/domains/${domain.id}`);
    expect((await onHost(domain.hostname)).text).not.toBe('the custom site');
  });
});

describe.skipIf(skipReason)('custom domain verification under a public-only egress policy', () => {
  let knot: KnotZone;
  let gateway: TestGateway;

  beforeAll(async () => {
    knot = await startKnotZone('example.test');
    gateway = await startTestGateway({ egress: 'public', pages: pagesConfig({ dnsServers: [knot.server] }) });
  });
  afterAll(async () => {
    await gateway?.close();
    await knot?.stop();
  });

  it('does not connect to an address the policy refuses, and says which rule refused it', async () => {
    const project = await createProject(gateway);
    const created = await gateway.call('POST', `/api/pages/${project.id}/domains`, {
      body: { hostname: `${uniqueSlug('h')}.example.test` },
    });
    const result = await gateway.call(
      'POST',
      `/api/pages/${project.id}/domains/${created.body.data.id}/verify`,
      {
        body: { method: 'http' },
      },
    );
    expect(result.body.data.status).toBe('failed');
    expect(result.body.data.lastError).toMatch(
      /127\.0\.0\.1.*loopback addresses are not allowed by INFRAGATE_EGRESS=public/,
    );
  });
});
