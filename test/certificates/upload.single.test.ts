import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_PASSPHRASE, makeTestPki, openssl, type TestPki } from '../services/openssl-pki.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const URL = '/api/ssl-certificates/upload';

describe.skipIf(!openssl.path)(`POST ${URL} (material made by openssl)`, () => {
  let gateway: TestGateway;
  let pki: TestPki;
  let counter = 0;
  const name = () => `cert-${++counter}`;

  beforeAll(async () => {
    pki = makeTestPki();
    gateway = await startTestGateway();
  });
  afterAll(async () => {
    await gateway?.close();
    pki?.cleanup();
  });

  const upload = (body: Record<string, unknown>) =>
    gateway.call('POST', URL, { body: { name: name(), ...body } });
  const storedCount = async () => (await gateway.call('GET', '/api/ssl-certificates')).body.pagination.total;

  describe('accepts', () => {
    it('an RSA 2048 certificate with a PKCS#8 key and its chain, answering 201 with the parsed metadata', async () => {
      const result = await upload({
        certificatePem: pki.rsaLeaf.certificatePem,
        privateKeyPem: pki.rsaLeaf.keyPem,
        chainPem: pki.chainPem,
      });
      expect(result.status).toBe(201);
      const parsed = new X509Certificate(pki.rsaLeaf.certificatePem);
      expect(result.body.data).toMatchObject({
        subject: 'O=Infragate Tests, CN=rsa.example.test',
        issuer: 'O=Infragate Tests, CN=Infragate Test Intermediate CA',
        serialNumber: parsed.serialNumber,
        sans: ['rsa.example.test', 'www.example.test', '10.0.0.1'],
        notBefore: new Date(parsed.validFrom).toISOString(),
        notAfter: new Date(parsed.validTo).toISOString(),
        fingerprintSha256: parsed.fingerprint256,
        keyType: 'rsa',
        keyBits: 2048,
        curve: null,
        chainLength: 2,
        expired: false,
      });
      expect(result.body.data.expiresInDays).toBeGreaterThanOrEqual(88);
      expect(result.body.data.expiresInDays).toBeLessThanOrEqual(90);
      expect(result.body.data.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(typeof result.body.data.createdAt).toBe('string');
    });

    it('never answers the private key', async () => {
      const result = await upload({
        certificatePem: pki.rsaLeaf.certificatePem,
        privateKeyPem: pki.rsaLeaf.keyPem,
      });
      expect(result.status).toBe(201);
      expect(result.text).not.toContain('PRIVATE KEY');
      expect(Object.keys(result.body.data)).not.toContain('privateKeyPem');
    });

    it('an RSA key in PKCS#1 form', async () => {
      const result = await upload({
        certificatePem: pki.rsaLeaf.certificatePem,
        privateKeyPem: pki.rsaLeaf.pkcs1KeyPem,
      });
      expect(result.status).toBe(201);
    });

    it('an encrypted PKCS#8 key with its passphrase', async () => {
      const result = await upload({
        certificatePem: pki.rsaLeaf.certificatePem,
        privateKeyPem: pki.rsaLeaf.encryptedPkcs8KeyPem,
        privateKeyPassphrase: KEY_PASSPHRASE,
      });
      expect(result.status).toBe(201);
    });

    it('an encrypted PKCS#1 key (Proc-Type header) with its passphrase', async () => {
      const result = await upload({
        certificatePem: pki.rsaLeaf.certificatePem,
        privateKeyPem: pki.rsaLeaf.encryptedPkcs1KeyPem,
        privateKeyPassphrase: KEY_PASSPHRASE,
      });
      expect(result.status).toBe(201);
    });

    it('an EC P-256 certificate with a SEC1 key that comes with its EC PARAMETERS block', async () => {
      const result = await upload({
        certificatePem: pki.ecLeaf.certificatePem,
        privateKeyPem: pki.ecLeaf.keyPem,
      });
      expect(result.status).toBe(201);
      expect(result.body.data).toMatchObject({ keyType: 'ec', curve: 'P-256', keyBits: 256, chainLength: 0 });
    });

    it('an EC P-256 key in PKCS#8 form', async () => {
      const result = await upload({
        certificatePem: pki.ecLeaf.certificatePem,
        privateKeyPem: pki.ecLeaf.pkcs8KeyPem,
      });
      expect(result.status).toBe(201);
    });

    it('an Ed25519 certificate and key', async () => {
      const result = await upload({
        certificatePem: pki.ed25519Leaf.certificatePem,
        privateKeyPem: pki.ed25519Leaf.keyPem,
        chainPem: pki.intermediate.certificatePem,
      });
      expect(result.status).toBe(201);
      expect(result.body.data).toMatchObject({ keyType: 'ed25519', curve: 'Ed25519', chainLength: 1 });
    });

    it('an expired certificate when allowExpired is true, reporting it expired', async () => {
      const result = await upload({
        certificatePem: pki.expiredLeaf.certificatePem,
        privateKeyPem: pki.expiredLeaf.keyPem,
        allowExpired: true,
      });
      expect(result.status).toBe(201);
      expect(result.body.data.expired).toBe(true);
      expect(result.body.data.expiresInDays).toBeLessThan(0);
      expect(result.body.data.notAfter).toBe('2021-01-01T00:00:00.000Z');
    });

    it('a not-yet-valid certificate when allowNotYetValid is true', async () => {
      const result = await upload({
        certificatePem: pki.futureLeaf.certificatePem,
        privateKeyPem: pki.futureLeaf.keyPem,
        allowNotYetValid: true,
      });
      expect(result.status).toBe(201);
    });

    it('PEM with Windows line endings and text around the blocks', async () => {
      const result = await upload({
        certificatePem: `subject=CN=rsa\r\n${pki.rsaLeaf.certificatePem.replace(/\n/g, '\r\n')}`,
        privateKeyPem: pki.rsaLeaf.keyPem.replace(/\n/g, '\r\n'),
      });
      expect(result.status).toBe(201);
    });
  });

  describe('refuses with 400 VALIDATION_ERROR on the field', () => {
    it('a certificatePem that is not PEM', async () => {
      expectValidationError(await upload({ certificatePem: 'hello', privateKeyPem: pki.rsaLeaf.keyPem }), [
        'certificatePem',
      ]);
    });

    it('a certificatePem whose base64 is not a certificate', async () => {
      const broken = '-----BEGIN CERTIFICATE-----\nTm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n';
      expectValidationError(await upload({ certificatePem: broken, privateKeyPem: pki.rsaLeaf.keyPem }), [
        'certificatePem',
      ]);
    });

    it('several certificates in certificatePem', async () => {
      const result = await upload({
        certificatePem: pki.rsaLeaf.certificatePem + pki.intermediate.certificatePem,
        privateKeyPem: pki.rsaLeaf.keyPem,
      });
      expectValidationError(result, ['certificatePem']);
      expect(result.body.details[0].message).toContain('2 certificates');
    });

    it('a private key pasted into certificatePem', async () => {
      expectValidationError(
        await upload({ certificatePem: pki.rsaLeaf.keyPem, privateKeyPem: pki.rsaLeaf.keyPem }),
        ['certificatePem'],
      );
    });

    it('a privateKeyPem that is not PEM', async () => {
      expectValidationError(
        await upload({ certificatePem: pki.rsaLeaf.certificatePem, privateKeyPem: 'not a key' }),
        ['privateKeyPem'],
      );
    });

    it('a certificate pasted into privateKeyPem', async () => {
      expectValidationError(
        await upload({
          certificatePem: pki.rsaLeaf.certificatePem,
          privateKeyPem: pki.rsaLeaf.certificatePem,
        }),
        ['privateKeyPem'],
      );
    });

    it('an encrypted key without a passphrase', async () => {
      const result = await upload({
        certificatePem: pki.rsaLeaf.certificatePem,
        privateKeyPem: pki.rsaLeaf.encryptedPkcs8KeyPem,
      });
      expectValidationError(result, ['privateKeyPassphrase']);
      expect(result.body.details[0].message).toContain('encrypted');
    });

    it('an encrypted PKCS#1 key without a passphrase', async () => {
      expectValidationError(
        await upload({
          certificatePem: pki.rsaLeaf.certificatePem,
          privateKeyPem: pki.rsaLeaf.encryptedPkcs1KeyPem,
        }),
        ['privateKeyPassphrase'],
      );
    });

    it('an encrypted key with the wrong passphrase', async () => {
      expectValidationError(
        await upload({
          certificatePem: pki.rsaLeaf.certificatePem,
          privateKeyPem: pki.rsaLeaf.encryptedPkcs8KeyPem,
          privateKeyPassphrase: 'wrong',
        }),
        ['privateKeyPassphrase'],
      );
    });

    it('a chainPem that is not PEM', async () => {
      expectValidationError(
        await upload({
          certificatePem: pki.rsaLeaf.certificatePem,
          privateKeyPem: pki.rsaLeaf.keyPem,
          chainPem: 'x',
        }),
        ['chainPem'],
      );
    });

    it('a chainPem that holds a private key', async () => {
      expectValidationError(
        await upload({
          certificatePem: pki.rsaLeaf.certificatePem,
          privateKeyPem: pki.rsaLeaf.keyPem,
          chainPem: pki.intermediate.certificatePem + pki.intermediate.keyPem,
        }),
        ['chainPem'],
      );
    });

    it('a name that is empty, blank or longer than 255 characters', async () => {
      const body = { certificatePem: pki.rsaLeaf.certificatePem, privateKeyPem: pki.rsaLeaf.keyPem };
      expectValidationError(await gateway.call('POST', URL, { body: { ...body, name: '' } }), ['name']);
      expectValidationError(await gateway.call('POST', URL, { body: { ...body, name: '   ' } }), ['name']);
      expectValidationError(await gateway.call('POST', URL, { body: { ...body, name: 'n'.repeat(256) } }), [
        'name',
      ]);
    });

    it('a body without name, certificatePem or privateKeyPem', async () => {
      const result = await gateway.call('POST', URL, { body: {} });
      expectValidationError(result, ['name']);
      expectValidationError(result, ['certificatePem']);
      expectValidationError(result, ['privateKeyPem']);
    });
  });

  describe('refuses with 422 UNPROCESSABLE_ENTITY', () => {
    it('a key that does not belong to the certificate', async () => {
      const result = await upload({
        certificatePem: pki.rsaLeaf.certificatePem,
        privateKeyPem: pki.otherRsaKeyPem,
      });
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(result.body.details.reason).toBe('KEY_MISMATCH');
      expect(result.body.details.explanation).toContain('does not belong');
    });

    it('a key of another type than the certificate', async () => {
      const result = await upload({
        certificatePem: pki.rsaLeaf.certificatePem,
        privateKeyPem: pki.ecLeaf.keyPem,
      });
      expect(result.body.details.reason).toBe('KEY_MISMATCH');
    });

    it('a chain that does not link to the leaf, naming the first chain certificate', async () => {
      const result = await upload({
        certificatePem: pki.rsaLeaf.certificatePem,
        privateKeyPem: pki.rsaLeaf.keyPem,
        chainPem: pki.strangerCa.certificatePem,
      });
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(result.body.details.reason).toBe('CHAIN_BROKEN');
      expect(result.body.details.link).toMatchObject({
        position: 1,
        subject: 'O=Infragate Tests, CN=Unrelated Test CA',
      });
      expect(result.body.details.explanation).toContain('chain certificate 1');
      expect(result.body.details.explanation).toContain('the leaf certificate');
    });

    it('a chain broken after its first link, naming the second chain certificate', async () => {
      const result = await upload({
        certificatePem: pki.rsaLeaf.certificatePem,
        privateKeyPem: pki.rsaLeaf.keyPem,
        chainPem: pki.intermediate.certificatePem + pki.strangerCa.certificatePem,
      });
      expect(result.body.details.reason).toBe('CHAIN_BROKEN');
      expect(result.body.details.link.position).toBe(2);
    });

    it('a chain in the wrong order, saying where the issuer was found', async () => {
      const result = await upload({
        certificatePem: pki.rsaLeaf.certificatePem,
        privateKeyPem: pki.rsaLeaf.keyPem,
        chainPem: pki.root.certificatePem + pki.intermediate.certificatePem,
      });
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(result.body.details.reason).toBe('CHAIN_ORDER');
      expect(result.body.details.link).toMatchObject({ position: 1, issuerFoundAt: 2 });
    });

    it('an expired certificate without allowExpired', async () => {
      const result = await upload({
        certificatePem: pki.expiredLeaf.certificatePem,
        privateKeyPem: pki.expiredLeaf.keyPem,
      });
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(result.body.details).toMatchObject({
        reason: 'CERTIFICATE_EXPIRED',
        notAfter: '2021-01-01T00:00:00.000Z',
      });
      expect(result.body.details.explanation).toContain('allowExpired');
    });

    it('a certificate that is not valid yet', async () => {
      const result = await upload({
        certificatePem: pki.futureLeaf.certificatePem,
        privateKeyPem: pki.futureLeaf.keyPem,
      });
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(result.body.details.reason).toBe('CERTIFICATE_NOT_YET_VALID');
    });

    it('a chain with an expired intermediate without allowExpired, and accepts it with allowExpired', async () => {
      const body = {
        certificatePem: pki.leafOfExpiredIntermediate.certificatePem,
        privateKeyPem: pki.leafOfExpiredIntermediate.keyPem,
        chainPem: pki.expiredIntermediate.certificatePem,
      };
      const refused = await upload(body);
      expect(refused.body.details).toMatchObject({ reason: 'CHAIN_CERTIFICATE_EXPIRED', position: 1 });
      expect((await upload({ ...body, allowExpired: true })).status).toBe(201);
    });
  });

  it('stores nothing for any of the refused uploads', async () => {
    const before = await storedCount();
    const refused = [
      { certificatePem: 'x', privateKeyPem: pki.rsaLeaf.keyPem },
      { certificatePem: pki.rsaLeaf.certificatePem, privateKeyPem: pki.rsaLeaf.encryptedPkcs8KeyPem },
      { certificatePem: pki.rsaLeaf.certificatePem, privateKeyPem: pki.otherRsaKeyPem },
      {
        certificatePem: pki.rsaLeaf.certificatePem,
        privateKeyPem: pki.rsaLeaf.keyPem,
        chainPem: pki.root.certificatePem,
      },
      { certificatePem: pki.expiredLeaf.certificatePem, privateKeyPem: pki.expiredLeaf.keyPem },
    ];
    for (const body of refused) expect((await upload(body)).status).toBeGreaterThanOrEqual(400);
    expect(await storedCount()).toBe(before);
  });
});
