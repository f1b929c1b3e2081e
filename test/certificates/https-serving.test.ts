import crypto from 'node:crypto';
import tls from 'node:tls';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemActor } from '../../src/core/actor.js';
import type { App } from '../../src/core/app.js';
import type { Database } from '../../src/db/client.js';
import { CertificateService } from '../../src/modules/certificates/certificates.js';
import { type HttpsListener, listenHttps } from '../../src/modules/certificates/tls/https-listener.js';
import { buildServer } from '../../src/server.js';
import { openssl } from '../services/openssl-pki.js';
import { freePort } from '../services/peers.js';
import { eventually } from '../support/eventually.js';
import { openTestDatabase, testConfig } from '../support/gateway.js';
import { type Leaf, TestCa } from './tls-material.js';

interface Handshake {
  fingerprint256: string;
  authorized: boolean;
  protocol: string | null;
}

/** One TLS handshake as a client trusting the test CA; `servername` undefined sends no SNI. */
function handshake(
  port: number,
  servername: string | undefined,
  ca: string,
  extra: tls.ConnectionOptions = {},
) {
  return new Promise<Handshake>((resolve, reject) => {
    const socket = tls.connect({
      host: '127.0.0.1',
      port,
      ca,
      rejectUnauthorized: false,
      ...(servername ? { servername } : {}),
      ...extra,
    });
    socket.once('secureConnect', () => {
      const answer = {
        fingerprint256: socket.getPeerCertificate().fingerprint256,
        authorized: socket.authorized,
        protocol: socket.getProtocol(),
      };
      socket.end();
      resolve(answer);
    });
    socket.once('error', reject);
  });
}

const fingerprint = (leaf: Leaf) => new crypto.X509Certificate(leaf.certificatePem).fingerprint256;

describe.skipIf(!openssl.path)('HTTPS listener with the certificate chosen per SNI name', () => {
  let ca: TestCa;
  let database: Database;
  let app: App;
  let https: HttpsListener;
  let httpBase: string;
  let certificates: CertificateService;
  const leaves: Record<string, Leaf> = {};
  const ids: Record<string, string> = {};

  const store = async (name: string, leaf: Leaf) => {
    leaves[name] = leaf;
    const created = await certificates.upload(systemActor(), {
      name,
      certificatePem: leaf.certificatePem,
      privateKeyPem: leaf.privateKeyPem,
    });
    ids[name] = created.id;
  };

  beforeAll(async () => {
    ca = new TestCa();
    database = await openTestDatabase();
    const httpsPort = await freePort();
    const config = testConfig({ https: { port: httpsPort, defaultCertificate: 'fallback', redirect: true } });
    app = await buildServer({ config, database, masterKey: crypto.randomBytes(32), logger: false });
    httpBase = await app.listen({ port: 0, host: '127.0.0.1' });
    certificates = new CertificateService(app.deps);
    await store('exact', ca.leaf(['app.example.test']));
    await store('wildcard', ca.leaf(['*.example.test']));
    await store('fallback', ca.leaf(['fallback.example.test']));
    https = await listenHttps(app, database, {
      port: httpsPort,
      host: '127.0.0.1',
      defaultCertificate: config.https.defaultCertificate,
    });
  });
  afterAll(async () => {
    await https?.close();
    await app?.close();
    await database?.close();
    ca?.cleanup();
  });

  it('serves the certificate that carries the exact name, before a wildcard that also matches', async () => {
    const answer = await handshake(https.port, 'app.example.test', ca.caPem);
    expect(answer).toMatchObject({ fingerprint256: fingerprint(leaves.exact!), authorized: true });
  });

  it('falls back to the wildcard certificate one level up', async () => {
    const answer = await handshake(https.port, 'other.example.test', ca.caPem);
    expect(answer).toMatchObject({ fingerprint256: fingerprint(leaves.wildcard!), authorized: true });
  });

  it('does not stretch a wildcard over two levels: the default answers instead', async () => {
    const answer = await handshake(https.port, 'a.b.example.test', ca.caPem);
    expect(answer.fingerprint256).toBe(fingerprint(leaves.fallback!));
  });

  it('serves the configured default for a name no certificate carries', async () => {
    const answer = await handshake(https.port, 'unknown.test', ca.caPem);
    expect(answer.fingerprint256).toBe(fingerprint(leaves.fallback!));
  });

  it('serves the configured default to a client that sends no SNI name', async () => {
    const answer = await handshake(https.port, undefined, ca.caPem);
    expect(answer.fingerprint256).toBe(fingerprint(leaves.fallback!));
  });

  it('serves a replaced certificate from the next handshake on, without a restart', async () => {
    await store('replaceable', ca.leaf(['replace.example.test']));
    await eventually(
      async () =>
        (await handshake(https.port, 'replace.example.test', ca.caPem)).fingerprint256 ===
        fingerprint(leaves.replaceable!),
      'the new certificate to be served',
    );
    const next = ca.leaf(['replace.example.test']);
    await certificates.replace(systemActor(), ids.replaceable!, {
      certificatePem: next.certificatePem,
      privateKeyPem: next.privateKeyPem,
    });
    await eventually(
      async () =>
        (await handshake(https.port, 'replace.example.test', ca.caPem)).fingerprint256 === fingerprint(next),
      'the replaced certificate to be served',
    );
  });

  it('stops serving a deleted certificate', async () => {
    await store('deletable', ca.leaf(['gone.elsewhere.test']));
    await eventually(
      async () =>
        (await handshake(https.port, 'gone.elsewhere.test', ca.caPem)).fingerprint256 ===
        fingerprint(leaves.deletable!),
      'the new certificate to be served',
    );
    await certificates.remove(systemActor(), ids.deletable!);
    await eventually(
      async () =>
        (await handshake(https.port, 'gone.elsewhere.test', ca.caPem)).fingerprint256 ===
        fingerprint(leaves.fallback!),
      'the default to be served instead',
    );
  });

  it('negotiates TLS 1.2 or later and refuses TLS 1.1', async () => {
    expect((await handshake(https.port, 'app.example.test', ca.caPem)).protocol).toMatch(/^TLSv1\.[23]$/);
    await expect(
      handshake(https.port, 'app.example.test', ca.caPem, { minVersion: 'TLSv1', maxVersion: 'TLSv1.1' }),
    ).rejects.toThrow();
  });

  it('serves the same app over HTTPS, with HSTS', async () => {
    const agent = new Agent({ connect: { ca: ca.caPem, servername: 'app.example.test' } });
    const response = await request(`https://127.0.0.1:${https.port}/healthz`, { dispatcher: agent });
    expect(response.statusCode).toBe(200);
    expect(response.headers['strict-transport-security']).toBe('max-age=31536000');
    await response.body.dump();
    await agent.close();
  });

  it('redirects plain HTTP to HTTPS on the same host and path, without HSTS', async () => {
    const response = await request(`${httpBase}/api/ssl-certificates?page=2`, {
      headers: { host: 'app.example.test' },
    });
    expect(response.statusCode).toBe(308);
    expect(response.headers.location).toBe(
      `https://app.example.test:${https.port}/api/ssl-certificates?page=2`,
    );
    expect(response.headers['strict-transport-security']).toBeUndefined();
    await response.body.dump();
  });

  it('keeps ACME HTTP-01 challenges on plain HTTP', async () => {
    const response = await request(`${httpBase}/.well-known/acme-challenge/some-token`);
    expect(response.statusCode).toBe(404);
    await response.body.dump();
  });
});
