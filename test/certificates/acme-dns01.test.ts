import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type KnotServer, knotBinary, startKnot } from '../services/knot.js';
import { expectError } from '../support/expectations.js';
import { type AcmeHarness, pebble, startAcmeHarness } from './acme-harness.js';

const knot = knotBinary();
if (knot.skipReason) console.warn(`skipping the RFC 2136 dns-01 tests: ${knot.skipReason}`);

describe.skipIf(!pebble.ok || !knot.path)(
  'ACME dns-01 through an RFC 2136 provider (Pebble asks Knot DNS)',
  () => {
    let dns: KnotServer;
    let acme: AcmeHarness;
    let providerId: string;
    beforeAll(async () => {
      dns = await startKnot('example.test');
      acme = await startAcmeHarness({ dnsServer: `127.0.0.1:${dns.port}` });
      const created = await acme.gateway.call('POST', '/api/ssl-certificates/dns-providers', {
        body: {
          name: 'knot',
          kind: 'rfc2136',
          server: '127.0.0.1',
          port: dns.port,
          zone: dns.zone,
          tsigKeyName: dns.tsigKeyName,
          tsigAlgorithm: dns.tsigAlgorithm,
          tsigSecret: dns.tsigSecret,
        },
      });
      expect(created.status).toBe(201);
      providerId = created.body.data.id;
    });
    afterAll(async () => {
      await acme?.close();
      await dns?.stop();
    });

    it('issues a certificate for a name and a wildcard, publishing the TXT records by signed DNS updates', async () => {
      const ordered = await acme.order({
        domains: ['dns.example.test', '*.wild.example.test'],
        challenge: 'dns-01',
        dnsProviderId: providerId,
      });
      expect(ordered.status).toBe(202);
      const record = await acme.until(
        ordered.body.data.id,
        (current) => current.status !== 'pending',
        'issue',
      );
      expect(record).toMatchObject({ status: 'valid', lastError: null });
      expect([...record.sans].sort()).toEqual(['*.wild.example.test', 'dns.example.test']);
      expect(record.acme).toMatchObject({
        dnsProviderId: providerId,
        dnsRecords: [],
        awaitingConfirmation: false,
      });
    });

    it('withdraws the TXT records once the order is over', async () => {
      const ordered = await acme.order({
        domains: ['clean.example.test'],
        challenge: 'dns-01',
        dnsProviderId: providerId,
      });
      await acme.until(ordered.body.data.id, (current) => current.status === 'valid', 'issue');
      expect(await dns.txt('_acme-challenge.clean.example.test')).toEqual([]);
    });

    it('refuses to delete a provider that an ACME certificate uses, with 409', async () => {
      expectError(
        await acme.gateway.call('DELETE', `/api/ssl-certificates/dns-providers/${providerId}`),
        409,
        'CONFLICT',
      );
    });
  },
);

describe.skipIf(!pebble.ok)('ACME dns-01 in manual mode (the test plays the operator)', () => {
  let acme: AcmeHarness;
  beforeAll(async () => {
    acme = await startAcmeHarness();
  });
  afterAll(async () => {
    await acme?.close();
  });

  const awaitingRecords = async (domain: string) => {
    const ordered = await acme.order({ domains: [domain], challenge: 'dns-01' });
    expect(ordered.status).toBe(202);
    return acme.until(
      ordered.body.data.id,
      (current) => current.acme.awaitingConfirmation,
      'the TXT records',
    );
  };

  it('shows the TXT record to create and waits for the confirmation', async () => {
    const record = await awaitingRecords('manual.example.test');
    expect(record.status).toBe('pending');
    expect(record.acme.dnsRecords).toEqual([
      {
        name: '_acme-challenge.manual.example.test',
        type: 'TXT',
        value: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      },
    ]);
  });

  it('issues once the operator created the record and confirmed', async () => {
    const record = await awaitingRecords('confirmed.example.test');
    const [txt] = record.acme.dnsRecords;
    await acme.pebble.challtestsrv.setTxt(txt.name, txt.value);
    const confirmed = await acme.gateway.call('POST', `/api/ssl-certificates/${record.id}/acme/confirm`);
    expect(confirmed.status).toBe(200);
    const issued = await acme.until(record.id, (current) => current.status !== 'pending', 'issue');
    expect(issued).toMatchObject({ status: 'valid', sans: ['confirmed.example.test'] });
    expect(issued.acme).toMatchObject({ dnsRecords: [], awaitingConfirmation: false });
  });

  it("fails with Pebble's reason when the confirmed record is not there", async () => {
    const record = await awaitingRecords('missing.example.test');
    await acme.gateway.call('POST', `/api/ssl-certificates/${record.id}/acme/confirm`);
    const failed = await acme.until(record.id, (current) => current.status === 'failed', 'the failure');
    expect(failed.lastError).toContain('missing.example.test');
    expect(failed.lastError).toMatch(/urn:ietf:params:acme:error:/);
  });

  it('answers 409 to a confirmation when nothing waits for one', async () => {
    const ordered = await acme.order({ domains: ['http.example.test'], challenge: 'http-01' });
    expectError(
      await acme.gateway.call('POST', `/api/ssl-certificates/${ordered.body.data.id}/acme/confirm`),
      409,
      'CONFLICT',
    );
  });
});
