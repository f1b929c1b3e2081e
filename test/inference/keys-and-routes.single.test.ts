import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, inferenceKeys } from '../../src/db/schema/index.js';
import { keyAllowsModel } from '../../src/modules/inference/consumer-keys.js';
import { weightedOrder } from '../../src/modules/inference/model-routes.js';
import { type ModelListServer, startModelListServer } from '../services/model-list-server.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { writeTestCatalog } from './helpers.js';

let gateway: TestGateway;
let models: ModelListServer;
let connectionId: string;
let otherConnectionId: string;

beforeAll(async () => {
  models = await startModelListServer({ apiKeys: [] });
  gateway = await startTestGateway({ inferenceCatalogPath: writeTestCatalog({ modelsUrl: models.url }) });
  const create = async (name: string) =>
    (
      await gateway.call('POST', '/api/inference/connections', {
        body: { providerId: 'test-local', name, authType: 'local' },
      })
    ).body.data.id as string;
  connectionId = await create('local-a');
  otherConnectionId = await create('local-b');
});
afterAll(async () => {
  await gateway?.close();
  await models?.close();
});

let counter = 0;
const unique = (prefix: string) => `${prefix}-${++counter}`;
const future = () => new Date(Date.now() + 3600_000).toISOString();

describe('POST /api/inference/keys', () => {
  it('answers the igk_ key once and stores only its hash', async () => {
    const result = await gateway.call('POST', '/api/inference/keys', {
      body: { name: unique('team'), models: ['gpt-*', 'local-a/llama'], expiresAt: future() },
    });
    expect(result.status).toBe(201);
    const { key, id, keyPrefix, models: patterns } = result.body.data;
    expect(key).toMatch(/^igk_[A-Za-z0-9_-]{43}$/);
    expect(key.startsWith(keyPrefix)).toBe(true);
    expect(patterns).toEqual(['gpt-*', 'local-a/llama']);
    const [row] = await gateway.deps.db.select().from(inferenceKeys).where(eq(inferenceKeys.id, id));
    expect(JSON.stringify(row)).not.toContain(key);
    const shown = await gateway.call('GET', `/api/inference/keys/${id}`);
    expect(shown.body.data.key).toBeUndefined();
    const audit = await gateway.deps.db.select().from(auditEvents).where(eq(auditEvents.targetId, id));
    expect(audit.map((event) => event.action)).toEqual(['inference.key.created']);
    expect(JSON.stringify(audit)).not.toContain(key);
  });

  it('refuses a past expiry, a blank name and a name in use', async () => {
    expectValidationError(
      await gateway.call('POST', '/api/inference/keys', {
        body: { name: unique('k'), expiresAt: '2000-01-01T00:00:00Z' },
      }),
      ['expiresAt'],
    );
    expectValidationError(await gateway.call('POST', '/api/inference/keys', { body: { name: '  ' } }), [
      'name',
    ]);
    const name = unique('taken');
    await gateway.call('POST', '/api/inference/keys', { body: { name } });
    const again = await gateway.call('POST', '/api/inference/keys', { body: { name } });
    expectError(again, 409, 'CONFLICT');
    expect(again.body.details.reason).toBe('KEY_NAME_TAKEN');
  });

  it('refuses more than 100 model patterns and a pattern with spaces', async () => {
    const many = Array.from({ length: 101 }, (_, i) => `m${i}`);
    expectValidationError(
      await gateway.call('POST', '/api/inference/keys', { body: { name: unique('k'), models: many } }),
      ['models'],
    );
    expectValidationError(
      await gateway.call('POST', '/api/inference/keys', { body: { name: unique('k'), models: ['a b'] } }),
      ['models', 0],
    );
  });

  it('needs a token (401) and inference:manage (403)', async () => {
    const body = { name: unique('k') };
    expectError(
      await gateway.call('POST', '/api/inference/keys', { token: null, body }),
      401,
      'UNAUTHORIZED',
    );
    const viewer = await gateway.tokenWithScopes(['inference:view']);
    expectError(await gateway.call('POST', '/api/inference/keys', { token: viewer, body }), 403, 'FORBIDDEN');
  });
});

describe('consumer key lifecycle', () => {
  it('lists keys (live or revoked), renames one, and revokes it', async () => {
    const created = (await gateway.call('POST', '/api/inference/keys', { body: { name: unique('life') } }))
      .body.data;
    const renamed = await gateway.call('PATCH', `/api/inference/keys/${created.id}`, {
      body: { name: unique('renamed'), models: ['x/*'], expiresAt: null },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ models: ['x/*'], expiresAt: null });
    expect((await gateway.call('DELETE', `/api/inference/keys/${created.id}`)).body).toEqual({
      success: true,
    });
    const revoked = await gateway.call('GET', '/api/inference/keys', { query: { revoked: true } });
    expect(revoked.body.data.map((key: { id: string }) => key.id)).toContain(created.id);
    const live = await gateway.call('GET', '/api/inference/keys', { query: { revoked: false } });
    expect(live.body.data.map((key: { id: string }) => key.id)).not.toContain(created.id);
  });

  it('answers 404 for an unknown key on show, change and revoke', async () => {
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const result = await gateway.call(method, '/api/inference/keys/00000000-0000-4000-8000-000000000000', {
        ...(method === 'PATCH' ? { body: { name: 'x' } } : {}),
      });
      expectError(result, 404, 'NOT_FOUND');
    }
    expectError(await gateway.call('GET', '/api/inference/keys/not-a-uuid'), 404, 'NOT_FOUND');
  });

  it('a consumer key is not a credential of /api', async () => {
    const { key } = (await gateway.call('POST', '/api/inference/keys', { body: { name: unique('api') } }))
      .body.data;
    expectError(await gateway.call('GET', '/api/inference/keys', { token: key }), 401, 'UNAUTHORIZED');
  });

  it('lets inference:view list and show but not change', async () => {
    const viewer = await gateway.tokenWithScopes(['inference:view']);
    expect((await gateway.call('GET', '/api/inference/keys', { token: viewer })).status).toBe(200);
    const none = await gateway.tokenWithScopes([]);
    expectError(await gateway.call('GET', '/api/inference/keys', { token: none }), 403, 'FORBIDDEN');
  });
});

