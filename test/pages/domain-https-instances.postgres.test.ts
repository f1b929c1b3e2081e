import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TestCa } from '../certificates/tls-material.js';
import { openssl } from '../services/openssl-pki.js';
import { createDatabase } from '../services/postgres.js';
import { type ServeProcess, startServeProcess } from '../support/cli.js';
import { eventually } from '../support/eventually.js';
import { requestOverHttps } from '../support/https-client.js';
import { uniqueSlug } from './helpers.js';
import { type KnotZone, knotBinaries, startKnotZone } from './knot-dns.js';

const { skipReason } = knotBinaries();
if (skipReason) console.warn(`skipping custom domain certificates across processes: ${skipReason}`);

/**
 * Two `infragate serve` processes on one PostgreSQL, each with its own TLS listener on a free port
 * (`HTTPS_PORT=0`): a certificate chosen for a domain through one is served by the other.
 */
describe.skipIf(skipReason || !openssl.path)(
  'certificates chosen for custom domains, across processes',
  () => {
    let knot: KnotZone;
    let testCa: TestCa;
    let dataDir: string;
    let servers: [ServeProcess, ServeProcess];
    let adminToken: string;

    beforeAll(async () => {
      knot = await startKnotZone('example.test');
      testCa = new TestCa();
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-domain-tls-'));
      const env = {
        DATABASE_URL: await createDatabase(inject('postgresUrl')),
        INFRAGATE_DATA_DIR: dataDir,
        INFRAGATE_MASTER_KEY: crypto.randomBytes(32).toString('hex'),
        INFRAGATE_PAGES_DNS_SERVERS: knot.server,
        HTTPS_PORT: '0',
      };
      const first = await startServeProcess(env);
      servers = [first, await startServeProcess(env)];
      adminToken = first.firstToken!;
    });
    afterAll(async () => {
      for (const server of servers ?? []) await server.stop();
      await knot?.stop();
      testCa?.cleanup();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    });

    const httpsPortOf = (server: ServeProcess) => Number(/HTTPS on port (\d+)/.exec(server.output())![1]);

    it('serves a newly chosen certificate through the other process from its next handshake on', async () => {
      const [changing, serving] = servers;
      const call = (method: string, url: string, body?: unknown) =>
        changing.call(method, url, adminToken, body);
      const hostname = `${uniqueSlug('www')}.example.test`;
      const upload = async (names: string[]) => {
        const leaf = testCa.leaf(names);
        const { body } = await call('POST', '/api/ssl-certificates/upload', {
          name: uniqueSlug('cert'),
          certificatePem: leaf.certificatePem,
          privateKeyPem: leaf.privateKeyPem,
        });
        return {
          id: body.data.id as string,
          fingerprint: new crypto.X509Certificate(leaf.certificatePem).fingerprint256,
        };
      };
      const first = await upload(['*.example.test']);
      const second = await upload(['*.example.test']);
      const slug = uniqueSlug();
      const project = (await call('POST', '/api/pages', { name: slug, slug })).body.data;
      const domain = (
        await call('POST', `/api/pages/${project.id}/domains`, { hostname, certificateId: first.id })
      ).body.data;
      await knot.addTxt(domain.verification.dnsName, domain.verification.dnsValue);
      const verified = await call('POST', `/api/pages/${project.id}/domains/${domain.id}/verify?method=dns`);
      expect(verified.body.data).toMatchObject({ status: 'verified' });

      const served = async () =>
        (await requestOverHttps(httpsPortOf(serving), hostname, '/healthz', { ca: testCa.caPem }))
          .fingerprint256;
      await eventually(async () => (await served()) === first.fingerprint, 'the first choice to be served');
      await call('PATCH', `/api/pages/${project.id}/domains/${domain.id}`, { certificateId: second.id });
      await eventually(async () => (await served()) === second.fingerprint, 'the second choice to be served');
    });
  },
);
