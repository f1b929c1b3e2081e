import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, containerhostRegistryCredentials } from '../../src/db/schema/index.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

// Registry credentials stored per node for its pulls: write-only passwords, sealed at rest.
const MISSING = '00000000-0000-4000-8000-000000000000';
const PASSWORD = 'registry-password-never-shown';
let gateway: TestGateway;
let nodeId: string;

beforeAll(async () => {
  gateway = await startTestGateway();
  const node = await gateway.call('POST', '/api/containerhost/nodes', {
    body: { name: 'local', endpoint: 'unix:///run/infragate-test/none.sock' },
  });
  nodeId = node.body.data.id;
});
afterAll(() => gateway.close());

const path = (registry = '', node = nodeId) =>
  `/api/containerhost/nodes/${node}/registry-credentials${registry ? `/${registry}` : ''}`;
const save = (registry: string, body: unknown = { username: 'ci', password: PASSWORD }, node = nodeId) =>
  gateway.call('PUT', path(registry, node), { body });

describe('registry credentials (/nodes/:nodeId/registry-credentials)', () => {
  it('stores credentials and answers the registry and username, never the password', async () => {
    const result = await save('registry.example:5000');
    expect(result.status).toBe(200);
    expect(result.body.data).toEqual({
      registry: 'registry.example:5000',
      username: 'ci',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(result.text).not.toContain(PASSWORD);
  });

  it('keeps the password sealed at rest', async () => {
    const [row] = await gateway.deps.db.select().from(containerhostRegistryCredentials);
    expect(row?.passwordSealed).toBeTruthy();
    expect(row?.passwordSealed).not.toContain(PASSWORD);
  });

  it('replaces the credentials of a registry saved again', async () => {
    await save('registry.example:5000', { username: 'deploy', password: PASSWORD });
    const list = await gateway.call('GET', path());
    expect(list.body.data.map((c: { username: string }) => c.username)).toEqual(['deploy']);
  });

  it("stores Docker Hub's host names as docker.io", async () => {
    expect((await save('index.docker.io')).body.data.registry).toBe('docker.io');
  });

  it('lists them by registry, paginated', async () => {
    const result = await gateway.call('GET', path(), { query: { limit: 1 } });
    expect(result.body.data.map((c: { registry: string }) => c.registry)).toEqual(['docker.io']);
    expect(result.body.pagination).toEqual({ page: 1, limit: 1, total: 2, totalPages: 2 });
    expect(result.text).not.toContain(PASSWORD);
  });

  it('records saves and deletions without the password', async () => {
    expect((await gateway.call('DELETE', path('docker.io'))).body).toEqual({ success: true });
    const events = await gateway.deps.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.targetType, 'containerhost_registry_credential'))
      .orderBy(auditEvents.entry);
    expect(events.map((event) => event.action)).toEqual([
      'containerhost.registry_credential.saved',
      'containerhost.registry_credential.saved',
      'containerhost.registry_credential.saved',
      'containerhost.registry_credential.deleted',
    ]);
    expect(JSON.stringify(events)).not.toContain(PASSWORD);
  });

  it('answers 404 for credentials that are not stored', async () => {
    expectError(await gateway.call('DELETE', path('docker.io')), 404, 'NOT_FOUND');
  });

  it('answers 404 for an unknown node', async () => {
    expectError(await save('registry.example', undefined, MISSING), 404, 'NOT_FOUND');
    expectError(await gateway.call('GET', path('', MISSING)), 404, 'NOT_FOUND');
    expectError(await gateway.call('DELETE', path('registry.example', MISSING)), 404, 'NOT_FOUND');
  });

  it('refuses a registry that is no host[:port], an empty username and a missing password', async () => {
    expectValidationError(await save('not%20a%20host'), ['registry']);
    expectValidationError(await save('registry.example', { username: '', password: 'x' }), ['username']);
    expectValidationError(await save('registry.example', { username: 'ci' }), ['password']);
  });

  it('answers 401 without a token, 403 to a viewer changing them and to a caller without the scope', async () => {
    const viewer = await gateway.tokenWithScopes(['containerhost:view']);
    const nobody = await gateway.tokenWithScopes([]);
    expectError(await gateway.call('GET', path(), { token: null }), 401, 'UNAUTHORIZED');
    expectError(await gateway.call('GET', path(), { token: nobody }), 403, 'FORBIDDEN');
    expect((await gateway.call('GET', path(), { token: viewer })).status).toBe(200);
    const body = { username: 'ci', password: PASSWORD };
    expectError(await gateway.call('PUT', path('r.example'), { token: viewer, body }), 403, 'FORBIDDEN');
    expectError(await gateway.call('DELETE', path('r.example'), { token: viewer }), 403, 'FORBIDDEN');
  });

  it('goes with its node when the node is deleted', async () => {
    await gateway.call('DELETE', `/api/containerhost/nodes/${nodeId}`);
    expect(await gateway.deps.db.select().from(containerhostRegistryCredentials)).toEqual([]);
  });
});
