import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/raw.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { describeResourceScopes } from '../support/resource-scopes.js';
import { createNode, createUpload, putChunk, tempFile, tempRoot } from './helpers.js';

let gateway: TestGateway;
let viewToken: string;
let noScopeToken: string;

beforeAll(async () => {
  gateway = await startTestGateway();
  viewToken = await gateway.tokenWithScopes(['nodes:view']);
  noScopeToken = await gateway.tokenWithScopes([]);
});
afterAll(() => gateway.close());

const unique = (prefix: string) => `${prefix}-${crypto.randomBytes(4).toString('hex')}`;

describe('POST /api/nodes', () => {
  it('registers a node with its name and root directory and audits it', async () => {
    const root = tempRoot();
    const result = await gateway.call('POST', '/api/nodes', {
      body: { name: ' storage-a ', rootPath: root },
    });
    expect(result.status).toBe(201);
    expect(result.body.data).toMatchObject({ name: 'storage-a', rootPath: root });
    const events = await queryRows<{ action: string }>(
      gateway.deps.db,
      sql`select action from audit_events where target_id = ${result.body.data.id}`,
    );
    expect(events.map((event) => event.action)).toEqual(['nodes.node.created']);
  });

  it('refuses a duplicate name with 409', async () => {
    const name = unique('dup');
    await createNode(gateway, tempRoot(), name);
    const result = await gateway.call('POST', '/api/nodes', { body: { name, rootPath: tempRoot() } });
    expectError(result, 409, 'CONFLICT');
    expect(result.body.details.reason).toBe('NODE_NAME_TAKEN');
  });

  it('refuses a body sent as application/octet-stream with 415 (only upload chunks take raw bytes)', async () => {
    const result = await gateway.call('POST', '/api/nodes', {
      rawBody: Buffer.from(JSON.stringify({ name: unique('raw'), rootPath: tempRoot() })),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expectError(result, 415, 'VALIDATION_ERROR');
  });

  it('refuses a missing or blank name, a name over 255 characters and a relative rootPath with 400', async () => {
    expectValidationError(await gateway.call('POST', '/api/nodes', { body: { rootPath: tempRoot() } }), [
      'name',
    ]);
    expectValidationError(
      await gateway.call('POST', '/api/nodes', { body: { name: '   ', rootPath: tempRoot() } }),
      ['name'],
    );
    expectValidationError(
      await gateway.call('POST', '/api/nodes', { body: { name: 'x'.repeat(256), rootPath: tempRoot() } }),
      ['name'],
    );
    expectValidationError(
      await gateway.call('POST', '/api/nodes', { body: { name: unique('rel'), rootPath: 'relative/dir' } }),
      ['rootPath'],
    );
  });

  it('refuses a root that does not exist or is not a directory with 422', async () => {
    const missing = await gateway.call('POST', '/api/nodes', {
      body: { name: unique('missing'), rootPath: path.join(tempRoot(), 'nope') },
    });
    expectError(missing, 422, 'UNPROCESSABLE_ENTITY');
    expect(missing.body.details.reason).toBe('ROOT_NOT_FOUND');
    const file = path.join(tempRoot(), 'file');
    fs.writeFileSync(file, 'x');
    const notDir = await gateway.call('POST', '/api/nodes', {
      body: { name: unique('file'), rootPath: file },
    });
    expect(notDir.body.details.reason).toBe('ROOT_NOT_A_DIRECTORY');
  });

  it('answers 401 without a token and 403 with only nodes:view', async () => {
    const body = { name: unique('auth'), rootPath: tempRoot() };
    expectError(await gateway.call('POST', '/api/nodes', { body, token: null }), 401, 'UNAUTHORIZED');
    expectError(await gateway.call('POST', '/api/nodes', { body, token: viewToken }), 403, 'FORBIDDEN');
  });
});

describe('GET /api/nodes and /api/nodes/{id}', () => {
  it('lists nodes by name, paginated, filtered by exact name or substring', async () => {
    const name = unique('listed');
    const node = await createNode(gateway, tempRoot(), name);
    const exact = await gateway.call('GET', '/api/nodes', { query: { name }, token: viewToken });
    expect(exact.status).toBe(200);
    expect(exact.body.data).toEqual([expect.objectContaining({ id: node.id, name })]);
    expect(exact.body.pagination).toEqual({ page: 1, limit: 20, total: 1, totalPages: 1 });
    const page = await gateway.call('GET', '/api/nodes', { query: { q: 'listed', limit: 1 } });
    expect(page.body.data).toHaveLength(1);
    expectValidationError(await gateway.call('GET', '/api/nodes', { query: { limit: 101 } }), ['limit']);
  });

  it('answers one node, 404 for an unknown id, 400 for a malformed one, 403 without nodes:view', async () => {
    const node = await createNode(gateway);
    expect((await gateway.call('GET', `/api/nodes/${node.id}`, { token: viewToken })).body.data.id).toBe(
      node.id,
    );
    expectError(await gateway.call('GET', `/api/nodes/${crypto.randomUUID()}`), 404, 'NOT_FOUND');
    expectValidationError(await gateway.call('GET', '/api/nodes/nope'), ['id']);
    expectError(
      await gateway.call('GET', `/api/nodes/${node.id}`, { token: noScopeToken }),
      403,
      'FORBIDDEN',
    );
    expectError(await gateway.call('GET', `/api/nodes/${node.id}`, { token: null }), 401, 'UNAUTHORIZED');
  });
});

describe('PATCH /api/nodes/{id}', () => {
  it('renames a node and moves its root', async () => {
    const node = await createNode(gateway);
    const newRoot = tempRoot();
    const name = unique('renamed');
    const result = await gateway.call('PATCH', `/api/nodes/${node.id}`, {
      body: { name, rootPath: newRoot },
    });
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({ id: node.id, name, rootPath: newRoot });
  });

  it('refuses an empty change with 400, an unknown node with 404 and a taken name with 409', async () => {
    const node = await createNode(gateway);
    const other = await createNode(gateway);
    expectError(await gateway.call('PATCH', `/api/nodes/${node.id}`, { body: {} }), 400, 'VALIDATION_ERROR');
    expectError(
      await gateway.call('PATCH', `/api/nodes/${crypto.randomUUID()}`, { body: { name: unique('x') } }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await gateway.call('PATCH', `/api/nodes/${node.id}`, { body: { name: other.name } }),
      409,
      'CONFLICT',
    );
    expectError(
      await gateway.call('PATCH', `/api/nodes/${node.id}`, { body: { name: 'y' }, token: viewToken }),
      403,
      'FORBIDDEN',
    );
  });

  it('refuses to move the root of a node with open uploads with 409', async () => {
    const node = await createNode(gateway);
    await createUpload(gateway, node.id, { path: 'a.bin', totalBytes: 3 });
    const result = await gateway.call('PATCH', `/api/nodes/${node.id}`, { body: { rootPath: tempRoot() } });
    expectError(result, 409, 'CONFLICT');
    expect(result.body.details.reason).toBe('NODE_HAS_OPEN_UPLOADS');
  });
});

describe('DELETE /api/nodes/{id}', () => {
  it('deletes the node, aborts its open uploads (temp data removed) and keeps uploaded files', async () => {
    const root = tempRoot();
    const node = await createNode(gateway, root);
    const done = await createUpload(gateway, node.id, { path: 'kept.txt', totalBytes: 2 });
    await putChunk(gateway, node.id, done.uploadId, Buffer.from('ok'));
    const open = await createUpload(gateway, node.id, { path: 'open.bin', totalBytes: 9 });
    await putChunk(gateway, node.id, open.uploadId, Buffer.from('123'));

    const result = await gateway.call('DELETE', `/api/nodes/${node.id}`);
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ success: true });
    expectError(await gateway.call('GET', `/api/nodes/${node.id}`), 404, 'NOT_FOUND');
    expect(fs.existsSync(tempFile(root, open.uploadId))).toBe(false);
    expect(fs.readFileSync(path.join(root, 'kept.txt'), 'utf8')).toBe('ok');
  });

  it('answers 404 for an unknown node and 403 with only nodes:view', async () => {
    expectError(await gateway.call('DELETE', `/api/nodes/${crypto.randomUUID()}`), 404, 'NOT_FOUND');
    const node = await createNode(gateway);
    expectError(
      await gateway.call('DELETE', `/api/nodes/${node.id}`, { token: viewToken }),
      403,
      'FORBIDDEN',
    );
  });
});

describeResourceScopes(() => gateway, {
  area: 'nodes',
  list: '/api/nodes',
  read: (id) => `/api/nodes/${id}`,
  create: async () => (await createNode(gateway)).id,
});
