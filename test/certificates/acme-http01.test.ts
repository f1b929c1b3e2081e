import { X509Certificate } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acmeAccounts, auditEvents } from '../../src/db/schema/index.js';
import { type AcmeHarness, pebble, startAcmeHarness } from './acme-harness.js';

describe.skipIf(!pebble.ok)('ACME ordering with HTTP-01 (against Pebble)', () => {
  let acme: AcmeHarness;
  beforeAll(async () => {
    acme = await startAcmeHarness();
  });
  afterAll(async () => {
    await acme?.close();
  });

  const issue = async (domains: string[]) => {
    const ordered = await acme.order({ domains, challenge: 'http-01' });
    expect(ordered.status).toBe(202);
    return acme.until(ordered.body.data.id, (record) => record.status !== 'pending', 'the order to end');
  };

  it('answers 202 with the certificate pending, before anything is issued', async () => {
    const result = await acme.order({ domains: ['pending.example.test'], challenge: 'http-01' });
    expect(result.status).toBe(202);
    expect(result.body.data).toMatchObject({
      source: 'acme',
      status: 'pending',
      subject: null,
      notAfter: null,
      lastError: null,
      acme: {
        domains: ['pending.example.test'],
        challenge: 'http-01',
        accountEmail: 'ops@example.test',
        directoryUrl: acme.pebble.directoryUrl,
        dnsProviderId: null,
        dnsRecords: [],
        awaitingConfirmation: false,
      },
    });
  });

  it('issues a certificate for every requested name, answered at /.well-known/acme-challenge/ by the gateway', async () => {
    const record = await issue(['www.example.test', 'api.example.test']);
    expect(record).toMatchObject({ status: 'valid', source: 'acme', lastError: null, expired: false });
    expect([...record.sans].sort()).toEqual(['api.example.test', 'www.example.test']);
    expect(record.chainLength).toBeGreaterThanOrEqual(1);
  });

  it('stores a chain that links up to the root Pebble issues from', async () => {
    const record = await issue(['chain.example.test']);
    const download = await acme.gateway.call('GET', `/api/ssl-certificates/${record.id}/download`, {
      query: { format: 'json' },
    });
    const chain = download.body.data.chainPem.match(
      /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g,
    );
    const leaf = new X509Certificate(download.body.data.certificatePem);
    const last = new X509Certificate(chain.at(-1));
    const root = new X509Certificate(await acme.pebble.issuingRootPem());
    expect(leaf.checkIssued(new X509Certificate(chain[0]))).toBe(true);
    expect(last.checkIssued(root) && last.verify(root.publicKey)).toBe(true);
  });

  it('schedules the renewal 30 days before expiry for a long-lived certificate', async () => {
    const record = await issue(['schedule.example.test']);
    const expected = new Date(record.notAfter).getTime() - 30 * 86_400_000;
    expect(new Date(record.nextRenewalAt).getTime()).toBe(expected);
  });

  it('records the issue in the audit trail, without the key', async () => {
    const record = await issue(['audit.example.test']);
    const events = await acme.gateway.deps.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.targetId, record.id));
    expect(events.map((event) => event.action)).toEqual(
      expect.arrayContaining(['certificates.acme.ordered', 'certificates.certificate.issued']),
    );
    expect(JSON.stringify(events)).not.toContain('PRIVATE KEY');
  });

  it('reuses one ACME account per directory and email, its key sealed at rest', async () => {
    await issue(['reuse-1.example.test']);
    await issue(['reuse-2.example.test']);
    const accounts = await acme.gateway.deps.db
      .select()
      .from(acmeAccounts)
      .where(eq(acmeAccounts.directoryUrl, acme.pebble.directoryUrl));
    expect(accounts).toHaveLength(1);
    expect(accounts[0]!.accountUrl).toMatch(/^https:\/\//);
    expect(accounts[0]!.accountKeySealed).toMatch(/^v1\./);
    expect(accounts[0]!.accountKeySealed).not.toContain('PRIVATE KEY');
  });

  it("reports a failed challenge with Pebble's reason in lastError", async () => {
    // The CA resolves this name to an address where nothing listens.
    await acme.pebble.challtestsrv.addA('unreachable.example.test', ['127.0.0.2']);
    const record = await issue(['unreachable.example.test']);
    expect(record.status).toBe('failed');
    expect(record.lastError).toContain('unreachable.example.test');
    expect(record.lastError).toMatch(/urn:ietf:params:acme:error:connection/);
    expect(record.subject).toBeNull();
  });

  it('retries a failed order after a backoff that nextRenewalAt shows', async () => {
    await acme.pebble.challtestsrv.addA('retry.example.test', ['127.0.0.2']);
    const record = await issue(['retry.example.test']);
    expect(record.status).toBe('failed');
    expect(new Date(record.nextRenewalAt).getTime()).toBeGreaterThan(new Date(record.updatedAt).getTime());
    await acme.pebble.challtestsrv.clearA('retry.example.test');
    const retried = await acme.until(
      record.id,
      (current) => current.status === 'valid',
      'the retry to issue',
    );
    expect(retried.lastError).toBeNull();
  });
});
