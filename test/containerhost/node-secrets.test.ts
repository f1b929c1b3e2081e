import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containerhostNodes } from '../../src/db/schema/index.js';
import { auditEventsAbout } from '../support/audit-events.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import {
  type RawCapture,
  type SshCapture,
  sshPrivateKey,
  startRawCapture,
  startSshCapture,
} from './engine-peers.js';

// A node's TLS material, SSH key and registry credentials serve the engine they were given for: an
// endpoint that moves elsewhere loses those the change does not give again, and the answer says so.
const PEM = (label: string, body: string) => `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----\n`;
const CA = PEM('CERTIFICATE', 'dGVzdC1jYS1vZi10aGUtZmlyc3QtZW5naW5l');
const CERT = PEM('CERTIFICATE', 'Y2xpZW50LWNlcnQtb2YtdGhlLWZpcnN0LWVuZ2luZQ==');
const KEY = PEM('PRIVATE KEY', 'Y2xpZW50LWtleS1vZi10aGUtZmlyc3QtZW5naW5l');
const TLS = { tlsCa: CA, tlsCert: CERT, tlsKey: KEY };
const NODES = '/api/containerhost/nodes';

let gateway: TestGateway;
let capture: RawCapture;
let sshCapture: SshCapture;
let counter = 0;

beforeAll(async () => {
  [gateway, capture, sshCapture] = await Promise.all([
    startTestGateway({ dockerTimeoutMs: 2000 }),
    startRawCapture(),
    startSshCapture(),
  ]);
});
afterAll(async () => {
  await Promise.all([gateway.close(), capture.close(), sshCapture.close()]);
});

async function createNode(body: Record<string, unknown>) {
  const result = await gateway.call('POST', NODES, { body: { name: `secrets-${++counter}`, ...body } });
  expect(result.status, result.text).toBe(201);
  return result.body.data as { id: string };
}

const change = (nodeId: string, body: Record<string, unknown>) =>
  gateway.call('PATCH', `${NODES}/${nodeId}`, { body });

async function storedRow(nodeId: string) {
  const [row] = await gateway.deps.db
    .select()
    .from(containerhostNodes)
    .where(eq(containerhostNodes.id, nodeId));
  return row!;
}

describe('a tcp:// node whose endpoint moves', () => {
  it('drops its TLS material, says so, and records it', async () => {
    const node = await createNode({ endpoint: 'tcp://10.30.0.1:2376', ...TLS });
    const result = await change(node.id, { endpoint: `tcp://127.0.0.1:${capture.port}` });
    expect(result.status, result.text).toBe(200);
    expect(result.body.droppedSecrets).toEqual(['tlsCa', 'tlsCert', 'tlsKey']);
    expect(result.body.data.tls).toEqual({ ca: false, cert: false, key: false });
    expect(await storedRow(node.id)).toMatchObject({
      tlsCaSealed: null,
      tlsCertSealed: null,
      tlsKeySealed: null,
    });
    const updated = (await auditEventsAbout(gateway, node.id)).find(
      (event) => event.action === 'containerhost.node.updated',
    );
    expect(updated!.metadata).toMatchObject({ droppedSecrets: ['tlsCa', 'tlsCert', 'tlsKey'] });
  });

  it('reaches the new engine without them: a plain HTTP request, no TLS handshake', async () => {
    const node = await createNode({ endpoint: 'tcp://10.30.0.2:2376', ...TLS });
    await change(node.id, { endpoint: `tcp://127.0.0.1:${capture.port}` });
    const before = capture.connections().length;
    expect((await gateway.call('GET', `${NODES}/${node.id}`)).status).toBe(422);
    const sent = capture.connections().slice(before);
    expect(sent.length).toBeGreaterThan(0);
    for (const bytes of sent) expect(bytes.toString('latin1')).toMatch(/^GET \S*\/version HTTP\/1\.1\r\n/);
  });

  it('keeps what the change gives again, and drops only the rest', async () => {
    const node = await createNode({ endpoint: 'tcp://10.30.0.3:2376', ...TLS });
    const result = await change(node.id, { endpoint: 'tcp://10.30.0.4:2376', tlsCert: CERT, tlsKey: KEY });
    expect(result.body.droppedSecrets).toEqual(['tlsCa']);
    expect(result.body.data.tls).toEqual({ ca: false, cert: true, key: true });
  });

  it('lets a move to another transport through, its material gone with the old destination', async () => {
    const node = await createNode({ endpoint: 'tcp://10.30.0.5:2376', ...TLS });
    const result = await change(node.id, { endpoint: 'unix:///run/infragate-test/moved.sock' });
    expect(result.status, result.text).toBe(200);
    expect(result.body.droppedSecrets).toEqual(['tlsCa', 'tlsCert', 'tlsKey']);
  });
});

