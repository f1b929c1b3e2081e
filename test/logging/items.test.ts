import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEventsAbout } from '../support/audit-events.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { describeResourceScopes } from '../support/resource-scopes.js';
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

const FIELDS = [
  { name: 'message', type: 'string', required: true },
  { name: 'latencyMs', type: 'number', required: false },
];

async function created(url: string, body: Record<string, unknown>) {
  const result = await gateway.call('POST', url, { body });
  expect(result.status).toBe(201);
  return result.body.data;
}
const schemaFolder = (name = unique('sf'), parentId?: string) =>
  created('/api/logging/schema-folders', { name, ...(parentId ? { parentId } : {}) });
const environmentFolder = (name = unique('ef'), parentId?: string) =>
  created('/api/logging/environment-folders', { name, ...(parentId ? { parentId } : {}) });
const schema = (extra: Record<string, unknown> = {}) =>
  created('/api/logging/schemas', { name: unique('schema'), fields: FIELDS, ...extra });
const environment = (extra: Record<string, unknown> = {}) =>
  created('/api/logging/environments', { name: unique('env'), ...extra });

describe('logging schemas', () => {
  it('creates a schema with its fields, folderId and description', async () => {
    const folder = await schemaFolder();
    const result = await gateway.call('POST', '/api/logging/schemas', {
      body: { name: 'access-log', folderId: folder.id, description: 'HTTP access', fields: FIELDS },
    });
    expect(result.status).toBe(201);
    expect(result.body.data).toMatchObject({
      name: 'access-log',
      folderId: folder.id,
      description: 'HTTP access',
      fields: FIELDS,
    });
  });

  it('defaults folderId to null, description to empty and required to false', async () => {
    const data = await schema({ fields: [{ name: 'level', type: 'string' }] });
    expect(data).toMatchObject({
      folderId: null,
      description: '',
      fields: [{ name: 'level', required: false }],
    });
  });

  it('gets, lists by folder and filters by name', async () => {
    const folder = await schemaFolder();
    const data = await schema({ folderId: folder.id, name: unique('findme') });
    expect(
      (await gateway.call('GET', `/api/logging/schemas/${data.id}`, { token: viewer })).body.data,
    ).toEqual(data);
    const listed = await gateway.call('GET', '/api/logging/schemas', { query: { folderId: folder.id } });
    expect(listed.body.data).toEqual([data]);
    expect(listed.body.pagination.total).toBe(1);
    const searched = await gateway.call('GET', '/api/logging/schemas', { query: { q: data.name } });
    expect(searched.body.data.map((row: { id: string }) => row.id)).toEqual([data.id]);
  });

  it('lists only the schemas outside any folder with folderId=root', async () => {
    const folder = await schemaFolder();
    const inside = await schema({ folderId: folder.id });
    const outside = await schema();
    const result = await gateway.call('GET', '/api/logging/schemas', {
      query: { folderId: 'root', limit: 100 },
    });
    expect(new Set(result.body.data.map((row: { folderId: unknown }) => row.folderId))).toEqual(
      new Set([null]),
    );
    expect(result.body.data.map((row: { id: string }) => row.id)).toContain(outside.id);
    expect(result.body.data.map((row: { id: string }) => row.id)).not.toContain(inside.id);
  });

  it('changes only the fields sent, including moving it to another folder', async () => {
    const data = await schema({ description: 'keep me' });
    const folder = await schemaFolder();
    const result = await gateway.call('PUT', `/api/logging/schemas/${data.id}`, {
      body: { folderId: folder.id, fields: [{ name: 'ok', type: 'boolean', required: true }] },
    });
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({
      name: data.name,
      description: 'keep me',
      folderId: folder.id,
      fields: [{ name: 'ok', type: 'boolean', required: true }],
    });
  });

  it('refuses a duplicate name in the same folder with 409', async () => {
    const data = await schema();
    expectError(
      await gateway.call('POST', '/api/logging/schemas', { body: { name: data.name, fields: [] } }),
      409,
      'CONFLICT',
    );
  });

  it('refuses bad fields with 400: unknown type, duplicate names, bad field name, too many', async () => {
    const post = (fields: unknown) =>
      gateway.call('POST', '/api/logging/schemas', { body: { name: 'x', fields } });
    expectValidationError(await post([{ name: 'a', type: 'date', required: true }]), ['fields', 0, 'type']);
    expectValidationError(
      await post([
        { name: 'a', type: 'string', required: true },
        { name: 'a', type: 'number', required: false },
      ]),
      ['fields', 1, 'name'],
    );
    expectValidationError(await post([{ name: 'has space', type: 'string' }]), ['fields', 0, 'name']);
    expectValidationError(
      await post(Array.from({ length: 201 }, (_, i) => ({ name: `f${i}`, type: 'string' }))),
      ['fields'],
    );
    expectValidationError(await gateway.call('POST', '/api/logging/schemas', { body: { name: 'x' } }), [
      'fields',
    ]);
  });

  it('refuses a malformed folderId with 400 and an unknown folder with 404', async () => {
    expectValidationError(
      await gateway.call('POST', '/api/logging/schemas', { body: { name: 'x', fields: [], folderId: 'x' } }),
      ['folderId'],
    );
    const result = await gateway.call('POST', '/api/logging/schemas', {
      body: { name: 'x', fields: [], folderId: UNKNOWN },
    });
    expectError(result, 404, 'NOT_FOUND');
    expect(result.body.details).toEqual({ folderId: UNKNOWN });
  });

  it('answers 404 for unknown schema ids on get, change and delete', async () => {
    expectError(await gateway.call('GET', `/api/logging/schemas/${UNKNOWN}`), 404, 'NOT_FOUND');
    expectError(
      await gateway.call('PUT', `/api/logging/schemas/nope`, { body: { name: 'x' } }),
      404,
      'NOT_FOUND',
    );
    expectError(await gateway.call('DELETE', `/api/logging/schemas/${UNKNOWN}`), 404, 'NOT_FOUND');
  });

  it('refuses to delete a schema that environments use with 409 SCHEMA_IN_USE, naming them', async () => {
    const data = await schema();
    const env = await environment({ schemaId: data.id });
    const result = await gateway.call('DELETE', `/api/logging/schemas/${data.id}`);
    expectError(result, 409, 'CONFLICT');
    expect(result.body.details).toMatchObject({ reason: 'SCHEMA_IN_USE', environmentIds: [env.id] });
    expect(result.body.details.explanation).toBe(
      `the environment ${env.name} still uses this schema; point it at another schema or delete it first`,
    );
  });

  it('deletes an unused schema and records it in the audit trail', async () => {
    const data = await schema();
    expect((await gateway.call('DELETE', `/api/logging/schemas/${data.id}`)).body).toEqual({ success: true });
    expectError(await gateway.call('GET', `/api/logging/schemas/${data.id}`), 404, 'NOT_FOUND');
    const events = await auditEventsAbout(gateway, data.id);
    expect(events.map((event) => event.action)).toEqual(['logging.schema.created', 'logging.schema.deleted']);
  });

  it('needs a token (401), logging:view to read (403) and logging:manage to change (403)', async () => {
    expectError(await gateway.call('GET', '/api/logging/schemas', { token: null }), 401, 'UNAUTHORIZED');
    expectError(await gateway.call('GET', '/api/logging/schemas', { token: nobody }), 403, 'FORBIDDEN');
    expectError(
      await gateway.call('POST', '/api/logging/schemas', { body: { name: 'x', fields: [] }, token: viewer }),
      403,
      'FORBIDDEN',
    );
  });

  it('refuses a recursive delete of a schema folder whose schemas are in use, keeping everything', async () => {
    const folder = await schemaFolder();
    const data = await schema({ folderId: folder.id });
    await environment({ schemaId: data.id });
    const result = await gateway.call('DELETE', `/api/logging/schema-folders/${folder.id}`, {
      query: { recursive: true },
    });
    expectError(result, 409, 'CONFLICT');
    expect(result.body.details.reason).toBe('SCHEMA_IN_USE');
    expect((await gateway.call('GET', `/api/logging/schemas/${data.id}`)).status).toBe(200);
  });

  it('refuses to delete a folder holding a schema unless recursive, which deletes the schema too', async () => {
    const folder = await schemaFolder();
    const data = await schema({ folderId: folder.id });
    const refused = await gateway.call('DELETE', `/api/logging/schema-folders/${folder.id}`);
    expectError(refused, 409, 'CONFLICT');
    expect(refused.body.details).toMatchObject({ reason: 'FOLDER_NOT_EMPTY', schemaCount: 1 });
    const result = await gateway.call('DELETE', `/api/logging/schema-folders/${folder.id}`, {
      query: { recursive: true },
    });
    expect(result.status).toBe(200);
    expectError(await gateway.call('GET', `/api/logging/schemas/${data.id}`), 404, 'NOT_FOUND');
  });
});

