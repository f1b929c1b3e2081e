import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/raw.js';
import { auditEvents } from '../../src/db/schema/index.js';
import { CertificateService } from '../../src/modules/certificates/certificates.js';
import { KEY_PASSPHRASE, makeTestPki, openssl, type TestPki } from '../services/openssl-pki.js';
import { auditEventsAbout } from '../support/audit-events.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { LogCapture } from '../support/log-capture.js';
import { describeResourceScopes } from '../support/resource-scopes.js';

const BASE = '/api/ssl-certificates';
const MISSING = '00000000-0000-4000-8000-000000000000';

describe.skipIf(!openssl.path)('SSL certificate storage', () => {
  let gateway: TestGateway;
  let pki: TestPki;
  const logs = new LogCapture();
  let counter = 0;

  beforeAll(async () => {
    pki = makeTestPki();
    gateway = await startTestGateway({ logLevel: 'trace' }, { logStream: logs });
  });
  afterAll(async () => {
    await gateway?.close();
    pki?.cleanup();
  });

  const rsaBody = () => ({
    name: `rsa-${++counter}`,
    certificatePem: pki.rsaLeaf.certificatePem,
    privateKeyPem: pki.rsaLeaf.keyPem,
    chainPem: pki.chainPem,
  });
  const create = async (body: Record<string, unknown> = rsaBody()) => {
    const result = await gateway.call('POST', `${BASE}/upload`, { body });
    expect(result.status).toBe(201);
    return result.body.data as { id: string; name: string; fingerprintSha256: string };
  };

  describe('access', () => {
    const routes = (id: string) =>
      [
        ['POST', `${BASE}/upload`],
        ['GET', BASE],
        ['GET', `${BASE}/${id}`],
        ['PUT', `${BASE}/${id}`],
        ['DELETE', `${BASE}/${id}`],
        ['GET', `${BASE}/${id}/download`],
      ] as const;

    it('refuses every route without a token with 401', async () => {
      const { id } = await create();
      for (const [method, url] of routes(id)) {
        expectError(await gateway.call(method, url, { token: null, body: {} }), 401, 'UNAUTHORIZED');
      }
    });

    it('refuses every route to a token without a certificates scope with 403', async () => {
      const { id } = await create();
      const token = await gateway.tokenWithScopes([]);
      for (const [method, url] of routes(id)) {
        expectError(await gateway.call(method, url, { token, body: rsaBody() }), 403, 'FORBIDDEN');
      }
    });

    it('lets certificates:view read and download but not upload, replace or delete', async () => {
      const { id } = await create();
      const token = await gateway.tokenWithScopes(['certificates:view']);
      expect((await gateway.call('GET', BASE, { token })).status).toBe(200);
      expect((await gateway.call('GET', `${BASE}/${id}`, { token })).status).toBe(200);
      expect((await gateway.call('GET', `${BASE}/${id}/download`, { token })).status).toBe(200);
      expectError(await gateway.call('POST', `${BASE}/upload`, { token, body: rsaBody() }), 403, 'FORBIDDEN');
      expectError(await gateway.call('PUT', `${BASE}/${id}`, { token, body: rsaBody() }), 403, 'FORBIDDEN');
      expectError(await gateway.call('DELETE', `${BASE}/${id}`, { token }), 403, 'FORBIDDEN');
    });

    it('lets certificates:manage upload', async () => {
      const token = await gateway.tokenWithScopes(['certificates:manage']);
      expect((await gateway.call('POST', `${BASE}/upload`, { token, body: rsaBody() })).status).toBe(201);
    });
  });

  describe('the private key at rest', () => {
    it('is sealed: the database row holds no PEM key, only an AES-256-GCM envelope', async () => {
      const { id } = await create({
        name: `sealed-${++counter}`,
        certificatePem: pki.rsaLeaf.certificatePem,
        privateKeyPem: pki.rsaLeaf.encryptedPkcs8KeyPem,
        privateKeyPassphrase: KEY_PASSPHRASE,
      });
      const [row] = await queryRows<Record<string, unknown>>(
        gateway.deps.db,
        sql`select * from ssl_certificates where id = ${id}`,
      );
      const stored = JSON.stringify(row);
      expect(stored).not.toContain('PRIVATE KEY');
      expect(stored).not.toContain(KEY_PASSPHRASE);
      expect(stored).not.toContain(pki.rsaLeaf.keyPem.split('\n')[1]);
      expect(row!.private_key_sealed).toMatch(/^v1\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+$/);
    });

    it('is sealed with a fresh nonce per record', async () => {
      const first = await create();
      const second = await create();
      const rows = await queryRows<{ private_key_sealed: string }>(
        gateway.deps.db,
        sql`select private_key_sealed from ssl_certificates where id in (${first.id}, ${second.id})`,
      );
      const nonces = rows.map((row) => row.private_key_sealed.split('.')[1]);
      expect(new Set(nonces).size).toBe(2);
    });

    it('opens back to the same key, in PKCS#8, for the gateway itself', async () => {
      const { id } = await create({
        name: `pkcs1-${++counter}`,
        certificatePem: pki.rsaLeaf.certificatePem,
        privateKeyPem: pki.rsaLeaf.pkcs1KeyPem,
      });
      const service = new CertificateService(gateway.deps);
      expect(await service.privateKeyPem(id)).toBe(pki.rsaLeaf.keyPem);
    });

    it('never reaches an audit event or a log line', async () => {
      await create({
        name: `logged-${++counter}`,
        certificatePem: pki.rsaLeaf.certificatePem,
        privateKeyPem: pki.rsaLeaf.encryptedPkcs8KeyPem,
        privateKeyPassphrase: KEY_PASSPHRASE,
      });
      const events = JSON.stringify(await gateway.deps.db.select().from(auditEvents));
      expect(events).toContain('certificates.certificate.uploaded');
      expect(logs.text).toContain('/api/ssl-certificates/upload');
      for (const text of [events, logs.text]) {
        expect(text).not.toContain('PRIVATE KEY');
        expect(text).not.toContain(KEY_PASSPHRASE);
      }
    });
  });

  describe('upload', () => {
    it('refuses a duplicate name with 409 CONFLICT and keeps the first', async () => {
      const first = await create();
      const again = await gateway.call('POST', `${BASE}/upload`, {
        body: {
          ...rsaBody(),
          name: first.name,
          certificatePem: pki.ecLeaf.certificatePem,
          privateKeyPem: pki.ecLeaf.keyPem,
        },
      });
      expectError(again, 409, 'CONFLICT');
      expect(again.body.details).toMatchObject({ reason: 'CERTIFICATE_NAME_TAKEN', name: first.name });
      expect((await gateway.call('GET', `${BASE}/${first.id}`)).body.data.keyType).toBe('rsa');
    });

    it('trims the name before checking it is free', async () => {
      const first = await create();
      expectError(
        await gateway.call('POST', `${BASE}/upload`, { body: { ...rsaBody(), name: ` ${first.name} ` } }),
        409,
        'CONFLICT',
      );
    });

    it('records an audit event with the fingerprint', async () => {
      const { id, fingerprintSha256 } = await create();
      const [event] = await auditEventsAbout(gateway, id);
      expect(event).toMatchObject({
        action: 'certificates.certificate.uploaded',
        targetType: 'ssl_certificate',
      });
      expect(event!.metadata).toMatchObject({ fingerprintSha256 });
    });
  });

  describe('GET /api/ssl-certificates', () => {
    it('pages through certificates by name', async () => {
      const prefix = `page-${++counter}`;
      for (const suffix of ['a', 'b', 'c']) await create({ ...rsaBody(), name: `${prefix}-${suffix}` });
      const first = await gateway.call('GET', BASE, { query: { q: prefix, limit: 2 } });
      expect(first.status).toBe(200);
      expect(first.body.data.map((c: { name: string }) => c.name)).toEqual([`${prefix}-a`, `${prefix}-b`]);
      expect(first.body.pagination).toEqual({ page: 1, limit: 2, total: 3, totalPages: 2 });
      const second = await gateway.call('GET', BASE, { query: { q: prefix, limit: 2, page: 2 } });
      expect(second.body.data.map((c: { name: string }) => c.name)).toEqual([`${prefix}-c`]);
    });

    it('filters with expiringWithinDays, expired certificates included', async () => {
      const prefix = `expiry-${++counter}`;
      await create({ ...rsaBody(), name: `${prefix}-current` }); // 90 days
      await create({
        name: `${prefix}-expired`,
        certificatePem: pki.expiredLeaf.certificatePem,
        privateKeyPem: pki.expiredLeaf.keyPem,
        allowExpired: true,
      });
      const names = async (days: number) =>
        (await gateway.call('GET', BASE, { query: { q: prefix, expiringWithinDays: days } })).body.data.map(
          (c: { name: string }) => c.name,
        );
      expect(await names(30)).toEqual([`${prefix}-expired`]);
      expect(await names(120)).toEqual([`${prefix}-current`, `${prefix}-expired`]);
    });

    it('sorts by notAfter on request', async () => {
      const prefix = `sort-${++counter}`;
      await create({ ...rsaBody(), name: `${prefix}-a` });
      await create({
        name: `${prefix}-b`,
        certificatePem: pki.expiredLeaf.certificatePem,
        privateKeyPem: pki.expiredLeaf.keyPem,
        allowExpired: true,
      });
      const result = await gateway.call('GET', BASE, { query: { q: prefix, sort: 'notAfter' } });
      expect(result.body.data.map((c: { name: string }) => c.name)).toEqual([`${prefix}-b`, `${prefix}-a`]);
    });

    it('refuses a bad expiringWithinDays, page or limit with 400', async () => {
      expectValidationError(await gateway.call('GET', BASE, { query: { expiringWithinDays: -1 } }), [
        'expiringWithinDays',
      ]);
      expectValidationError(await gateway.call('GET', BASE, { query: { expiringWithinDays: 'soon' } }), [
        'expiringWithinDays',
      ]);
      expectValidationError(await gateway.call('GET', BASE, { query: { limit: 101 } }), ['limit']);
      expectValidationError(await gateway.call('GET', BASE, { query: { page: 0 } }), ['page']);
    });
  });

  describe('GET /api/ssl-certificates/:id', () => {
    it('answers the metadata without any PEM', async () => {
      const { id, name } = await create();
      const result = await gateway.call('GET', `${BASE}/${id}`);
      expect(result.status).toBe(200);
      expect(result.body.data).toMatchObject({ id, name, keyType: 'rsa', chainLength: 2 });
      expect(result.text).not.toContain('-----BEGIN');
    });

    it('answers 404 for an unknown id and 400 for a malformed one', async () => {
      expectError(await gateway.call('GET', `${BASE}/${MISSING}`), 404, 'NOT_FOUND');
      expectValidationError(await gateway.call('GET', `${BASE}/not-a-uuid`), ['id']);
    });
  });

  describe('GET /api/ssl-certificates/:id/download', () => {
    it('answers the certificate then the chain as a PEM file, without the key', async () => {
      const { id, name } = await create();
      const result = await gateway.call('GET', `${BASE}/${id}/download`);
      expect(result.status).toBe(200);
      expect(result.headers['content-type']).toContain('application/x-pem-file');
      expect(result.headers['content-disposition']).toBe(`attachment; filename="${name}.pem"`);
      expect(result.text).toBe(pki.rsaLeaf.certificatePem + pki.chainPem);
      expect(result.text).not.toContain('PRIVATE KEY');
    });

    it('answers the parts as JSON with format=json', async () => {
      const { id } = await create();
      const result = await gateway.call('GET', `${BASE}/${id}/download`, { query: { format: 'json' } });
      expect(result.body.data).toMatchObject({
        id,
        certificatePem: pki.rsaLeaf.certificatePem,
        chainPem: pki.chainPem,
        fullChainPem: pki.rsaLeaf.certificatePem + pki.chainPem,
      });
      expect(result.text).not.toContain('PRIVATE KEY');
    });

    it('answers 404 for an unknown id', async () => {
      expectError(await gateway.call('GET', `${BASE}/${MISSING}/download`), 404, 'NOT_FOUND');
    });
  });

  describe('PUT /api/ssl-certificates/:id (renewal)', () => {
    it('replaces certificate, key and chain under the same id and name, and audits both fingerprints', async () => {
      const old = await create();
      const result = await gateway.call('PUT', `${BASE}/${old.id}`, {
        body: {
          certificatePem: pki.ecLeaf.certificatePem,
          privateKeyPem: pki.ecLeaf.keyPem,
          chainPem: pki.intermediate.certificatePem,
        },
      });
      expect(result.status).toBe(200);
      expect(result.body.data).toMatchObject({ id: old.id, name: old.name, keyType: 'ec', chainLength: 1 });
      expect(result.body.data.fingerprintSha256).not.toBe(old.fingerprintSha256);
      const download = await gateway.call('GET', `${BASE}/${old.id}/download`);
      expect(download.text).toBe(pki.ecLeaf.certificatePem + pki.intermediate.certificatePem);
      const [event] = await gateway.deps.db
        .select()
        .from(auditEvents)
        .where(
          sql`${auditEvents.targetId} = ${old.id} and ${auditEvents.action} = 'certificates.certificate.replaced'`,
        );
      expect(event!.metadata).toMatchObject({
        previousFingerprintSha256: old.fingerprintSha256,
        fingerprintSha256: result.body.data.fingerprintSha256,
      });
    });

    it('keeps the old certificate when the new material is refused', async () => {
      const old = await create();
      const refused = await gateway.call('PUT', `${BASE}/${old.id}`, {
        body: { certificatePem: pki.ecLeaf.certificatePem, privateKeyPem: pki.rsaLeaf.keyPem },
      });
      expect(refused.body.details.reason).toBe('KEY_MISMATCH');
      expect((await gateway.call('GET', `${BASE}/${old.id}`)).body.data.fingerprintSha256).toBe(
        old.fingerprintSha256,
      );
    });

    it('validates the body and answers 404 for an unknown id', async () => {
      const { id } = await create();
      expectValidationError(await gateway.call('PUT', `${BASE}/${id}`, { body: {} }), ['certificatePem']);
      expectError(
        await gateway.call('PUT', `${BASE}/${MISSING}`, {
          body: { certificatePem: pki.ecLeaf.certificatePem, privateKeyPem: pki.ecLeaf.keyPem },
        }),
        404,
        'NOT_FOUND',
      );
    });
  });

  describe('DELETE /api/ssl-certificates/:id', () => {
    it('deletes the certificate, frees its name and records an audit event', async () => {
      const { id, name } = await create();
      const result = await gateway.call('DELETE', `${BASE}/${id}`);
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ success: true });
      expectError(await gateway.call('GET', `${BASE}/${id}`), 404, 'NOT_FOUND');
      const actions = (await auditEventsAbout(gateway, id)).map((event) => event.action);
      expect(actions).toContain('certificates.certificate.deleted');
      await create({ ...rsaBody(), name });
    });

    it('answers 404 for an unknown id', async () => {
      expectError(await gateway.call('DELETE', `${BASE}/${MISSING}`), 404, 'NOT_FOUND');
    });
  });

  describeResourceScopes(() => gateway, {
    area: 'certificates',
    list: BASE,
    createAt: `${BASE}/upload`,
    read: (id) => `${BASE}/${id}`,
    create: async () => (await create()).id,
  });
});