describe('model globs', () => {
  it('match whole names with * and ?; null allows every model', () => {
    expect(keyAllowsModel(['gpt-*'], 'gpt-4o')).toBe(true);
    expect(keyAllowsModel(['gpt-*'], 'my-gpt-4o')).toBe(false);
    expect(keyAllowsModel(['model-?'], 'model-a')).toBe(true);
    expect(keyAllowsModel(['a.b'], 'aXb')).toBe(false);
    expect(keyAllowsModel(null, 'anything')).toBe(true);
    expect(keyAllowsModel([], 'anything')).toBe(false);
  });
});

describe('/api/inference/routes', () => {
  it('creates a route with ordered targets and answers them with their connection', async () => {
    const result = await gateway.call('POST', '/api/inference/routes', {
      body: {
        model: unique('chat'),
        targets: [
          { connectionId, upstreamModel: 'llama-3' },
          { connectionId: otherConnectionId, upstreamModel: 'qwen', priority: 1, weight: 2 },
        ],
      },
    });
    expect(result.status).toBe(201);
    expect(result.body.data.targets).toEqual([
      {
        connectionId,
        connectionName: 'local-a',
        wireProtocol: 'vendor1-chat',
        upstreamModel: 'llama-3',
        priority: 0,
        weight: 1,
      },
      {
        connectionId: otherConnectionId,
        connectionName: 'local-b',
        wireProtocol: 'vendor1-chat',
        upstreamModel: 'qwen',
        priority: 1,
        weight: 2,
      },
    ]);
  });

  it('replaces the targets, renames, lists and deletes a route', async () => {
    const created = (
      await gateway.call('POST', '/api/inference/routes', {
        body: { model: unique('r'), targets: [{ connectionId, upstreamModel: 'a' }] },
      })
    ).body.data;
    const model = unique('renamed');
    const changed = await gateway.call('PATCH', `/api/inference/routes/${created.id}`, {
      body: { model, targets: [{ connectionId: otherConnectionId, upstreamModel: 'b' }] },
    });
    expect(changed.body.data).toMatchObject({
      model,
      targets: [{ connectionId: otherConnectionId, upstreamModel: 'b' }],
    });
    const listed = await gateway.call('GET', '/api/inference/routes', { query: { limit: 100 } });
    expect(listed.body.data.map((route: { model: string }) => route.model)).toContain(model);
    expect((await gateway.call('DELETE', `/api/inference/routes/${created.id}`)).status).toBe(200);
    expectError(await gateway.call('GET', `/api/inference/routes/${created.id}`), 404, 'NOT_FOUND');
  });

  it('refuses an unknown connection, no targets, a model with spaces and a model in use', async () => {
    expectValidationError(
      await gateway.call('POST', '/api/inference/routes', {
        body: {
          model: unique('r'),
          targets: [
            { connectionId, upstreamModel: 'a' },
            { connectionId: '00000000-0000-4000-8000-000000000000', upstreamModel: 'a' },
          ],
        },
      }),
      ['targets', 1, 'connectionId'],
    );
    expectValidationError(
      await gateway.call('POST', '/api/inference/routes', { body: { model: unique('r'), targets: [] } }),
      ['targets'],
    );
    expectValidationError(
      await gateway.call('POST', '/api/inference/routes', {
        body: { model: 'a b', targets: [{ connectionId, upstreamModel: 'a' }] },
      }),
      ['model'],
    );
    const model = unique('taken');
    const body = { model, targets: [{ connectionId, upstreamModel: 'a' }] };
    await gateway.call('POST', '/api/inference/routes', { body });
    const again = await gateway.call('POST', '/api/inference/routes', { body });
    expectError(again, 409, 'CONFLICT');
    expect(again.body.details.reason).toBe('ROUTE_MODEL_TAKEN');
  });

  it('needs inference:manage to change routes (403) and a token (401)', async () => {
    const body = { model: unique('r'), targets: [{ connectionId, upstreamModel: 'a' }] };
    expectError(
      await gateway.call('POST', '/api/inference/routes', { token: null, body }),
      401,
      'UNAUTHORIZED',
    );
    const viewer = await gateway.tokenWithScopes(['inference:view']);
    expectError(
      await gateway.call('POST', '/api/inference/routes', { token: viewer, body }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('target order', () => {
  it('tries lower priorities first and draws equal priorities by weight', () => {
    const targets = [
      { name: 'a', priority: 0, weight: 1 },
      { name: 'b', priority: 0, weight: 3 },
      { name: 'c', priority: 5, weight: 1 },
    ];
    expect(weightedOrder(targets, () => 0).map((t) => t.name)).toEqual(['a', 'b', 'c']);
    expect(weightedOrder(targets, () => 0.5).map((t) => t.name)).toEqual(['b', 'a', 'c']);
  });
});
