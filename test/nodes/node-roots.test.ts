import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/expectations.js';
import { type CallResult, startTestGateway, type TestGateway } from '../support/gateway.js';
import { createNode, createUpload, putChunk, tempRoot } from './helpers.js';

// A node root is where uploads write on the gateway's host: a grant on one node may rename it but not
// move it, nobody may put it where the gateway keeps its own data, and the operator may fence roots in.
let counter = 0;
const uniqueName = () => `roots-${++counter}`;

const register = (gateway: TestGateway, rootPath: string) =>
  gateway.call('POST', '/api/nodes', { body: { name: uniqueName(), rootPath } });

function expectRootRefused(result: CallResult, reason: string, rootPath: string) {
  expectError(result, 422, 'UNPROCESSABLE_ENTITY');
  expect(result.body.details).toMatchObject({ reason, rootPath });
}

describe('moving the root of a node', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway();
  });
  afterAll(() => gateway.close());

  /** A PATCH by a caller holding `nodes:manage` on this one node. */
  const changeAsNodeManager = async (nodeId: string, body: Record<string, unknown>) =>
    gateway.call('PATCH', `/api/nodes/${nodeId}`, {
      token: await gateway.tokenWithScopes([`nodes:manage:${nodeId}`]),
      body,
    });

  it('is refused to a manager of that one node, naming the field and the scope it needs', async () => {
    const node = await createNode(gateway);
    const result = await changeAsNodeManager(node.id, { rootPath: tempRoot() });
    expectError(result, 403, 'FORBIDDEN');
    expect(result.body.details).toMatchObject({
      reason: 'BOUNDARY_CHANGE_NEEDS_AREA_SCOPE',
      requiredScope: 'nodes:manage',
      fields: ['rootPath'],
    });
    expect((await gateway.call('GET', `/api/nodes/${node.id}`)).body.data.rootPath).toBe(node.rootPath);
  });

  it('is refused to that manager before the directory is looked at, so nothing about the host leaks', async () => {
    const node = await createNode(gateway);
    const result = await changeAsNodeManager(node.id, { rootPath: '/no/such/directory' });
    expectError(result, 403, 'FORBIDDEN');
  });

  it('leaves that manager free to rename the node and to send the root it has', async () => {
    const node = await createNode(gateway);
    const result = await changeAsNodeManager(node.id, {
      name: `${node.name}-renamed`,
      rootPath: `${node.rootPath}/`,
    });
    expect(result.status, result.text).toBe(200);
    expect(result.body.data).toMatchObject({ name: `${node.name}-renamed`, rootPath: node.rootPath });
  });

  it('is allowed with nodes:manage on the whole area', async () => {
    const node = await createNode(gateway);
    const rootPath = tempRoot();
    const token = await gateway.tokenWithScopes(['nodes:manage']);
    const result = await gateway.call('PATCH', `/api/nodes/${node.id}`, { token, body: { rootPath } });
    expect(result.status, result.text).toBe(200);
    expect(result.body.data.rootPath).toBe(rootPath);
  });
});

