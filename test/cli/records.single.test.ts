import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestPki, openssl, type TestPki } from '../services/openssl-pki.js';
import { type SiemSink, startSiemSink } from '../services/siem-sink.js';
import { type ApiCli, gatewayWithCli } from '../support/cli.js';
import type { TestGateway } from '../support/gateway.js';

let gateway: TestGateway;
let cli: ApiCli;
beforeAll(async () => {
  ({ gateway, cli } = await gatewayWithCli());
});
afterAll(() => gateway.close());

const ids = (rows: { id: string }[]) => rows.map((row) => row.id);

describe.skipIf(Boolean(openssl.skipReason))('infragate certificates', () => {
  let pki: TestPki;
  const file = (name: string, text: string) => {
    const target = path.join(pki.dir, name);
    fs.writeFileSync(target, text);
    return target;
  };
  beforeAll(() => {
    pki = makeTestPki();
  });
  afterAll(() => pki?.cleanup());

  it('uploads from PEM files, lists, downloads the full chain and deletes', async () => {
    const uploaded = await cli.json([
      'certificates',
      'upload',
      '--name',
      'www',
      '--cert',
      file('leaf.pem', pki.rsaLeaf.certificatePem),
      '--key',
      file('leaf.key', pki.rsaLeaf.keyPem),
      '--chain',
      file('chain.pem', pki.chainPem),
    ]);
    expect(uploaded).toMatchObject({ name: 'www', keyType: 'rsa', chainLength: 2 });
    expect(uploaded).not.toHaveProperty('privateKeyPem');
    expect(ids(await cli.json(['certificates', 'ls', '--expiring-within-days', '36500']))).toEqual([
      uploaded.id,
    ]);
    const target = path.join(pki.dir, 'fullchain.pem');
    expect((await cli.run(['certificates', 'download', 'www', '--output', target])).code).toBe(0);
    expect(fs.readFileSync(target, 'utf8')).toContain(pki.rsaLeaf.certificatePem.trim());
    expect((await cli.run(['certificates', 'delete', 'www'])).code).toBe(0);
    expect(await cli.json(['certificates', 'ls'])).toEqual([]);
  });

  it('reads an encrypted key passphrase from stdin, and reports a refused key with its reason', async () => {
    const encrypted = await cli.run(
      [
        'certificates',
        'upload',
        '--name',
        'enc',
        '--passphrase-stdin',
        '--cert',
        file('enc.pem', pki.rsaLeaf.certificatePem),
        '--key',
        file('enc.key', pki.rsaLeaf.encryptedPkcs8KeyPem),
      ],
      'correct horse battery staple\n',
    );
    expect(encrypted.code).toBe(0);
    const mismatch = await cli.run([
      'certificates',
      'upload',
      '--name',
      'bad',
      '--cert',
      file('bad.pem', pki.rsaLeaf.certificatePem),
      '--key',
      file('bad.key', pki.otherRsaKeyPem),
    ]);
    expect(mismatch.code).toBe(1);
    expect(mismatch.stderr).toContain('422 UNPROCESSABLE_ENTITY');
    expect(mismatch.stderr).toContain('KEY_MISMATCH');
  });
});

describe('infragate nodes', () => {
  it('creates a storage node, finds it by name, updates and deletes it', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-cli-node-'));
    const node = await cli.json(['nodes', 'create', '--name', 'store', '--root-path', root]);
    expect(node.rootPath).toBe(root);
    expect((await cli.json(['nodes', 'get', 'store'])).id).toBe(node.id);
    expect((await cli.json(['nodes', 'update', 'store', '--name', 'archive'])).name).toBe('archive');
    expect(ids(await cli.json(['nodes', 'ls', '--q', 'arch']))).toEqual([node.id]);
    expect((await cli.run(['nodes', 'delete', 'archive'])).code).toBe(0);
    expect(await cli.json(['nodes', 'ls'])).toEqual([]);
  });
});

describe('infragate audit', () => {
  it('lists events filtered by action, shows one, and verifies the chain', async () => {
    await cli.json(['admin', 'groups', 'create', '--name', 'audited', '--scopes', '']);
    const events = await cli.json(['audit', 'events', 'ls', '--action', 'users.*']);
    expect(events[0]).toMatchObject({ action: 'users.group.created', actorEmail: 'admin@test' });
    expect((await cli.json(['audit', 'events', 'get', events[0].id])).hash).toBe(events[0].hash);
    expect(await cli.json(['audit', 'verify'])).toMatchObject({ valid: true });
  });
});

describe('infragate siem', () => {
  let sink: SiemSink;
  beforeAll(async () => {
    sink = await startSiemSink({ secret: 'a-webhook-secret-of-length' });
  });
  afterAll(() => sink?.stop());

  it('creates a webhook destination with its secret from stdin, tests it, lists deliveries and deletes it', async () => {
    const destination = await cli.json(
      [
        'siem',
        'destinations',
        'create',
        '--name',
        'soc',
        '--kind',
        'webhook',
        '--endpoint',
        sink.webhookUrl,
        '--secret-stdin',
        '--start-from',
        'beginning',
      ],
      'a-webhook-secret-of-length\n',
    );
    expect(destination).toMatchObject({ name: 'soc', kind: 'webhook', hasSecret: true });
    expect(destination).not.toHaveProperty('secret');
    expect(await cli.json(['siem', 'destinations', 'test', 'soc'])).toMatchObject({
      ok: true,
      httpStatus: 200,
    });
    expect(ids(await cli.json(['siem', 'destinations', 'ls', '--kind', 'webhook']))).toEqual([
      destination.id,
    ]);
    const deliveries = await cli.json(['siem', 'deliveries', 'ls', '--destination', 'soc']);
    for (const delivery of deliveries) expect(delivery.destinationId).toBe(destination.id);
    expect((await cli.json(['siem', 'destinations', 'delete', 'soc'])).id).toBe(destination.id);
  });

  it('requeue of a delivery that has not failed exits 1 with the reason', async () => {
    const destination = await cli.json(
      [
        'siem',
        'destinations',
        'create',
        '--name',
        'soc2',
        '--kind',
        'webhook',
        '--endpoint',
        sink.webhookUrl,
        '--secret-stdin',
        '--start-from',
        'beginning',
        '--flush-interval-ms',
        '0',
      ],
      'a-webhook-secret-of-length\n',
    );
    let deliveries: { id: string }[] = [];
    for (let attempt = 0; deliveries.length === 0 && attempt < 200; attempt++) {
      deliveries = await cli.json(['siem', 'deliveries', 'ls', '--destination', destination.id]);
      if (deliveries.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const result = await cli.run(['siem', 'deliveries', 'requeue', deliveries[0]!.id]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('409 CONFLICT');
    expect(result.stderr).toContain('DELIVERY_NOT_REQUEUEABLE');
  });
});
