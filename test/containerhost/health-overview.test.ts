import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containerhostHealthResults } from '../../src/db/schema/index.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

// The overview of every saved health check across nodes with its latest status. Checks are saved through
// the API; their results are written as the background job writes them.
const OVERVIEW = '/api/containerhost/health-checks';
let gateway: TestGateway;
const nodes: Record<string, string> = {};

async function result(
  checkId: string,
  status: 'online' | 'offline',
  checkedAt: string,
  httpStatus: number | null,
) {
  await gateway.deps.db.insert(containerhostHealthResults).values({
    checkId,
    ok: status === 'online',
    status,
    httpStatus,
    responseMs: httpStatus ? 12 : null,
    slow: false,
    bodyMatched: null,
    url: 'http://127.0.0.1:8080/',
    error: status === 'offline' ? 'connection refused' : null,
    checkedAt: new Date(checkedAt),
  });
}

beforeAll(async () => {
  gateway = await startTestGateway();
  for (const name of ['alpha', 'beta']) {
    const node = await gateway.call('POST', '/api/containerhost/nodes', {
      body: { name, endpoint: `unix:///run/infragate-test/${name}.sock` },
    });
    nodes[name] = node.body.data.id;
  }
  const save = async (node: string, container: string, body: Record<string, unknown> = {}) =>
    (
      await gateway.call(
        'PUT',
        `/api/containerhost/nodes/${nodes[node]}/containers/${container}/health-check`,
        {
          body: { hostPort: 8080, ...body },
        },
      )
    ).body.data.id as string;
  const web = await save('alpha', 'web');
  await save('alpha', 'db');
  const cache = await save('beta', 'cache', { enabled: false });
  const api = await save('beta', 'api');
  await result(web, 'offline', '2026-01-01T10:00:00Z', null);
  await result(web, 'online', '2026-01-01T10:00:30Z', 200);
  await result(cache, 'online', '2026-01-01T09:00:00Z', 200);
  await result(api, 'offline', '2026-01-01T10:00:30Z', null);
});
afterAll(() => gateway.close());

const overview = (query: Record<string, string | number> = {}) => gateway.call('GET', OVERVIEW, { query });
const summary = (data: { nodeName: string; containerName: string; status: string }[]) =>
  data.map((item) => `${item.nodeName}/${item.containerName}: ${item.status}`);

describe('health-check overview (GET /api/containerhost/health-checks)', () => {
  it('lists every saved check across nodes with its latest status', async () => {
    const result = await overview();
    expect(result.status).toBe(200);
    expect(summary(result.body.data)).toEqual([
      'alpha/db: unknown',
      'alpha/web: online',
      'beta/api: offline',
      'beta/cache: disabled',
    ]);
  });

  it("answers the latest result's details", async () => {
    const web = (await overview({ status: 'online' })).body.data[0];
    expect(web).toMatchObject({
      nodeId: nodes.alpha,
      enabled: true,
      lastCheckedAt: '2026-01-01T10:00:30.000Z',
      httpStatus: 200,
      responseMs: 12,
      error: null,
      intervalSeconds: 30,
    });
    const api = (await overview({ status: 'offline' })).body.data[0];
    expect(api).toMatchObject({ containerName: 'api', error: 'connection refused', httpStatus: null });
  });

  it('filters by status', async () => {
    expect(summary((await overview({ status: 'unknown' })).body.data)).toEqual(['alpha/db: unknown']);
    expect(summary((await overview({ status: 'disabled' })).body.data)).toEqual(['beta/cache: disabled']);
    expect((await overview({ status: 'degraded' })).body.data).toEqual([]);
  });

  it('filters by node, with matching totals', async () => {
    const result = await overview({ nodeId: nodes.beta! });
    expect(summary(result.body.data)).toEqual(['beta/api: offline', 'beta/cache: disabled']);
    expect(result.body.pagination.total).toBe(2);
  });

  it('pages with the shared envelope', async () => {
    const result = await overview({ limit: 3, page: 2 });
    expect(summary(result.body.data)).toEqual(['beta/cache: disabled']);
    expect(result.body.pagination).toEqual({ page: 2, limit: 3, total: 4, totalPages: 2 });
  });

  it('refuses an unknown status and a node id that is not a UUID with 400', async () => {
    expectValidationError(await overview({ status: 'up' }), ['status']);
    expectValidationError(await overview({ nodeId: 'alpha' }), ['nodeId']);
  });

  it('answers 401 without a token and 403 without containerhost:view', async () => {
    expectError(await gateway.call('GET', OVERVIEW, { token: null }), 401, 'UNAUTHORIZED');
    const nobody = await gateway.tokenWithScopes([]);
    expectError(await gateway.call('GET', OVERVIEW, { token: nobody }), 403, 'FORBIDDEN');
  });
});

describe('the overview for a caller holding one node', () => {
  it('shows only the checks of that node, with a matching total', async () => {
    const token = await gateway.tokenWithScopes([`containerhost:view:${nodes.alpha}`]);
    const result = await gateway.call('GET', OVERVIEW, { token });
    expect(summary(result.body.data)).toEqual(['alpha/db: unknown', 'alpha/web: online']);
    expect(result.body.pagination).toMatchObject({ total: 2, totalPages: 1 });
  });

  it('shows nothing when filtered by another node', async () => {
    const token = await gateway.tokenWithScopes([`containerhost:view:${nodes.alpha}`]);
    const result = await gateway.call('GET', OVERVIEW, { token, query: { nodeId: nodes.beta! } });
    expect(result.body).toMatchObject({ data: [], pagination: { total: 0 } });
  });

  it("answers 404 for a check on another node's container", async () => {
    const token = await gateway.tokenWithScopes([`containerhost:view:${nodes.alpha}`]);
    const path = `/api/containerhost/nodes/${nodes.beta}/containers/api/health-check`;
    expectError(await gateway.call('GET', path, { token }), 404, 'NOT_FOUND');
    const own = `/api/containerhost/nodes/${nodes.alpha}/containers/web/health-check`;
    expect((await gateway.call('GET', own, { token })).status).toBe(200);
  });
});
