import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemActor } from '../../src/core/actor.js';
import { CertificateService } from '../../src/modules/certificates/certificates.js';
import type { HttpsListener } from '../../src/modules/certificates/tls/https-listener.js';
import { TestCa } from '../certificates/tls-material.js';
import { openssl } from '../services/openssl-pki.js';
import { freePort } from '../services/peers.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { type HttpsRequest, requestOverHttps } from '../support/https-client.js';
import { listenHttpAndHttps } from './domain-tls.js';
import { pagesConfig, uniqueSlug } from './helpers.js';
import { type KnotZone, knotBinaries, startKnotZone } from './knot-dns.js';

const { skipReason } = knotBinaries();
if (skipReason) console.warn(`skipping custom domains behind the HTTPS redirect: ${skipReason}`);

const GATEWAY_HOST = 'gateway.example.test';

/**
 * A gateway that redirects plain HTTP to HTTPS (`INFRAGATE_HTTPS_REDIRECT`) on a TLS port the system
 * chose (`HTTPS_PORT=0`), used over HTTPS under its own name. Knot answers every name under
 * example.test with 127.0.0.1, so an HTTP ownership check of a domain reaches this gateway's HTTP
 * listener.
 */
describe.skipIf(skipReason || !openssl.path)('custom domains behind the HTTP to HTTPS redirect', () => {
  let knot: KnotZone;
  let testCa: TestCa;
  let gateway: TestGateway;
  let https: HttpsListener;
  let httpPort: number;

  beforeAll(async () => {
    knot = await startKnotZone('example.test');
    testCa = new TestCa();
    httpPort = await freePort();
    gateway = await startTestGateway({
      pages: pagesConfig({ dnsServers: [knot.server], verifyHttpPort: httpPort }),
      https: { port: 0, defaultCertificate: undefined, redirect: true },
    });
    https = await listenHttpAndHttps(gateway, httpPort);
    // Stored directly: every plain-HTTP API call is redirected, and nothing serves HTTPS before this.
    const leaf = testCa.leaf([GATEWAY_HOST]);
    await new CertificateService(gateway.deps).upload(systemActor(), { name: 'gateway', ...leaf });
  });
  afterAll(async () => {
    await https?.close();
    await gateway?.close();
    await knot?.stop();
    testCa?.cleanup();
  });

  const api = async (method: string, path: string, json?: unknown) => {
    const options: HttpsRequest = {
      ca: testCa.caPem,
      method,
      headers: { authorization: `Bearer ${gateway.adminToken}` },
      json,
    };
    const answer = await requestOverHttps(https.port, GATEWAY_HOST, path, options);
    return { status: answer.status, body: JSON.parse(answer.body) };
  };

  it('verifies a domain by its HTTP proof, which stays on plain HTTP', async () => {
    const slug = uniqueSlug();
    const project = await api('POST', '/api/pages', { name: slug, slug });
    expect(project.status).toBe(201);
    const projectId = project.body.data.id;
    const created = await api('POST', `/api/pages/${projectId}/domains`, {
      hostname: `${uniqueSlug('h')}.example.test`,
    });
    expect(created.status).toBe(201);
    const verified = await api(
      'POST',
      `/api/pages/${projectId}/domains/${created.body.data.id}/verify?method=http`,
    );
    expect(verified.body.data).toMatchObject({ status: 'verified', lastError: null });
  });

  it('redirects plain HTTP to the port the TLS listener bound for HTTPS_PORT=0', async () => {
    const response = await request(`http://127.0.0.1:${httpPort}/api/pages?page=2`, {
      headers: { host: GATEWAY_HOST },
    });
    expect(response.statusCode).toBe(308);
    expect(response.headers.location).toBe(`https://${GATEWAY_HOST}:${https.port}/api/pages?page=2`);
    await response.body.dump();
  });
});

describe('the HTTP to HTTPS redirect before the TLS listener has bound HTTPS_PORT=0', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startTestGateway({ https: { port: 0, defaultCertificate: undefined, redirect: true } });
  });
  afterAll(() => gateway?.close());

  it('answers plain HTTP itself rather than redirect to port 0', async () => {
    const answer = await gateway.call('GET', '/api/pages', { headers: { host: GATEWAY_HOST } });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers.location).toBeUndefined();
  });
});