describe("the gateway's data directory", () => {
  let gateway: TestGateway;
  let dataDir: string;
  beforeAll(async () => {
    gateway = await startTestGateway();
    dataDir = fs.realpathSync(gateway.config.dataDir);
  });
  afterAll(() => gateway.close());

  it('is never a node root, not even for an admin', async () => {
    const result = await register(gateway, dataDir);
    expectRootRefused(result, 'NODE_ROOT_FORBIDDEN', dataDir);
    expect(result.body.details.explanation).toMatch(/data directory.*database and master key/);
  });

  it('refuses a root inside it and a root above it', async () => {
    const inside = path.join(dataDir, 'files');
    fs.mkdirSync(inside);
    expectRootRefused(await register(gateway, inside), 'NODE_ROOT_FORBIDDEN', inside);
    const above = path.dirname(dataDir);
    expectRootRefused(await register(gateway, above), 'NODE_ROOT_FORBIDDEN', above);
  });

  it('refuses a link that leads to it', async () => {
    const link = path.join(tempRoot(), 'data-link');
    fs.symlinkSync(dataDir, link);
    expectRootRefused(await register(gateway, link), 'NODE_ROOT_FORBIDDEN', link);
  });

  it('refuses a root moved there', async () => {
    const node = await createNode(gateway);
    expectRootRefused(
      await gateway.call('PATCH', `/api/nodes/${node.id}`, { body: { rootPath: dataDir } }),
      'NODE_ROOT_FORBIDDEN',
      dataDir,
    );
  });

  it('leaves a directory beside it free to be a root', async () => {
    const beside = fs.mkdtempSync(`${dataDir}-beside-`);
    expect((await register(gateway, beside)).status).toBe(201);
  });

  it('is not reached by uploads once a root that was a link to elsewhere leads to it', async () => {
    const link = path.join(tempRoot(), 'swapped');
    fs.symlinkSync(tempRoot(), link);
    const node = await createNode(gateway, link);
    const open = await createUpload(gateway, node.id, { path: 'master.key', totalBytes: 4, overwrite: true });
    // The test gateway is handed its key; a key file stands where a real gateway keeps it.
    const keyFile = path.join(dataDir, 'master.key');
    fs.writeFileSync(keyFile, 'the master key');

    fs.rmSync(link);
    fs.symlinkSync(dataDir, link);
    expectRootRefused(
      await putChunk(gateway, node.id, open.uploadId, Buffer.from('evil')),
      'NODE_ROOT_FORBIDDEN',
      link,
    );
    expectRootRefused(
      await gateway.call('POST', `/api/nodes/${node.id}/files/uploads`, {
        body: { path: 'db/evil', totalBytes: 1, overwrite: true },
      }),
      'NODE_ROOT_FORBIDDEN',
      link,
    );
    expect(fs.readFileSync(keyFile, 'utf8')).toBe('the master key');
    expect(fs.existsSync(path.join(dataDir, '.infragate-uploads'))).toBe(false);
  });
});

describe('INFRAGATE_NODE_ROOTS', () => {
  let gateway: TestGateway;
  let base: string;
  beforeAll(async () => {
    base = tempRoot('infragate-node-base-');
    gateway = await startTestGateway({ nodeRoots: [base] });
  });
  afterAll(() => gateway.close());

  it('lets roots be a listed directory and any directory under it', async () => {
    const nested = path.join(base, 'team', 'backups');
    fs.mkdirSync(nested, { recursive: true });
    expect((await register(gateway, base)).status).toBe(201);
    expect((await register(gateway, nested)).status).toBe(201);
  });

  it('refuses a root elsewhere, naming the setting and the allowed directories', async () => {
    const elsewhere = tempRoot();
    const result = await register(gateway, elsewhere);
    expectRootRefused(result, 'NODE_ROOT_NOT_ALLOWED', elsewhere);
    expect(result.body.details.allowedRoots).toEqual([base]);
    expect(result.body.details.explanation).toContain('INFRAGATE_NODE_ROOTS');
  });

  it('refuses a link under a listed directory that leads out of it', async () => {
    const link = path.join(base, 'out');
    fs.symlinkSync(tempRoot(), link);
    expectRootRefused(await register(gateway, link), 'NODE_ROOT_NOT_ALLOWED', link);
  });

  it('refuses uploads once a root under it has become a link out of it', async () => {
    const root = path.join(base, 'replaced');
    fs.mkdirSync(root);
    const node = await createNode(gateway, root);
    fs.rmSync(root, { recursive: true });
    fs.symlinkSync(tempRoot(), root);
    expectRootRefused(
      await gateway.call('POST', `/api/nodes/${node.id}/files/uploads`, {
        body: { path: 'a.bin', totalBytes: 1 },
      }),
      'NODE_ROOT_NOT_ALLOWED',
      root,
    );
  });
});
