import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../src/db/schema/index.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { UNKNOWN, unique } from './helpers.js';

let gateway: TestGateway;
let viewer: string;
let nobody: string;
beforeAll(async () => {
  gateway = await startTestGateway();
  viewer = await gateway.tokenWithScopes(['logging:view']);
  nobody = await gateway.tokenWithScopes([]);
});
afterAll(() => gateway.close());

const trees = [
  { label: 'schema folders', base: '/api/logging/schema-folders', kind: 'schema' },
  { label: 'environment folders', base: '/api/logging/environment-folders', kind: 'environment' },
] as const;

describe.each(trees)('$label', ({ base, kind }) => {
  const create = async (name: string, parentId?: string | null) => {
    const result = await gateway.call('POST', base, {
      body: parentId === undefined ? { name } : { name, parentId },
    });
    expect(result.status).toBe(201);
    return result.body.data as { id: string; name: string; parentId: string | null; sortOrder: number };
  };
  const move = (id: string, parentId: string | null, token?: string | null) =>
    gateway.call('PUT', `${base}/${id}/move`, {
      body: { parentId },
      ...(token !== undefined ? { token } : {}),
    });
  const parentOf = async (id: string) => (await gateway.call('GET', `${base}/${id}`)).body.data.parentId;

  describe(`POST ${base}`, () => {
    it('creates a folder at the top level with 201, an id, parentId null and a sortOrder', async () => {
      const result = await gateway.call('POST', base, { body: { name: unique('top') } });
      expect(result.status).toBe(201);
      expect(result.body.data).toMatchObject({ parentId: null, sortOrder: expect.any(Number) });
      expect(result.body.data.id).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('creates a folder under a parent, after its existing children', async () => {
      const parent = await create(unique('parent'));
      const first = await create('a', parent.id);
      const second = await create('b', parent.id);
      expect(second.parentId).toBe(parent.id);
      expect(second.sortOrder).toBeGreaterThan(first.sortOrder);
    });

    it('refuses a name already used by a sibling with 409 CONFLICT', async () => {
      const name = unique('twin');
      await create(name);
      const result = await gateway.call('POST', base, { body: { name } });
      expectError(result, 409, 'CONFLICT');
      expect(result.body.details.reason).toBe('NAME_TAKEN');
    });

    it('allows the same name under different parents', async () => {
      const [a, b] = [await create(unique('pa')), await create(unique('pb'))];
      await create('same', a.id);
      expect((await create('same', b.id)).parentId).toBe(b.id);
    });

    it('answers 404 naming an unknown parent', async () => {
      const result = await gateway.call('POST', base, { body: { name: 'x', parentId: UNKNOWN } });
      expectError(result, 404, 'NOT_FOUND');
      expect(result.body.details).toEqual({ parentId: UNKNOWN });
    });

    it('refuses a malformed parentId, a missing, blank or too long name with 400', async () => {
      expectValidationError(await gateway.call('POST', base, { body: { name: 'x', parentId: 'nope' } }), [
        'parentId',
      ]);
      expectValidationError(await gateway.call('POST', base, { body: {} }), ['name']);
      expectValidationError(await gateway.call('POST', base, { body: { name: '   ' } }), ['name']);
      expectValidationError(await gateway.call('POST', base, { body: { name: 'x'.repeat(256) } }), ['name']);
    });

    it('needs a token (401) and logging:manage (403)', async () => {
      expectError(
        await gateway.call('POST', base, { body: { name: 'x' }, token: null }),
        401,
        'UNAUTHORIZED',
      );
      expectError(await gateway.call('POST', base, { body: { name: 'x' }, token: viewer }), 403, 'FORBIDDEN');
    });

    it('records the creation in the audit trail', async () => {
      const folder = await create(unique('audited'));
      const events = await gateway.deps.db
        .select()
        .from(auditEvents)
        .where(eq(auditEvents.targetId, folder.id));
      expect(events.map((event) => event.action)).toEqual([`logging.${kind}_folder.created`]);
    });
  });

  describe(`GET ${base}`, () => {
    it('lists folders flat with parentId and sortOrder, paginated', async () => {
      const parent = await create(unique('listed'));
      await create('child', parent.id);
      const result = await gateway.call('GET', base, { query: { parentId: parent.id } });
      expect(result.status).toBe(200);
      expect(result.body.data).toEqual([
        expect.objectContaining({ name: 'child', parentId: parent.id, sortOrder: 0 }),
      ]);
      expect(result.body.pagination).toEqual({ page: 1, limit: 20, total: 1, totalPages: 1 });
    });

    it('nests every folder under its parent with ?tree=true', async () => {
      const root = await create(unique('nest'));
      const child = await create('child', root.id);
      await create('grandchild', child.id);
      const result = await gateway.call('GET', base, { query: { tree: true }, token: viewer });
      expect(result.status).toBe(200);
      const node = result.body.data.find((candidate: { id: string }) => candidate.id === root.id);
      expect(node.children).toHaveLength(1);
      expect(node.children[0]).toMatchObject({
        id: child.id,
        children: [{ name: 'grandchild', children: [] }],
      });
    });

    it('refuses a limit above 100 and a malformed parentId filter with 400', async () => {
      expectValidationError(await gateway.call('GET', base, { query: { limit: 101 } }), ['limit']);
      expectValidationError(await gateway.call('GET', base, { query: { parentId: 'x' } }), ['parentId']);
    });

    it('needs a token (401) and logging:view (403)', async () => {
      expectError(await gateway.call('GET', base, { token: null }), 401, 'UNAUTHORIZED');
      expectError(await gateway.call('GET', base, { token: nobody }), 403, 'FORBIDDEN');
    });

    it('answers 404 for an unknown folder id, uuid or not', async () => {
      expectError(await gateway.call('GET', `${base}/${UNKNOWN}`), 404, 'NOT_FOUND');
      expectError(await gateway.call('GET', `${base}/not-a-folder`), 404, 'NOT_FOUND');
    });
  });

  describe(`PUT ${base}/{id}`, () => {
    it('renames a folder', async () => {
      const folder = await create(unique('old'));
      const result = await gateway.call('PUT', `${base}/${folder.id}`, {
        body: { name: `renamed-${folder.id}` },
      });
      expect(result.status).toBe(200);
      expect(result.body.data.name).toBe(`renamed-${folder.id}`);
    });

    it('refuses a sibling name with 409 and an unknown id with 404', async () => {
      const taken = await create(unique('taken'));
      const other = await create(unique('other'));
      expectError(
        await gateway.call('PUT', `${base}/${other.id}`, { body: { name: taken.name } }),
        409,
        'CONFLICT',
      );
      expectError(await gateway.call('PUT', `${base}/${UNKNOWN}`, { body: { name: 'x' } }), 404, 'NOT_FOUND');
    });

    it('needs logging:manage (403)', async () => {
      const folder = await create(unique('guarded'));
      expectError(
        await gateway.call('PUT', `${base}/${folder.id}`, { body: { name: 'y' }, token: viewer }),
        403,
        'FORBIDDEN',
      );
    });
  });

  describe(`DELETE ${base}/{id}`, () => {
    it('deletes an empty folder', async () => {
      const folder = await create(unique('empty'));
      const result = await gateway.call('DELETE', `${base}/${folder.id}`);
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ success: true });
      expectError(await gateway.call('GET', `${base}/${folder.id}`), 404, 'NOT_FOUND');
    });

    it('refuses a folder with sub-folders with 409 FOLDER_NOT_EMPTY and keeps it', async () => {
      const folder = await create(unique('full'));
      await create('inside', folder.id);
      const result = await gateway.call('DELETE', `${base}/${folder.id}`);
      expectError(result, 409, 'CONFLICT');
      expect(result.body.details).toMatchObject({ reason: 'FOLDER_NOT_EMPTY', folderCount: 1 });
      expect((await gateway.call('GET', `${base}/${folder.id}`)).status).toBe(200);
    });

    it('deletes the whole subtree with ?recursive=true', async () => {
      const folder = await create(unique('deep'));
      const child = await create('child', folder.id);
      const grandchild = await create('grandchild', child.id);
      const result = await gateway.call('DELETE', `${base}/${folder.id}`, { query: { recursive: true } });
      expect(result.status).toBe(200);
      for (const id of [folder.id, child.id, grandchild.id])
        expectError(await gateway.call('GET', `${base}/${id}`), 404, 'NOT_FOUND');
    });

    it('answers 404 for an unknown folder and 403 without logging:manage', async () => {
      expectError(await gateway.call('DELETE', `${base}/${UNKNOWN}`), 404, 'NOT_FOUND');
      expectError(await gateway.call('DELETE', `${base}/${UNKNOWN}`, { token: viewer }), 403, 'FORBIDDEN');
    });
  });

  describe(`PUT ${base}/reorder`, () => {
    it('puts the listed children first in the given order, the others after', async () => {
      const parent = await create(unique('order'));
      const [a, b, c] = [
        await create('a', parent.id),
        await create('b', parent.id),
        await create('c', parent.id),
      ];
      const result = await gateway.call('PUT', `${base}/reorder`, {
        body: { parentId: parent.id, ids: [c.id, a.id] },
      });
      expect(result.status).toBe(200);
      expect(result.body.data.map((folder: { id: string }) => folder.id)).toEqual([c.id, a.id, b.id]);
      expect(result.body.data.map((folder: { sortOrder: number }) => folder.sortOrder)).toEqual([0, 1, 2]);
    });

    it('leaves folders already in their place untouched (updatedAt kept)', async () => {
      const parent = await create(unique('settled'));
      const [a, b] = [await create('a', parent.id), await create('b', parent.id)];
      const body = { parentId: parent.id, ids: [b.id, a.id] };
      const first = await gateway.call('PUT', `${base}/reorder`, { body });
      const again = await gateway.call('PUT', `${base}/reorder`, { body });
      expect(again.status).toBe(200);
      expect(again.body.data).toEqual(first.body.data);
    });

    it('refuses an id that is not a child of parentId with 422 NOT_A_CHILD', async () => {
      const parent = await create(unique('strict'));
      const stranger = await create(unique('stranger'));
      const result = await gateway.call('PUT', `${base}/reorder`, {
        body: { parentId: parent.id, ids: [stranger.id] },
      });
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(result.body.details.reason).toBe('NOT_A_CHILD');
    });

    it('answers 404 naming unknown ids or an unknown parent', async () => {
      const unknownId = await gateway.call('PUT', `${base}/reorder`, {
        body: { parentId: null, ids: [UNKNOWN] },
      });
      expectError(unknownId, 404, 'NOT_FOUND');
      expect(unknownId.body.details).toEqual({ missingIds: [UNKNOWN] });
      expectError(
        await gateway.call('PUT', `${base}/reorder`, { body: { parentId: UNKNOWN, ids: [UNKNOWN] } }),
        404,
        'NOT_FOUND',
      );
    });

    it('refuses an empty or duplicated ids list and a malformed parentId with 400', async () => {
      expectValidationError(
        await gateway.call('PUT', `${base}/reorder`, { body: { parentId: null, ids: [] } }),
        ['ids'],
      );
      expectValidationError(
        await gateway.call('PUT', `${base}/reorder`, { body: { parentId: null, ids: ['a', 'a'] } }),
        ['ids'],
      );
      expectValidationError(
        await gateway.call('PUT', `${base}/reorder`, { body: { parentId: 'bad', ids: ['a'] } }),
        ['parentId'],
      );
      expectValidationError(await gateway.call('PUT', `${base}/reorder`, { body: { ids: ['a'] } }), [
        'parentId',
      ]);
    });

    it('needs logging:manage (403)', async () => {
      expectError(
        await gateway.call('PUT', `${base}/reorder`, { body: { parentId: null, ids: ['a'] }, token: viewer }),
        403,
        'FORBIDDEN',
      );
    });
  });

  describe(`PUT ${base}/{id}/move`, () => {
    it('moves a folder under another one, at the end of its new siblings', async () => {
      const target = await create(unique('target'));
      const existing = await create('existing', target.id);
      const folder = await create(unique('moving'));
      const result = await move(folder.id, target.id);
      expect(result.status).toBe(200);
      expect(result.body.data).toMatchObject({ id: folder.id, parentId: target.id });
      expect(result.body.data.sortOrder).toBeGreaterThan(existing.sortOrder);
    });

    it('moves a folder back to the top level with parentId null', async () => {
      const parent = await create(unique('up'));
      const folder = await create('inner', parent.id);
      const result = await move(folder.id, null);
      expect(result.status).toBe(200);
      expect(result.body.data.parentId).toBeNull();
    });

    it('keeps the subtree of a moved folder attached to it', async () => {
      const target = await create(unique('dest'));
      const folder = await create(unique('branch'));
      const leaf = await create('leaf', folder.id);
      await move(folder.id, target.id);
      expect(await parentOf(leaf.id)).toBe(folder.id);
    });

    it('refuses a move under the folder itself with 422 CIRCULAR_REFERENCE', async () => {
      const folder = await create(unique('self'));
      const result = await move(folder.id, folder.id);
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(result.body.details.reason).toBe('CIRCULAR_REFERENCE');
      expect(typeof result.body.details.explanation).toBe('string');
    });

    it('refuses a move under a descendant with 422 and changes nothing', async () => {
      const top = await create(unique('top'));
      const middle = await create('middle', top.id);
      const bottom = await create('bottom', middle.id);
      const result = await move(top.id, bottom.id);
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(result.body.details.reason).toBe('CIRCULAR_REFERENCE');
      expect(await parentOf(top.id)).toBeNull();
      expect(await parentOf(middle.id)).toBe(top.id);
    });

    it('answers 404 for an unknown folder or an unknown target parent', async () => {
      const folder = await create(unique('lost'));
      expectError(await move(UNKNOWN, null), 404, 'NOT_FOUND');
      expectError(await move('not-a-uuid', null), 404, 'NOT_FOUND');
      const result = await move(folder.id, UNKNOWN);
      expectError(result, 404, 'NOT_FOUND');
      expect(result.body.details).toEqual({ parentId: UNKNOWN });
    });

    it('refuses a move next to a sibling of the same name with 409', async () => {
      const target = await create(unique('crowded'));
      await create('dup', target.id);
      const folder = await create('dup');
      expectError(await move(folder.id, target.id), 409, 'CONFLICT');
      expect(await parentOf(folder.id)).toBeNull();
      await gateway.call('DELETE', `${base}/${folder.id}`);
    });

    it('refuses a malformed or missing parentId with 400 VALIDATION_ERROR', async () => {
      const folder = await create(unique('strict'));
      expectValidationError(await move(folder.id, 'not-a-uuid' as string), ['parentId']);
      expectValidationError(await gateway.call('PUT', `${base}/${folder.id}/move`, { body: {} }), [
        'parentId',
      ]);
    });

    it('needs a token (401) and logging:manage (403)', async () => {
      const folder = await create(unique('auth'));
      expectError(await move(folder.id, null, null), 401, 'UNAUTHORIZED');
      expectError(await move(folder.id, null, viewer), 403, 'FORBIDDEN');
    });

    it('records the move with its old and new parent in the audit trail', async () => {
      const target = await create(unique('audit-target'));
      const folder = await create(unique('audit-moved'));
      await move(folder.id, target.id);
      const [event] = await gateway.deps.db
        .select()
        .from(auditEvents)
        .where(eq(auditEvents.action, `logging.${kind}_folder.moved`))
        .then((events) => events.filter((candidate) => candidate.targetId === folder.id));
      expect(event?.metadata).toMatchObject({ fromParentId: null, toParentId: target.id });
    });
  });
});