describe('logging environments', () => {
  it('creates an environment with folderId, schemaId and retentionDays', async () => {
    const folder = await environmentFolder();
    const data = await schema();
    const result = await gateway.call('POST', '/api/logging/environments', {
      body: { name: 'prod', folderId: folder.id, schemaId: data.id, retentionDays: 90, description: 'live' },
    });
    expect(result.status).toBe(201);
    expect(result.body.data).toMatchObject({
      name: 'prod',
      folderId: folder.id,
      schemaId: data.id,
      retentionDays: 90,
      description: 'live',
    });
  });

  it('defaults retentionDays to 30 and folderId and schemaId to null', async () => {
    expect(await environment()).toMatchObject({ retentionDays: 30, folderId: null, schemaId: null });
  });

  it('refuses retentionDays outside 1 to 3650 and malformed ids with 400', async () => {
    const post = (body: Record<string, unknown>) =>
      gateway.call('POST', '/api/logging/environments', { body: { name: 'x', ...body } });
    expectValidationError(await post({ retentionDays: 0 }), ['retentionDays']);
    expectValidationError(await post({ retentionDays: 3651 }), ['retentionDays']);
    expectValidationError(await post({ retentionDays: 1.5 }), ['retentionDays']);
    expectValidationError(await post({ schemaId: 'x' }), ['schemaId']);
    expectValidationError(await post({ folderId: 'x' }), ['folderId']);
    expectValidationError(await post({ description: 'x'.repeat(2001) }), ['description']);
  });

  it('answers 404 naming an unknown schema or folder', async () => {
    const unknownSchema = await gateway.call('POST', '/api/logging/environments', {
      body: { name: 'x', schemaId: UNKNOWN },
    });
    expectError(unknownSchema, 404, 'NOT_FOUND');
    expect(unknownSchema.body.details).toEqual({ schemaId: UNKNOWN });
    const unknownFolder = await gateway.call('POST', '/api/logging/environments', {
      body: { name: 'x', folderId: UNKNOWN },
    });
    expect(unknownFolder.body.details).toEqual({ folderId: UNKNOWN });
  });

  it('changes only the fields sent and can clear the schema', async () => {
    const data = await schema();
    const env = await environment({ schemaId: data.id, retentionDays: 7 });
    const result = await gateway.call('PUT', `/api/logging/environments/${env.id}`, {
      body: { schemaId: null, description: 'changed' },
    });
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({
      schemaId: null,
      retentionDays: 7,
      description: 'changed',
      name: env.name,
    });
  });

  it('lists by folder and by schema, paginated', async () => {
    const folder = await environmentFolder();
    const data = await schema();
    const env = await environment({ folderId: folder.id, schemaId: data.id });
    await environment({ folderId: folder.id });
    const byFolder = await gateway.call('GET', '/api/logging/environments', {
      query: { folderId: folder.id, limit: 1 },
    });
    expect(byFolder.body.pagination).toEqual({ page: 1, limit: 1, total: 2, totalPages: 2 });
    const bySchema = await gateway.call('GET', '/api/logging/environments', { query: { schemaId: data.id } });
    expect(bySchema.body.data).toEqual([env]);
  });

  it('refuses a duplicate name in the same folder with 409 and allows it elsewhere', async () => {
    const env = await environment();
    expectError(
      await gateway.call('POST', '/api/logging/environments', { body: { name: env.name } }),
      409,
      'CONFLICT',
    );
    const folder = await environmentFolder();
    expect((await environment({ name: env.name, folderId: folder.id })).folderId).toBe(folder.id);
  });

  it('deletes an environment; an unknown one is 404', async () => {
    const env = await environment();
    expect((await gateway.call('DELETE', `/api/logging/environments/${env.id}`)).body).toEqual({
      success: true,
    });
    expectError(await gateway.call('DELETE', `/api/logging/environments/${env.id}`), 404, 'NOT_FOUND');
  });

  it('deletes the environments of an environment folder deleted with ?recursive=true', async () => {
    const folder = await environmentFolder();
    const inner = await environmentFolder(unique('inner'), folder.id);
    const env = await environment({ folderId: inner.id });
    const result = await gateway.call('DELETE', `/api/logging/environment-folders/${folder.id}`, {
      query: { recursive: true },
    });
    expect(result.status).toBe(200);
    expectError(await gateway.call('GET', `/api/logging/environments/${env.id}`), 404, 'NOT_FOUND');
  });

  it('needs a token (401) and logging:manage to change (403)', async () => {
    expectError(
      await gateway.call('POST', '/api/logging/environments', { body: { name: 'x' }, token: null }),
      401,
      'UNAUTHORIZED',
    );
    expectError(
      await gateway.call('POST', '/api/logging/environments', { body: { name: 'x' }, token: viewer }),
      403,
      'FORBIDDEN',
    );
    expect((await gateway.call('GET', '/api/logging/environments', { token: viewer })).status).toBe(200);
  });
});

