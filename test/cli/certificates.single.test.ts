import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AcmeHarness, pebble, startAcmeHarness } from '../certificates/acme-harness.js';
import { type ApiCli, apiCli } from '../support/cli.js';

describe.skipIf(Boolean(pebble.skipReason))('infragate certificates acme (against Pebble)', () => {
  let acme: AcmeHarness;
  let cli: ApiCli;
  beforeAll(async () => {
    acme = await startAcmeHarness();
    const { port } = acme.gateway.app.server.address() as AddressInfo;
    cli = apiCli(`http://127.0.0.1:${port}`, acme.gateway.adminToken);
  });
  afterAll(() => acme?.close());

  const order = (name: string, domain: string, challenge: string, ...more: string[]) => [
    'certificates',
    'acme',
    'order',
    '--name',
    name,
    '--domain',
    domain,
    '--challenge',
    challenge,
    '--email',
    'ops@example.test',
    '--directory-url',
    acme.pebble.directoryUrl,
    ...more,
  ];

  it('orders over http-01, waits until it is valid, and renews it now', async () => {
    const issued = await cli.json([...order('web', 'web.example.test', 'http-01'), '--wait']);
    expect(issued).toMatchObject({ name: 'web', status: 'valid', sans: ['web.example.test'] });
    const renewed = await cli.json(['certificates', 'acme', 'renew', 'web', '--wait']);
    expect(renewed).toMatchObject({ id: issued.id, status: 'valid' });
    expect(renewed.serialNumber).not.toBe(issued.serialNumber);
  });

  it('downloads the issued certificate with its chain, to stdout or to a file with -o', async () => {
    const printed = await cli.run(['certificates', 'download', 'web']);
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stdout.match(/-----BEGIN CERTIFICATE-----/g)?.length).toBeGreaterThanOrEqual(2);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-cli-cert-')), 'web.pem');
    expect(await cli.json(['certificates', 'download', 'web', '-o', file])).toEqual({
      file,
      bytes: Buffer.byteLength(printed.stdout),
    });
    expect(fs.readFileSync(file, 'utf8')).toBe(printed.stdout);
  });

  it('stops at the TXT records of a manual dns-01 order, and issues once they are confirmed', async () => {
    const waiting = await cli.json([...order('manual', 'manual.example.test', 'dns-01'), '--wait']);
    expect(waiting.acme).toMatchObject({ awaitingConfirmation: true });
    const [txt] = waiting.acme.dnsRecords;
    expect(txt.name).toBe('_acme-challenge.manual.example.test');
    const shown = await cli.terminal(['certificates', 'get', 'manual']);
    expect(shown.stdout).toContain(txt.value);
    await acme.pebble.challtestsrv.setTxt(txt.name, txt.value);
    const issued = await cli.json(['certificates', 'acme', 'confirm', 'manual', '--wait']);
    expect(issued).toMatchObject({ status: 'valid', sans: ['manual.example.test'] });
  });

  it("exits 1 with the CA's reason when the order fails", async () => {
    await cli.json([...order('missing', 'missing.example.test', 'dns-01'), '--wait']);
    const result = await cli.run(['certificates', 'acme', 'confirm', 'missing', '--wait']);
    expect(result.code).toBe(1);
    const failed = JSON.parse(result.stdout);
    expect(failed.status).toBe('failed');
    expect(failed.lastError).toMatch(/urn:ietf:params:acme:error:/);
  });

  it('adds a DNS provider with its TSIG key from standard input, orders through it by name, and deletes it', async () => {
    const created = await cli.json(
      [
        'certificates',
        'dns-providers',
        'create',
        '--name',
        'knot',
        '--server',
        '127.0.0.1',
        '--port',
        '5353',
        '--zone',
        'example.test',
        '--tsig-key-name',
        'acme-key',
        '--tsig-secret-stdin',
      ],
      `${Buffer.from('a TSIG key of 32 bytes for tests').toString('base64')}\n`,
    );
    expect(created).toMatchObject({
      name: 'knot',
      kind: 'rfc2136',
      port: 5353,
      tsigAlgorithm: 'hmac-sha256',
    });
    expect(created).not.toHaveProperty('tsigSecret');
    expect((await cli.json(['certificates', 'dns-providers', 'get', 'knot'])).id).toBe(created.id);
    const ordered = await cli.json([
      ...order('through-knot', 'knot.example.test', 'dns-01'),
      '--dns-provider',
      'knot',
    ]);
    expect(ordered.acme.dnsProviderId).toBe(created.id);
    expect((await cli.run(['certificates', 'delete', 'through-knot'])).code).toBe(0);
    const listed = await cli.json(['certificates', 'dns-providers', 'ls']);
    expect(listed.map((row: { id: string }) => row.id)).toEqual([created.id]);
    expect((await cli.run(['certificates', 'dns-providers', 'delete', 'knot'])).code).toBe(0);
  });
});
