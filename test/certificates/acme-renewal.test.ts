import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../src/db/schema/index.js';
import { ACME_JOB } from '../../src/modules/certificates/acme/worker.js';
import { makeTestPki, openssl, type TestPki } from '../services/openssl-pki.js';
import { expectError } from '../support/expectations.js';
import { type AcmeHarness, pebble, startAcmeHarness } from './acme-harness.js';

const LIFETIME_SECONDS = 20;

describe.skipIf(!pebble.ok || !openssl.path)('ACME renewal (Pebble issuing 20-second certificates)', () => {
  let acme: AcmeHarness;
  let pki: TestPki;
  beforeAll(async () => {
    pki = makeTestPki();
    acme = await startAcmeHarness({ certificateValiditySeconds: LIFETIME_SECONDS });
  });
  afterAll(async () => {
    await acme?.close();
    pki?.cleanup();
  });

  const issue = async (domain: string) => {
    const ordered = await acme.order({ domains: [domain], challenge: 'http-01' });
    return acme.until(ordered.body.data.id, (record) => record.status === 'valid', 'issue');
  };

  it('schedules the renewal of a short-lived certificate at 2/3 of its lifetime', async () => {
    const record = await issue('schedule.renew.test');
    const notBefore = new Date(record.notBefore).getTime();
    const notAfter = new Date(record.notAfter).getTime();
    expect(new Date(record.nextRenewalAt).getTime()).toBe(Math.trunc(notAfter - (notAfter - notBefore) / 3));
  });

  it('renews by itself under the same id, audited as renewed', { timeout: 60_000 }, async () => {
    const first = await issue('auto.renew.test');
    const renewed = await acme.until(
      first.id,
      (record) => record.status === 'valid' && record.fingerprintSha256 !== first.fingerprintSha256,
      'the renewal',
      45_000,
    );
    expect(new Date(renewed.notAfter).getTime()).toBeGreaterThan(new Date(first.notAfter).getTime());
    const events = await acme.gateway.deps.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.targetId, first.id), eq(auditEvents.action, 'certificates.certificate.renewed')),
      );
    expect(events.length).toBeGreaterThanOrEqual(1);
  });

  it('keeps the certificate while a renewal fails, showing renewing with the reason, then renews', {
    timeout: 60_000,
  }, async () => {
    const first = await issue('flaky.renew.test');
    await acme.pebble.challtestsrv.addA('flaky.renew.test', ['127.0.0.2']);
    // A renewal already under way when the challenge broke may still succeed (a slow issue leaves the
    // first one due at once): the certificate kept is the one served last before the failure.
    let served = first.fingerprintSha256;
    const failing = await acme.until(
      first.id,
      (record) => {
        if (record.status === 'valid' && record.lastError === null) served = record.fingerprintSha256;
        return record.lastError !== null;
      },
      'a failed renewal',
      45_000,
    );
    expect(failing.status).toBe('renewing');
    expect(failing.fingerprintSha256).toBe(served);
    expect(failing.lastError).toMatch(/urn:ietf:params:acme:error:connection/);
    await acme.pebble.challtestsrv.clearA('flaky.renew.test');
    const renewed = await acme.until(first.id, (record) => record.status === 'valid', 'the renewal', 45_000);
    expect(renewed.lastError).toBeNull();
    expect(renewed.fingerprintSha256).not.toBe(served);
  });

  it('renews on request with 202', async () => {
    const first = await issue('manual.renew.test');
    const result = await acme.gateway.call('POST', `/api/ssl-certificates/${first.id}/acme/renew`);
    expect(result.status).toBe(202);
    await acme.until(
      first.id,
      (record) => record.fingerprintSha256 !== first.fingerprintSha256,
      'the renewal',
    );
  });

  it('never touches an uploaded certificate, even an expired one', async () => {
    const uploaded = await acme.gateway.call('POST', '/api/ssl-certificates/upload', {
      body: {
        name: 'uploaded-expired',
        certificatePem: pki.expiredLeaf.certificatePem,
        privateKeyPem: pki.expiredLeaf.keyPem,
        allowExpired: true,
      },
    });
    await acme.gateway.deps.jobs.runNow(ACME_JOB);
    const record = (await acme.gateway.call('GET', `/api/ssl-certificates/${uploaded.body.data.id}`)).body
      .data;
    expect(record).toMatchObject({ source: 'uploaded', status: 'valid', nextRenewalAt: null, acme: null });
    expect(record.fingerprintSha256).toBe(uploaded.body.data.fingerprintSha256);
    expectError(
      await acme.gateway.call('POST', `/api/ssl-certificates/${record.id}/acme/renew`),
      409,
      'CONFLICT',
    );
  });
});
