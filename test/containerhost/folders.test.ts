import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, containerhostResourcePlacements } from '../../src/db/schema/index.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const FOLDERS = '/api/containerhost/folders';
const REORDER = `${FOLDERS}/reorder-resources`;
const MISSING = '00000000-0000-4000-8000-000000000000';

let gateway: TestGateway;
let nodeA: string;
let nodeB: string;
let counter = 0;

async function createFolder(resourceType = 'container', name = `folder-${++counter}`) {
  const result = await gateway.call('POST', FOLDERS, { body: { name, resourceType } });
  expect(result.status).toBe(201);
  return result.body.data as { id: string; name: string };
}

async function placements(nodeId: string) {
  return gateway.deps.db
    .select()
    .from(containerhostResourcePlacements)
    .where(eq(containerhostResourcePlacements.nodeId, nodeId));
}

beforeAll(async () => {
  gateway = await startTestGateway();
  const create = async (name: string) =>
    (await gateway.call('POST', '/api/containerhost/nodes', { body: { name, endpoint: 'unix:///x.sock' } }))
      .body.data.id as string;
  nodeA = await create('node-a');
  nodeB = await create('node-b');
});
afterAll(() => gateway.close());

describe('POST /api/containerhost/folders', () => {
  it('creates a folder for one resource type', async () => {
    const result = await gateway.call('POST', FOLDERS, {
      body: { name: ' Web ', resourceType: 'container' },
    });
    expect(result.status).toBe(201);
    expect(result.body.data).toMatchObject({
      name: 'Web',
      resourceType: 'container',
      sortOrder: 0,
      resources: [],
    });
  });

  it('answers 409 for a name taken within the same resource type, and allows it for another type', async () => {
    const folder = await createFolder('volume');
    const taken = await gateway.call('POST', FOLDERS, {
      body: { name: folder.name, resourceType: 'volume' },
    });
    expectError(taken, 409, 'CONFLICT');
    expect(taken.body.details.reason).toBe('FOLDER_NAME_TAKEN');
    expect(
      (await gateway.call('POST', FOLDERS, { body: { name: folder.name, resourceType: 'image' } })).status,
    ).toBe(201);
  });

  it('refuses an unknown resource type, a blank name and a name over 255 characters', async () => {
    expectValidationError(await gateway.call('POST', FOLDERS, { body: { name: 'x', resourceType: 'pod' } }), [
      'resourceType',
    ]);
    expectValidationError(
      await gateway.call('POST', FOLDERS, { body: { name: ' ', resourceType: 'image' } }),
      ['name'],
    );
    expectValidationError(
      await gateway.call('POST', FOLDERS, { body: { name: 'n'.repeat(256), resourceType: 'image' } }),
      ['name'],
    );
  });

  it('answers 401 without a token and 403 without containerhost:manage', async () => {
    const body = { name: 'x', resourceType: 'image' };
    expectError(await gateway.call('POST', FOLDERS, { body, token: null }), 401, 'UNAUTHORIZED');
    const viewer = await gateway.tokenWithScopes(['containerhost:view']);
    expectError(await gateway.call('POST', FOLDERS, { body, token: viewer }), 403, 'FORBIDDEN');
  });
});