const itemMoves = [
  {
    label: 'POST /api/logging/environment-folders/move-environments',
    url: '/api/logging/environment-folders/move-environments',
    key: 'environments',
    folder: environmentFolder,
    item: environment,
    itemUrl: '/api/logging/environments',
  },
  {
    label: 'POST /api/logging/schema-folders/move-schemas',
    url: '/api/logging/schema-folders/move-schemas',
    key: 'schemas',
    folder: schemaFolder,
    item: schema,
    itemUrl: '/api/logging/schemas',
  },
] as const;

describe.each(itemMoves)('$label', ({ url, key, folder, item, itemUrl }) => {
  const folderOf = async (id: string) => (await gateway.call('GET', `${itemUrl}/${id}`)).body.data.folderId;

  it('moves every listed item into the folder and answers them with the new folderId', async () => {
    const target = await folder();
    const [a, b] = [await item(), await item()];
    const result = await gateway.call('POST', url, { body: { ids: [a.id, b.id], folderId: target.id } });
    expect(result.status).toBe(200);
    expect(result.body.data.folderId).toBe(target.id);
    expect(result.body.data[key].map((row: { id: string }) => row.id).sort()).toEqual([a.id, b.id].sort());
    expect(result.body.data[key].map((row: { folderId: string }) => row.folderId)).toEqual([
      target.id,
      target.id,
    ]);
    expect(await folderOf(a.id)).toBe(target.id);
  });

  it('moves items back to the top level with folderId null', async () => {
    const source = await folder();
    const a = await item({ folderId: source.id });
    const result = await gateway.call('POST', url, { body: { ids: [a.id], folderId: null } });
    expect(result.status).toBe(200);
    expect(await folderOf(a.id)).toBeNull();
  });

  it('moves nothing when one id is unknown, and names the missing ids in a 404', async () => {
    const target = await folder();
    const a = await item();
    const result = await gateway.call('POST', url, {
      body: { ids: [a.id, UNKNOWN, 'nope'], folderId: target.id },
    });
    expectError(result, 404, 'NOT_FOUND');
    expect(result.body.details).toEqual({ missingIds: [UNKNOWN, 'nope'] });
    expect(await folderOf(a.id)).toBeNull();
  });

  it('answers 404 naming an unknown target folder', async () => {
    const a = await item();
    const result = await gateway.call('POST', url, { body: { ids: [a.id], folderId: UNKNOWN } });
    expectError(result, 404, 'NOT_FOUND');
    expect(result.body.details).toEqual({ folderId: UNKNOWN });
  });

  it('moves nothing when one name is already used in the target folder (409)', async () => {
    const target = await folder();
    const a = await item();
    const b = await item();
    await item({ name: b.name, folderId: target.id });
    const result = await gateway.call('POST', url, { body: { ids: [a.id, b.id], folderId: target.id } });
    expectError(result, 409, 'CONFLICT');
    expect(result.body.details).toMatchObject({ reason: 'NAME_TAKEN', names: [b.name] });
    expect(await folderOf(a.id)).toBeNull();
  });

  it('refuses a malformed folderId, a missing folderId or missing ids with 400', async () => {
    expectValidationError(await gateway.call('POST', url, { body: { ids: [], folderId: 'x' } }), [
      'folderId',
    ]);
    expectValidationError(await gateway.call('POST', url, { body: { ids: [] } }), ['folderId']);
    expectValidationError(await gateway.call('POST', url, { body: { folderId: null } }), ['ids']);
    expectValidationError(await gateway.call('POST', url, { body: { ids: 'x', folderId: null } }), ['ids']);
  });

  it('refuses more than 1000 ids with 400', async () => {
    const ids = Array.from({ length: 1001 }, (_, index) => `id-${index}`);
    expectValidationError(await gateway.call('POST', url, { body: { ids, folderId: null } }), ['ids']);
  });

  it('needs a token (401) and logging:manage (403)', async () => {
    expectError(
      await gateway.call('POST', url, { body: { ids: [], folderId: null }, token: null }),
      401,
      'UNAUTHORIZED',
    );
    expectError(
      await gateway.call('POST', url, { body: { ids: [], folderId: null }, token: viewer }),
      403,
      'FORBIDDEN',
    );
  });

  it('records one audit event per moved item with its old and new folder', async () => {
    const target = await folder();
    const a = await item();
    await gateway.call('POST', url, { body: { ids: [a.id], folderId: target.id } });
    const events = await auditEventsAbout(gateway, a.id);
    expect(events.at(-1)?.metadata).toMatchObject({ fromFolderId: null, toFolderId: target.id });
  });
});

describeResourceScopes(() => gateway, {
  area: 'logging',
  list: '/api/logging/environments',
  read: (id) => `/api/logging/environments/${id}`,
  create: async () => (await environment()).id,
});
