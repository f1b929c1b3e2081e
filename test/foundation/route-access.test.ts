import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

/** The only routes reachable without a token. */
const PUBLIC_ROUTES = [
  /^\/healthz$/,
  /^\/readyz$/,
  /^\/openapi\.json$/,
  /^\/docs/,
  /^\/auth\/login$/,
  /^\/auth\/setup(\/check)?$/,
  /^\/sites\//,
  // The web console's page for every deep link, and (through a Host constraint) the sites on their own hosts.
  /^\/\*$/,
  /^\/assets\/:name$/,
  /^\/\.well-known\/acme-challenge\//,
  /^\/\.well-known\/infragate-domain\//,
  // Ingest takes its own write-only tokens (igl_…), which the ingest routes resolve themselves.
  /^\/api\/logging\/ingest$/,
  /^\/v1\/logs$/,
];

/** The only routes that accept a pages deploy token (`config.credential`), besides API tokens. */
const DEPLOY_TOKEN_ROUTES = new Set([
  'POST /api/pages/:projectId/deployments',
  'GET /api/pages/:projectId/deployments/:deploymentId',
]);

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.close());

const concrete = (url: string) =>
  url.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000').replace(/\*/g, 'x');

describe('route access declarations', () => {
  it('every route declares exactly one scope or is public', () => {
    expect(gateway.app.routeCatalog.length).toBeGreaterThan(10);
    for (const route of gateway.app.routeCatalog) {
      expect(Boolean(route.scope) !== route.public, `${route.method} ${route.url}`).toBe(true);
    }
  });

  it('only the short public list is public', () => {
    const publicRoutes = gateway.app.routeCatalog.filter((route) => route.public);
    for (const route of publicRoutes) {
      expect(
        PUBLIC_ROUTES.some((pattern) => pattern.test(route.url)),
        `${route.method} ${route.url}`,
      ).toBe(true);
    }
  });

  it('a caller without a token gets 401 on every non-public route', async () => {
    for (const route of gateway.app.routeCatalog.filter((r) => !r.public)) {
      const result = await gateway.call(route.method, concrete(route.url), { token: null, body: {} });
      expect({
        route: `${route.method} ${route.url}`,
        status: result.status,
        code: result.body?.code,
      }).toEqual({
        route: `${route.method} ${route.url}`,
        status: 401,
        code: 'UNAUTHORIZED',
      });
    }
  });

  it('a pages deploy token gets 401 on every other non-public route', async () => {
    const project = await gateway.call('POST', '/api/pages', {
      body: { name: 'Access', slug: 'route-access' },
    });
    const issued = await gateway.call('POST', `/api/pages/${project.body.data.id}/deploy-tokens`, {
      body: { name: 'ci' },
    });
    const token = issued.body.data.token as string;
    for (const route of gateway.app.routeCatalog.filter(
      (r) => !r.public && !DEPLOY_TOKEN_ROUTES.has(`${r.method} ${r.url}`),
    )) {
      const result = await gateway.call(route.method, concrete(route.url), { token, body: {} });
      expect({ route: `${route.method} ${route.url}`, status: result.status }).toEqual({
        route: `${route.method} ${route.url}`,
        status: 401,
      });
    }
  });

  it('a caller whose group has no scopes gets 403 on every /api route', async () => {
    const token = await gateway.tokenWithScopes([]);
    for (const route of gateway.app.routeCatalog.filter((r) => !r.public && r.url.startsWith('/api/'))) {
      const result = await gateway.call(route.method, concrete(route.url), { token, body: {} });
      expect({
        route: `${route.method} ${route.url}`,
        status: result.status,
        code: result.body?.code,
      }).toEqual({
        route: `${route.method} ${route.url}`,
        status: 403,
        code: 'FORBIDDEN',
      });
    }
  });
});
