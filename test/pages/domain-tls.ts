import crypto from 'node:crypto';
import { expect } from 'vitest';
import { type Config, loadConfig } from '../../src/config.js';
import { type HttpsListener, listenHttps } from '../../src/modules/certificates/tls/https-listener.js';
import type { TestCa } from '../certificates/tls-material.js';
import type { Pebble } from '../services/pebble.js';
import type { TestGateway } from '../support/gateway.js';
import { pagesConfig, uniqueSlug } from './helpers.js';

/**
 * Settings of a gateway whose custom domains are checked through pebble-challtestsrv (every name
 * resolves to 127.0.0.1) on `httpPort`, the port Pebble validates http-01 on too; its ACME worker
 * trusts Pebble's directory, runs every 100 ms and retries after 1 s.
 */
export function pebbleDomainConfig(
  ca: Pebble,
  httpPort: number,
  acmeEmail: string | undefined,
): Pick<Config, 'acme' | 'pages'> {
  return {
    acme: {
      ...loadConfig({}).acme,
      directoryUrl: ca.directoryUrl,
      trustedCaFile: ca.tlsCaFile,
      intervalMs: 100,
      retryBaseSeconds: 1,
    },
    pages: pagesConfig({ dnsServers: [ca.dnsServer], verifyHttpPort: httpPort, acmeEmail }),
  };
}

/** Uploads a certificate for `names` signed by `ca` through the API: its id and SHA-256 fingerprint. */
export async function uploadCertificate(gateway: TestGateway, ca: TestCa, names: string[]) {
  const leaf = ca.leaf(names);
  const result = await gateway.call('POST', '/api/ssl-certificates/upload', {
    body: {
      name: uniqueSlug('cert'),
      certificatePem: leaf.certificatePem,
      privateKeyPem: leaf.privateKeyPem,
    },
  });
  expect(result.status, result.text).toBe(201);
  return {
    id: result.body.data.id as string,
    fingerprint: new crypto.X509Certificate(leaf.certificatePem).fingerprint256,
  };
}

/** Listens on `httpPort` (where domain checks and the CA connect) and opens the TLS listener on a free port. */
export async function listenHttpAndHttps(gateway: TestGateway, httpPort: number): Promise<HttpsListener> {
  await gateway.app.listen({ port: httpPort, host: '127.0.0.1' });
  return listenHttps(gateway.app, gateway.deps, {
    port: 0,
    host: '127.0.0.1',
    defaultCertificate: undefined,
  });
}
