import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

// Where an engine node reaches is its boundary: a grant on one node may rename it, not point it at
// another engine (a host's own socket least of all); local sockets are the operator's to allow.
const NODES = '/api/containerhost/nodes';
let counter = 0;
const uniqueName = () => `boundary-${++counter}`;

async function createNode(gateway: TestGateway, endpoint: string) {
  const result = await gateway.call('POST', NODES, { body: { name: uniqueName(), endpoint } });
  expect(result.status, result.text).toBe(201);
  return result.body.data as { id: string; name: string; endpoint: string };
}

describe('changing the endpoint of a node', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway();
  });
  afterAll(() => gateway.close());

  /** A PATCH by a caller holding `containerhost:manage` on this one node. */
  const changeAsNodeManager = async (nodeId: string, body: Record<string, unknown>) =>
    gateway.call('PATCH', `${NODES}/${nodeId}`, {
      token: await gateway.tokenWithScopes([`containerhost:manage:${nodeId}`]),
      body,
    });

  it('is refused to a manager of that one node, naming the field and the scope it needs', async () => {
    const node = await createNode(gateway, 'tcp://10.20.0.1:2376');
    const result = await changeAsNodeManager(node.id, { endpoint: 'unix:///var/run/docker.sock' });
    expectError(result, 403, 'FORBIDDEN');
    expect(result.body.details).toMatchObject({
      reason: 'BOUNDARY_CHANGE_NEEDS_AREA_SCOPE',
      requiredScope: 'containerhost:manage',
      fields: ['endpoint'],
    });
    expect((await gateway.call('GET', NODES, { query: { q: node.name } })).body.data[0].endpoint).toBe(
      'tcp://10.20.0.1:2376',
    );
  });

  it('is refused to that manager for an ssh user too, which logs in as someone else', async () => {
    const node = await createNode(gateway, 'ssh://deploy@10.20.0.2');
    const result = await changeAsNodeManager(node.id, { endpoint: 'ssh://root@10.20.0.2' });
    expectError(result, 403, 'FORBIDDEN');
  });

  it('leaves that manager free to rename the node and to send the endpoint it has', async () => {
    const node = await createNode(gateway, 'tcp://10.20.0.3:2376');
    const result = await changeAsNodeManager(node.id, {
      name: `${node.name}-renamed`,
      endpoint: ' tcp://10.20.0.3:2376 ',
    });
    expect(result.status, result.text).toBe(200);
    expect(result.body.data).toMatchObject({
      name: `${node.name}-renamed`,
      endpoint: 'tcp://10.20.0.3:2376',
    });
  });

  it('is allowed with containerhost:manage on the whole area', async () => {
    const node = await createNode(gateway, 'tcp://10.20.0.4:2376');
    const token = await gateway.tokenWithScopes(['containerhost:manage']);
    const result = await gateway.call('PATCH', `${NODES}/${node.id}`, {
      token,
      body: { endpoint: 'tcp://10.20.0.5:2376' },
    });
    expect(result.status, result.text).toBe(200);
    expect(result.body.data.endpoint).toBe('tcp://10.20.0.5:2376');
  });
});

describe('INFRAGATE_ENGINE_SOCKETS', () => {
  let gateway: TestGateway;
  let allowed: string;
  let elsewhere: string;
  beforeAll(async () => {
    allowed = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-sockets-')));
    elsewhere = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-other-sockets-')));
    gateway = await startTestGateway({ engineSockets: [allowed, path.join(elsewhere, 'listed.sock')] });
  });
  afterAll(async () => {
    await gateway.close();
    for (const dir of [allowed, elsewhere]) fs.rmSync(dir, { recursive: true, force: true });
  });

  const register = (endpoint: string) =>
    gateway.call('POST', NODES, { body: { name: uniqueName(), endpoint } });
  const expectSocketRefused = (result: Awaited<ReturnType<typeof register>>, socketPath: string) => {
    expectError(result, 422, 'UNPROCESSABLE_ENTITY');
    expect(result.body.details).toMatchObject({ reason: 'ENGINE_SOCKET_NOT_ALLOWED', socketPath });
    expect(result.body.details.explanation).toContain('INFRAGATE_ENGINE_SOCKETS');
  };

  it('lets nodes use a socket in a listed directory, and a listed socket', async () => {
    expect((await register(`unix://${allowed}/docker.sock`)).status).toBe(201);
    expect((await register(`unix://${allowed}/nested/podman.sock`)).status).toBe(201);
    expect((await register(`unix://${elsewhere}/listed.sock`)).status).toBe(201);
  });

  it('refuses a socket outside them, on registration and on a change', async () => {
    expectSocketRefused(await register('unix:///var/run/docker.sock'), '/var/run/docker.sock');
    expectSocketRefused(await register(`unix://${elsewhere}/unlisted.sock`), `${elsewhere}/unlisted.sock`);
    const node = await createNode(gateway, `unix://${allowed}/moving.sock`);
    expectSocketRefused(
      await gateway.call('PATCH', `${NODES}/${node.id}`, { body: { endpoint: 'unix:///run/docker.sock' } }),
      '/run/docker.sock',
    );
  });

  it('follows links: one in a listed directory that leads outside it is refused', async () => {
    fs.symlinkSync('/var/run/docker.sock', path.join(allowed, 'link.sock'));
    expectSocketRefused(await register(`unix://${allowed}/link.sock`), `${allowed}/link.sock`);
  });

  it('checks again on every use: a link put in place after registration does not reach outside', async () => {
    const node = await createNode(gateway, `unix://${allowed}/later.sock`);
    fs.symlinkSync(`${elsewhere}/unlisted.sock`, path.join(allowed, 'later.sock'));
    expectSocketRefused(await gateway.call('GET', `${NODES}/${node.id}`), `${allowed}/later.sock`);
  });

  it('does not restrict tcp:// and ssh:// nodes, which the egress policy governs', async () => {
    expect((await register('tcp://10.20.1.1:2376')).status).toBe(201);
    expect((await register('ssh://deploy@10.20.1.2')).status).toBe(201);
  });
});
