import crypto from 'node:crypto';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { systemActor } from '../../src/core/actor.js';
import type { App } from '../../src/core/app.js';
import { type Database, openDatabase } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { CertificateService } from '../../src/modules/certificates/certificates.js';
import { type HttpsListener, listenHttps } from '../../src/modules/certificates/tls/https-listener.js';
import { buildServer } from '../../src/server.js';
import { openssl } from '../services/openssl-pki.js';
import { createDatabase } from '../services/postgres.js';
import { eventually } from '../support/eventually.js';
import { testConfig } from '../support/gateway.js';
import { TestCa } from './tls-material.js';

const servedFingerprint = (port: number, servername: string, ca: string) =>
  new Promise<string>((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, servername, ca });
    socket.once('secureConnect', () => {
      resolve(socket.getPeerCertificate().fingerprint256);
      socket.end();
    });
    socket.once('error', reject);
  });

describe.skipIf(!openssl.path)('HTTPS on several gateway processes sharing one PostgreSQL', () => {
  let ca: TestCa;
  const databases: Database[] = [];
  const apps: App[] = [];
  let https: HttpsListener;

  beforeAll(async () => {
    ca = new TestCa();
    const url = await createDatabase(inject('postgresUrl'));
    // Two pools on one database, as two gateway processes open them.
    databases.push(await openDatabase({ url }), await openDatabase({ url }));
    await migrate(databases[0]!.db);
    const masterKey = crypto.randomBytes(32);
    for (const database of databases) {
      const app = await buildServer({ config: testConfig(), database, masterKey, logger: false });
      await app.ready();
      apps.push(app);
    }
    https = await listenHttps(apps[1]!, databases[1]!, {
      port: 0,
      host: '127.0.0.1',
      defaultCertificate: undefined,
    });
  });
  afterAll(async () => {
    await https?.close();
    for (const app of apps) await app.close();
    for (const database of databases) await database.close();
    ca?.cleanup();
  });

  it('serves a certificate replaced through another process from the next handshake on', async () => {
    const certificates = new CertificateService(apps[0]!.deps);
    const first = ca.leaf(['shared.example.test']);
    const { id } = await certificates.upload(systemActor(), { name: 'shared', ...first });
    await eventually(
      async () =>
        (await servedFingerprint(https.port, 'shared.example.test', ca.caPem)) ===
        new crypto.X509Certificate(first.certificatePem).fingerprint256,
      'the stored certificate to be served',
    );
    const next = ca.leaf(['shared.example.test']);
    await certificates.replace(systemActor(), id, next);
    const expected = new crypto.X509Certificate(next.certificatePem).fingerprint256;
    await eventually(
      async () => (await servedFingerprint(https.port, 'shared.example.test', ca.caPem)) === expected,
      'the replaced certificate to be served by the other process',
    );
    expect(await servedFingerprint(https.port, 'shared.example.test', ca.caPem)).toBe(expected);
  });
});