describe('a change that does not move the destination', () => {
  it('keeps the secrets and answers no droppedSecrets: a rename, or the same endpoint spelt otherwise', async () => {
    const node = await createNode({ endpoint: 'tcp://engine.example:2376', ...TLS });
    for (const body of [{ name: `renamed-${counter}` }, { endpoint: 'tcp://ENGINE.example.:2376' }]) {
      const result = await change(node.id, body);
      expect(result.status, result.text).toBe(200);
      expect(result.body).not.toHaveProperty('droppedSecrets');
      expect(result.body.data.tls).toEqual({ ca: true, cert: true, key: true });
    }
  });

  it('keeps the SSH key when only the ssh user changes: the key goes to the same host', async () => {
    const node = await createNode({ endpoint: 'ssh://deploy@10.30.0.6', sshPrivateKey: sshPrivateKey() });
    const result = await change(node.id, { endpoint: 'ssh://ops@10.30.0.6' });
    expect(result.body).not.toHaveProperty('droppedSecrets');
    expect(result.body.data.hasSshKey).toBe(true);
  });
});

describe('an ssh:// node whose endpoint moves', () => {
  it('drops its SSH key and no longer offers one to the new host', async () => {
    const node = await createNode({ endpoint: 'ssh://deploy@10.30.0.7', sshPrivateKey: sshPrivateKey() });
    const result = await change(node.id, { endpoint: `ssh://deploy@127.0.0.1:${sshCapture.port}` });
    expect(result.body.droppedSecrets).toEqual(['sshPrivateKey']);
    expect(result.body.data.hasSshKey).toBe(false);
    expect((await storedRow(node.id)).sshKeySealed).toBeNull();

    expect((await gateway.call('GET', `${NODES}/${node.id}`)).status).toBe(422);
    expect(sshCapture.authMethods().length).toBeGreaterThan(0);
    expect(sshCapture.authMethods()).not.toContain('publickey');
  });
});

describe('registry credentials of a node whose endpoint moves', () => {
  const registry = '127.0.0.1:5999';
  const password = 'registry-password-of-the-first-engine';

  it('are dropped: the new engine would receive them with every pull', async () => {
    const node = await createNode({ endpoint: 'tcp://10.30.0.8:2375' });
    const saved = await gateway.call('PUT', `${NODES}/${node.id}/registry-credentials/${registry}`, {
      body: { username: 'puller', password },
    });
    expect(saved.status, saved.text).toBe(200);

    const result = await change(node.id, { endpoint: `tcp://127.0.0.1:${capture.port}` });
    expect(result.body.droppedSecrets).toEqual(['registryCredentials']);
    const listed = await gateway.call('GET', `${NODES}/${node.id}/registry-credentials`);
    expect(listed.body.data).toEqual([]);
    const updated = (await auditEventsAbout(gateway, node.id)).find(
      (event) => event.action === 'containerhost.node.updated',
    );
    expect(updated!.metadata).toMatchObject({ droppedRegistryCredentials: [registry] });

    const before = capture.connections().length;
    await gateway.call('POST', `${NODES}/${node.id}/images/pull`, { body: { image: `${registry}/app:1` } });
    const sent = capture
      .connections()
      .slice(before)
      .map((bytes) => bytes.toString('latin1'));
    expect(sent.join('')).toMatch(/^POST \S*\/images\/create/);
    for (const request of sent) {
      const header = /^x-registry-auth: (\S+)\r$/im.exec(request)?.[1] ?? '';
      expect(Buffer.from(header, 'base64url').toString()).not.toContain(password);
    }
  });

  it('stay when the node is only renamed', async () => {
    const node = await createNode({ endpoint: 'tcp://10.30.0.9:2375' });
    await gateway.call('PUT', `${NODES}/${node.id}/registry-credentials/${registry}`, {
      body: { username: 'puller', password },
    });
    expect((await change(node.id, { name: `kept-${counter}` })).body).not.toHaveProperty('droppedSecrets');
    const listed = await gateway.call('GET', `${NODES}/${node.id}/registry-credentials`);
    expect(listed.body.data.map((item: { registry: string }) => item.registry)).toEqual([registry]);
  });
});
