import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, inferenceConnections } from '../../src/db/schema/index.js';
import { type ModelListServer, startModelListServer } from '../services/model-list-server.js';
import { describeBoundaryScope } from '../support/boundary-scopes.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { describeResourceScopes } from '../support/resource-scopes.js';
import { API_KEY, writeTestCatalog } from './helpers.js';

let gateway: TestGateway;
let models: ModelListServer;

beforeAll(async () => {
  models = await startModelListServer({ apiKeys: [API_KEY], openPaths: ['/other/models'] });
  gateway = await startTestGateway({ inferenceCatalogPath: writeTestCatalog({ modelsUrl: models.url }) });
});
afterAll(async () => {
  await gateway?.close();
  await models?.close();
});

let counter = 0;
const uniqueName = (prefix: string) => `${prefix} ${++counter}`;

async function create(body: Record<string, unknown>) {
  return gateway.call('POST', '/api/inference/connections', { body });
}

async function createApiKeyConnection(name = uniqueName('api')) {
  const result = await create({ providerId: 'test-api', name, authType: 'api_key', apiKey: API_KEY });
  expect(result.status).toBe(201);
  return result.body.data;
}

describe('POST /api/inference/connections', () => {
  it('creates an API-key connection, answering 201 without the key', async () => {
    const result = await create({
      providerId: 'test-api',
      name: 'Team key',
      authType: 'api_key',
      apiKey: API_KEY,
    });
    expect(result.status).toBe(201);
    expect(result.body.data).toMatchObject({
      providerId: 'test-api',
      providerLabel: 'Test API',
      name: 'Team key',
      authType: 'api_key',
      baseUrl: null,
      effectiveBaseUrl: models.url,
      hasApiKey: true,
      hasAccessToken: false,
    });
    expect(result.text).not.toContain(API_KEY);
  });

  it('stores the API key encrypted and never puts it in the audit trail', async () => {
    const connection = await createApiKeyConnection();
    const [row] = await gateway.deps.db
      .select()
      .from(inferenceConnections)
      .where(eq(inferenceConnections.id, connection.id));
    expect(row!.apiKeySealed).toMatch(/^v1\./);
    expect(row!.apiKeySealed).not.toContain(API_KEY);
    const audit = await gateway.deps.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.targetId, connection.id));
    expect(audit.map((event) => event.action)).toContain('inference.connection.created');
    expect(JSON.stringify(audit)).not.toContain(API_KEY);
  });

  it('creates a local connection with a base URL override where the catalog allows it', async () => {
    const result = await create({
      providerId: 'test-local',
      name: uniqueName('local'),
      authType: 'local',
      baseUrl: `${models.url}/other`,
    });
    expect(result.status).toBe(201);
    expect(result.body.data).toMatchObject({
      authType: 'local',
      baseUrl: `${models.url}/other`,
      hasApiKey: false,
    });
  });

  it('refuses a base URL override where the catalog does not allow it', async () => {
    const result = await create({
      providerId: 'test-api',
      name: uniqueName('x'),
      authType: 'api_key',
      apiKey: API_KEY,
      baseUrl: 'http://127.0.0.1:1',
    });
    expectValidationError(result, ['baseUrl']);
  });

  it('refuses a base URL that is not http(s)', async () => {
    const result = await create({
      providerId: 'test-local',
      name: uniqueName('x'),
      authType: 'local',
      baseUrl: 'file:///etc/passwd',
    });
    expectValidationError(result, ['baseUrl']);
  });

  it('refuses an api_key connection without apiKey', async () => {
    expectValidationError(
      await create({ providerId: 'test-api', name: uniqueName('x'), authType: 'api_key' }),
      ['apiKey'],
    );
  });

  it('refuses an authType the provider does not support', async () => {
    expectValidationError(
      await create({ providerId: 'test-api', name: uniqueName('x'), authType: 'local' }),
      ['authType'],
    );
  });

  it('refuses an authType outside oauth, api_key, local', async () => {
    expectValidationError(
      await create({ providerId: 'test-api', name: uniqueName('x'), authType: 'magic' }),
      ['authType'],
    );
  });

  it('refuses an unknown provider', async () => {
    expectValidationError(await create({ providerId: 'nope', name: uniqueName('x'), authType: 'local' }), [
      'providerId',
    ]);
  });

  it('refuses missing fields, a blank name, a name over 255 characters and an API key over 8192', async () => {
    expectValidationError(await create({}), ['providerId']);
    expectValidationError(await create({ providerId: 'test-local', authType: 'local' }), ['name']);
    expectValidationError(await create({ providerId: 'test-local', name: '   ', authType: 'local' }), [
      'name',
    ]);
    expectValidationError(
      await create({ providerId: 'test-local', name: 'n'.repeat(256), authType: 'local' }),
      ['name'],
    );
    expectValidationError(
      await create({
        providerId: 'test-api',
        name: uniqueName('x'),
        authType: 'api_key',
        apiKey: 'k'.repeat(8193),
      }),
      ['apiKey'],
    );
  });

  it('refuses a duplicate name with 409', async () => {
    const connection = await createApiKeyConnection();
    const result = await create({ providerId: 'test-local', name: connection.name, authType: 'local' });
    expectError(result, 409, 'CONFLICT');
    expect(result.body.details.reason).toBe('CONNECTION_NAME_TAKEN');
  });

  it('needs a token (401) and inference:manage (403)', async () => {
    const body = { providerId: 'test-local', name: uniqueName('x'), authType: 'local' };
    expectError(
      await gateway.call('POST', '/api/inference/connections', { token: null, body }),
      401,
      'UNAUTHORIZED',
    );
    const viewer = await gateway.tokenWithScopes(['inference:view']);
    expectError(
      await gateway.call('POST', '/api/inference/connections', { token: viewer, body }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('GET /api/inference/connections', () => {
  it('lists connections by name with pagination and filters', async () => {
    const connection = await createApiKeyConnection(uniqueName('zz-listed'));
    const result = await gateway.call('GET', '/api/inference/connections', {
      query: { providerId: 'test-api', q: 'zz-listed', limit: 5 },
    });
    expect(result.status).toBe(200);
    expect(result.body.data.map((c: { id: string }) => c.id)).toContain(connection.id);
    expect(new Set(result.body.data.map((c: { providerId: string }) => c.providerId))).toEqual(
      new Set(['test-api']),
    );
    expect(result.body.pagination).toMatchObject({ page: 1, limit: 5 });
  });

  it('refuses a limit over 100', async () => {
    const result = await gateway.call('GET', '/api/inference/connections', { query: { limit: 101 } });
    expectError(result, 400, 'VALIDATION_ERROR');
  });

  it('answers one connection by id, and 404 for an unknown id', async () => {
    const connection = await createApiKeyConnection();
    const result = await gateway.call('GET', `/api/inference/connections/${connection.id}`);
    expect(result.body.data).toEqual(connection);
    expectError(
      await gateway.call('GET', '/api/inference/connections/00000000-0000-4000-8000-000000000000'),
      404,
      'NOT_FOUND',
    );
  });

  it('needs inference:view (403 without it)', async () => {
    const none = await gateway.tokenWithScopes([]);
    expectError(await gateway.call('GET', '/api/inference/connections', { token: none }), 403, 'FORBIDDEN');
    const viewer = await gateway.tokenWithScopes(['inference:view']);
    expect((await gateway.call('GET', '/api/inference/connections', { token: viewer })).status).toBe(200);
  });
});

describe('PATCH and DELETE /api/inference/connections/{id}', () => {
  it('renames and replaces the API key', async () => {
    const connection = await createApiKeyConnection();
    const name = uniqueName('renamed');
    const result = await gateway.call('PATCH', `/api/inference/connections/${connection.id}`, {
      body: { name, apiKey: 'sk-other' },
    });
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({ name, hasApiKey: true });
    expect(result.text).not.toContain('sk-other');
  });

  it('refuses removing the key of an api_key connection', async () => {
    const connection = await createApiKeyConnection();
    expectValidationError(
      await gateway.call('PATCH', `/api/inference/connections/${connection.id}`, { body: { apiKey: null } }),
      ['apiKey'],
    );
  });

  it('resets a base URL override with null', async () => {
    const created = await create({
      providerId: 'test-local',
      name: uniqueName('local'),
      authType: 'local',
      baseUrl: 'http://127.0.0.1:9/v1',
    });
    const result = await gateway.call('PATCH', `/api/inference/connections/${created.body.data.id}`, {
      body: { baseUrl: null },
    });
    expect(result.body.data).toMatchObject({ baseUrl: null, effectiveBaseUrl: `${models.url}/v1` });
  });

  it('refuses renaming to a taken name with 409, and answers 404 for an unknown id', async () => {
    const first = await createApiKeyConnection();
    const second = await createApiKeyConnection();
    expectError(
      await gateway.call('PATCH', `/api/inference/connections/${second.id}`, { body: { name: first.name } }),
      409,
      'CONFLICT',
    );
    expectError(
      await gateway.call('PATCH', '/api/inference/connections/00000000-0000-4000-8000-000000000000', {
        body: { name: 'x' },
      }),
      404,
      'NOT_FOUND',
    );
  });

  it('deletes a connection, then answers 404 for it', async () => {
    const connection = await createApiKeyConnection();
    const result = await gateway.call('DELETE', `/api/inference/connections/${connection.id}`);
    expect(result.body).toEqual({ success: true });
    expectError(await gateway.call('GET', `/api/inference/connections/${connection.id}`), 404, 'NOT_FOUND');
    expectError(
      await gateway.call('DELETE', `/api/inference/connections/${connection.id}`),
      404,
      'NOT_FOUND',
    );
  });

  it('needs inference:manage to change or delete', async () => {
    const connection = await createApiKeyConnection();
    const viewer = await gateway.tokenWithScopes(['inference:view']);
    expectError(
      await gateway.call('PATCH', `/api/inference/connections/${connection.id}`, {
        token: viewer,
        body: { name: 'x' },
      }),
      403,
      'FORBIDDEN',
    );
    expectError(
      await gateway.call('DELETE', `/api/inference/connections/${connection.id}`, { token: viewer }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('PATCH /api/inference/connections/{id} to another base URL', () => {
  let elsewhere: ModelListServer;
  beforeAll(async () => {
    elsewhere = await startModelListServer({ apiKeys: [API_KEY, 'sk-sent-again'] });
  });
  afterAll(() => elsewhere?.close());

  const createKeyed = async (baseUrl?: string) => {
    const result = await create({
      providerId: 'test-local',
      name: uniqueName('keyed'),
      authType: 'api_key',
      apiKey: API_KEY,
      ...(baseUrl ? { baseUrl } : {}),
    });
    expect(result.status, result.text).toBe(201);
    return result.body.data.id as string;
  };
  const patch = (id: string, body: Record<string, unknown>) =>
    gateway.call('PATCH', `/api/inference/connections/${id}`, { body });

  it('drops the stored API key when the base URL moves without one, and says so', async () => {
    const id = await createKeyed();
    const result = await patch(id, { baseUrl: `${elsewhere.url}/v1` });
    expect(result.status, result.text).toBe(200);
    expect(result.body.droppedSecrets).toEqual(['apiKey']);
    expect(result.body.data).toMatchObject({ baseUrl: `${elsewhere.url}/v1`, hasApiKey: false });
  });

  it('then refuses a test with 422 NO_API_KEY, sending nothing to the new URL', async () => {
    const id = await createKeyed();
    await patch(id, { baseUrl: `${elsewhere.url}/v1` });
    elsewhere.requests.length = 0;
    const result = await gateway.call('POST', `/api/inference/connections/${id}/test`);
    expectError(result, 422, 'UNPROCESSABLE_ENTITY');
    expect(result.body.details.reason).toBe('NO_API_KEY');
    expect(elsewhere.requests).toEqual([]);
  });

  it('keeps an API key sent in the same change, and the new URL gets that one', async () => {
    const id = await createKeyed();
    const result = await patch(id, { baseUrl: `${elsewhere.url}/v1`, apiKey: 'sk-sent-again' });
    expect(result.body).not.toHaveProperty('droppedSecrets');
    elsewhere.requests.length = 0;
    const test = await gateway.call('POST', `/api/inference/connections/${id}/test`);
    expect(test.body.data).toMatchObject({ ok: true });
    expect(elsewhere.requests[0]!.headers.authorization).toBe('Bearer sk-sent-again');
  });

  it("keeps the key when the catalog's URL is written out, with or without a trailing slash", async () => {
    const id = await createKeyed();
    for (const baseUrl of [`${models.url}/v1`, `${models.url}/v1/`]) {
      const result = await patch(id, { baseUrl });
      expect(result.body, baseUrl).not.toHaveProperty('droppedSecrets');
    }
    expect((await gateway.call('GET', `/api/inference/connections/${id}`)).body.data.hasApiKey).toBe(true);
  });

  it("drops it when an override goes back to the catalog's URL", async () => {
    const id = await createKeyed('http://127.0.0.1:9/v1');
    const result = await patch(id, { baseUrl: null });
    expect(result.body.droppedSecrets).toEqual(['apiKey']);
  });

  it('audits the dropped key by name, never its value', async () => {
    const id = await createKeyed();
    await patch(id, { baseUrl: `${elsewhere.url}/v1` });
    const events = await gateway.deps.db.select().from(auditEvents).where(eq(auditEvents.targetId, id));
    const updated = events.find((event) => event.action === 'inference.connection.updated')!;
    expect(updated.metadata).toMatchObject({ droppedSecrets: ['apiKey'] });
    expect(JSON.stringify(events)).not.toContain(API_KEY);
  });
});

describeBoundaryScope(() => gateway, {
  area: 'inference',
  create: async () => {
    const result = await create({ providerId: 'test-local', name: uniqueName('movable'), authType: 'local' });
    return result.body.data.id;
  },
  path: (id) => `/api/inference/connections/${id}`,
  move: { body: { baseUrl: 'http://127.0.0.1:9/v1' }, fields: ['baseUrl'] },
  rename: { name: 'renamed by its own manager' },
});

describe('POST /api/inference/connections/{id}/test', () => {
  it("lists the provider's models with the API key in the catalog's header", async () => {
    const connection = await createApiKeyConnection();
    const result = await gateway.call('POST', `/api/inference/connections/${connection.id}/test`);
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({
      ok: true,
      url: `${models.url}/v1/models`,
      httpStatus: 200,
      modelCount: 2,
      models: [
        { id: 'model-large', name: 'Large' },
        { id: 'model-small', name: null },
      ],
      error: null,
    });
    const sent = models.requests.at(-1)!;
    expect(sent.headers['x-api-key']).toBe(API_KEY);
    expect(sent.headers['vendor2-version']).toBe('2023-06-01');
    expect(result.text).not.toContain(API_KEY);
    const after = await gateway.call('GET', `/api/inference/connections/${connection.id}`);
    expect(after.body.data).toMatchObject({ lastTestOk: true, lastTestError: null });
  });

  it('reports ok false with the HTTP status when the provider refuses the key', async () => {
    const connection = await createApiKeyConnection();
    await gateway.call('PATCH', `/api/inference/connections/${connection.id}`, {
      body: { apiKey: 'sk-wrong' },
    });
    const result = await gateway.call('POST', `/api/inference/connections/${connection.id}/test`);
    expect(result.body.data).toMatchObject({ ok: false, httpStatus: 401, modelCount: 0 });
    expect(result.body.data.error).toContain('invalid credentials: [redacted]');
    expect(result.text).not.toContain('sk-wrong');
    const audit = await gateway.deps.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.targetId, connection.id));
    expect(JSON.stringify(audit)).not.toContain('sk-wrong');
    expect(
      (await gateway.call('GET', `/api/inference/connections/${connection.id}`)).body.data.lastTestOk,
    ).toBe(false);
  });

  it('tests a local connection at its overridden base URL without credentials', async () => {
    const created = await create({
      providerId: 'test-local',
      name: uniqueName('local'),
      authType: 'local',
      baseUrl: `${models.url}/other`,
    });
    const result = await gateway.call('POST', `/api/inference/connections/${created.body.data.id}/test`);
    expect(result.body.data).toMatchObject({ ok: true, url: `${models.url}/other/models`, modelCount: 2 });
    expect(models.requests.at(-1)!.headers.authorization).toBeUndefined();
  });

  it('reports ok false when the provider cannot be reached', async () => {
    const created = await create({
      providerId: 'test-local',
      name: uniqueName('local'),
      authType: 'local',
      baseUrl: 'http://127.0.0.1:9',
    });
    const result = await gateway.call('POST', `/api/inference/connections/${created.body.data.id}/test`);
    expect(result.body.data).toMatchObject({ ok: false, httpStatus: null });
    expect(result.body.data.error).toContain('failed');
  });

  it('refuses with 422 EGRESS_DENIED when the egress policy forbids the address', async () => {
    const created = await create({
      providerId: 'test-local',
      name: uniqueName('local'),
      authType: 'local',
      baseUrl: 'http://169.254.169.254/latest',
    });
    const result = await gateway.call('POST', `/api/inference/connections/${created.body.data.id}/test`);
    expectError(result, 422, 'UNPROCESSABLE_ENTITY');
    expect(result.body.details.reason).toBe('EGRESS_DENIED');
  });

  it('refuses a provider without modelsPath with 422 MODELS_NOT_SUPPORTED', async () => {
    const created = await create({
      providerId: 'test-no-models',
      name: uniqueName('nm'),
      authType: 'api_key',
      apiKey: API_KEY,
    });
    const result = await gateway.call('POST', `/api/inference/connections/${created.body.data.id}/test`);
    expectError(result, 422, 'UNPROCESSABLE_ENTITY');
    expect(result.body.details.reason).toBe('MODELS_NOT_SUPPORTED');
  });

  it('answers 404 for an unknown connection and 403 without inference:manage', async () => {
    expectError(
      await gateway.call('POST', '/api/inference/connections/00000000-0000-4000-8000-000000000000/test'),
      404,
      'NOT_FOUND',
    );
    const connection = await createApiKeyConnection();
    const viewer = await gateway.tokenWithScopes(['inference:view']);
    expectError(
      await gateway.call('POST', `/api/inference/connections/${connection.id}/test`, { token: viewer }),
      403,
      'FORBIDDEN',
    );
  });

  it('refuses refreshing a connection that is not OAuth with 422 NO_REFRESH_TOKEN', async () => {
    const connection = await createApiKeyConnection();
    const result = await gateway.call('POST', `/api/inference/connections/${connection.id}/refresh`);
    expectError(result, 422, 'UNPROCESSABLE_ENTITY');
    expect(result.body.details.reason).toBe('NO_REFRESH_TOKEN');
  });
});

describeResourceScopes(() => gateway, {
  area: 'inference',
  list: '/api/inference/connections',
  read: (id) => `/api/inference/connections/${id}`,
  create: async () => (await createApiKeyConnection()).id,
});