describe('GET, PUT and DELETE /api/containerhost/folders', () => {
  it('lists folders filtered by resource type, paginated', async () => {
    await createFolder('compose');
    await createFolder('compose');
    const result = await gateway.call('GET', FOLDERS, { query: { resourceType: 'compose', limit: 1 } });
    expect(result.status).toBe(200);
    expect(result.body.data).toHaveLength(1);
    expect(result.body.data[0].resourceType).toBe('compose');
    expect(result.body.pagination).toEqual({ page: 1, limit: 1, total: 2, totalPages: 2 });
  });

  it('renames and re-sorts a folder', async () => {
    const folder = await createFolder('network');
    const result = await gateway.call('PUT', `${FOLDERS}/${folder.id}`, {
      body: { name: 'renamed', sortOrder: 7 },
    });
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({ name: 'renamed', sortOrder: 7 });
  });

  it('deletes a folder; its resources keep their sort order', async () => {
    const folder = await createFolder('container');
    await gateway.call('PUT', REORDER, {
      body: {
        resourceType: 'container',
        items: [{ nodeId: nodeB, resourceKey: 'kept', sortOrder: 4, folderId: folder.id }],
      },
    });
    expect((await gateway.call('DELETE', `${FOLDERS}/${folder.id}`)).body).toEqual({ success: true });
    expectError(await gateway.call('GET', `${FOLDERS}/${folder.id}`), 404, 'NOT_FOUND');
    const kept = (await placements(nodeB)).find((row) => row.resourceKey === 'kept');
    expect(kept).toMatchObject({ sortOrder: 4, folderId: null });
  });

  it('answers 404 for an unknown folder', async () => {
    expectError(await gateway.call('GET', `${FOLDERS}/${MISSING}`), 404, 'NOT_FOUND');
    expectError(
      await gateway.call('PUT', `${FOLDERS}/${MISSING}`, { body: { name: 'x' } }),
      404,
      'NOT_FOUND',
    );
    expectError(await gateway.call('DELETE', `${FOLDERS}/${MISSING}`), 404, 'NOT_FOUND');
  });

  it('answers 401 without a token and 403 without the scope', async () => {
    const none = await gateway.tokenWithScopes([]);
    const viewer = await gateway.tokenWithScopes(['containerhost:view']);
    expectError(await gateway.call('GET', FOLDERS, { token: null }), 401, 'UNAUTHORIZED');
    expectError(await gateway.call('GET', FOLDERS, { token: none }), 403, 'FORBIDDEN');
    expectError(
      await gateway.call('PUT', `${FOLDERS}/${MISSING}`, { body: {}, token: viewer }),
      403,
      'FORBIDDEN',
    );
    expectError(await gateway.call('DELETE', `${FOLDERS}/${MISSING}`, { token: viewer }), 403, 'FORBIDDEN');
  });
});

describe('PUT /api/containerhost/folders/reorder-resources', () => {
  it('upserts every item and answers success', async () => {
    const result = await gateway.call('PUT', REORDER, {
      body: {
        resourceType: 'volume',
        items: [
          { nodeId: nodeA, resourceKey: 'data', sortOrder: 2 },
          { nodeId: nodeA, resourceKey: 'logs', sortOrder: 1 },
        ],
      },
    });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ success: true });
    await gateway.call('PUT', REORDER, {
      body: { resourceType: 'volume', items: [{ nodeId: nodeA, resourceKey: 'data', sortOrder: 0 }] },
    });
    const rows = (await placements(nodeA)).filter((row) => row.resourceType === 'volume');
    expect(rows.map((row) => [row.resourceKey, row.sortOrder]).sort()).toEqual([
      ['data', 0],
      ['logs', 1],
    ]);
  });

  it('puts resources in a folder, which lists them in sort order', async () => {
    const folder = await createFolder('image');
    await gateway.call('PUT', REORDER, {
      body: {
        resourceType: 'image',
        items: [
          { nodeId: nodeA, resourceKey: 'sha256:bbb', sortOrder: 20, folderId: folder.id },
          { nodeId: nodeB, resourceKey: 'sha256:aaa', sortOrder: 10, folderId: folder.id },
        ],
      },
    });
    const result = await gateway.call('GET', `${FOLDERS}/${folder.id}`);
    expect(result.body.data.resources).toEqual([
      { nodeId: nodeB, resourceKey: 'sha256:aaa', sortOrder: 10 },
      { nodeId: nodeA, resourceKey: 'sha256:bbb', sortOrder: 20 },
    ]);
  });

  it('answers 404 for an unknown node and writes nothing', async () => {
    const result = await gateway.call('PUT', REORDER, {
      body: {
        resourceType: 'network',
        items: [
          { nodeId: nodeA, resourceKey: 'front', sortOrder: 1 },
          { nodeId: MISSING, resourceKey: 'back', sortOrder: 2 },
        ],
      },
    });
    expectError(result, 404, 'NOT_FOUND');
    expect(result.body.details.nodeId).toBe(MISSING);
    expect((await placements(nodeA)).filter((row) => row.resourceType === 'network')).toEqual([]);
  });

  it('answers 404 for an unknown folder and 422 for a folder of another resource type', async () => {
    const item = { nodeId: nodeA, resourceKey: 'k', sortOrder: 1 };
    expectError(
      await gateway.call('PUT', REORDER, {
        body: { resourceType: 'container', items: [{ ...item, folderId: MISSING }] },
      }),
      404,
      'NOT_FOUND',
    );
    const volumes = await createFolder('volume');
    const mismatch = await gateway.call('PUT', REORDER, {
      body: { resourceType: 'container', items: [{ ...item, folderId: volumes.id }] },
    });
    expectError(mismatch, 422, 'UNPROCESSABLE_ENTITY');
    expect(mismatch.body.details.reason).toBe('FOLDER_TYPE_MISMATCH');
  });

  it('answers 422 when an item is listed twice', async () => {
    const item = { nodeId: nodeA, resourceKey: 'twice', sortOrder: 1 };
    const result = await gateway.call('PUT', REORDER, {
      body: { resourceType: 'container', items: [item, item] },
    });
    expectError(result, 422, 'UNPROCESSABLE_ENTITY');
    expect(result.body.details.reason).toBe('DUPLICATE_ITEM');
  });

  it('records the reorder in the audit trail', async () => {
    await gateway.call('PUT', REORDER, {
      body: { resourceType: 'compose', items: [{ nodeId: nodeB, resourceKey: 'stack', sortOrder: 3 }] },
    });
    const events = await gateway.deps.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'containerhost.resources.reordered'));
    expect(events.some((event) => event.targetId === 'compose')).toBe(true);
  });

  describe('validation (spec limits)', () => {
    const item = () => ({ nodeId: nodeA, resourceKey: 'key', sortOrder: 1 });
    const reorder = (body: unknown) => gateway.call('PUT', REORDER, { body });

    it('requires resourceType and items', async () => {
      const result = await reorder({});
      expectValidationError(result, ['resourceType']);
      expectValidationError(result, ['items']);
    });

    it('refuses a resourceType outside container, image, network, volume, compose', async () => {
      expectValidationError(await reorder({ resourceType: 'pod', items: [item()] }), ['resourceType']);
    });

    it('refuses an empty items array', async () => {
      expectValidationError(await reorder({ resourceType: 'container', items: [] }), ['items']);
    });

    it('refuses an item nodeId that is not a UUID', async () => {
      expectValidationError(
        await reorder({ resourceType: 'container', items: [{ ...item(), nodeId: 'node-a' }] }),
        ['items', 0, 'nodeId'],
      );
    });

    it('refuses a resourceKey that is empty or longer than 512 characters', async () => {
      expectValidationError(
        await reorder({ resourceType: 'container', items: [{ ...item(), resourceKey: '' }] }),
        ['items', 0, 'resourceKey'],
      );
      expectValidationError(
        await reorder({
          resourceType: 'container',
          items: [item(), { ...item(), resourceKey: 'k'.repeat(513) }],
        }),
        ['items', 1, 'resourceKey'],
      );
    });

    it('accepts a resourceKey of exactly 512 characters', async () => {
      expect(
        (await reorder({ resourceType: 'container', items: [{ ...item(), resourceKey: 'k'.repeat(512) }] }))
          .status,
      ).toBe(200);
    });

    it('requires an integer sortOrder on every item', async () => {
      expectValidationError(
        await reorder({ resourceType: 'container', items: [{ nodeId: nodeA, resourceKey: 'k' }] }),
        ['items', 0, 'sortOrder'],
      );
      expectValidationError(
        await reorder({ resourceType: 'container', items: [{ ...item(), sortOrder: 1.5 }] }),
        ['items', 0, 'sortOrder'],
      );
    });

    it('answers 401 without a token and 403 without containerhost:manage, before validation', async () => {
      expectError(await gateway.call('PUT', REORDER, { body: {}, token: null }), 401, 'UNAUTHORIZED');
      const viewer = await gateway.tokenWithScopes(['containerhost:view']);
      expectError(await gateway.call('PUT', REORDER, { body: {}, token: viewer }), 403, 'FORBIDDEN');
    });
  });
});
