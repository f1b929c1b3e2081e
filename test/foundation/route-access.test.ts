import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

/** The only routes reachable without a token. */
const PUBLIC_ROUTES = [
  /^\/healthz$/,
  /^\/readyz$/,
  /^\/openapi\.json$/,
  /^\/docs/,
  /^\/auth\/login(\/totp(\/enrol)?)?$/,
  // Single sign-on: the providers to offer, the start (a redirect) and the provider's callback.
  /^\/auth\/oidc\/(providers|:providerId\/start|callback)$/,
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
  // Agents: the enrolment token is the body's; the tunnel takes the agent's credential (igwa_…) only.
  /^\/agent\/(enroll|connect)$/,
  // The inference data plane takes its own consumer keys (igk_…), which it resolves itself.
  /^\/inference\//,
];

/** The only routes that accept a pages deploy token (`config.credential`), besides API tokens. */
const DEPLOY_TOKEN_ROUTES = new Set([
  'GET /api/pages/deploy-token',
  'POST /api/pages/:projectId/deployments',
  'GET /api/pages/:projectId/deployments/:deploymentId',
]);

/** Where each area's resources are: every route below one is checked against the caller's resource scopes. */
const RESOURCE_PATHS: Record<string, RegExp> = {
  containerhost: /^\/api\/containerhost\/nodes\/:nodeId(\/|$)/,
  databases: /^\/api\/databases\/:id(\/|$)/,
  logging: /^\/api\/logging\/environments\/:id(\/|$)/,
  pages: /^\/api\/pages\/:projectId(\/|$)/,
  nodes: /^\/api\/nodes\/:id(\/|$)/,
  certificates: /^\/api\/ssl-certificates\/:id(\/|$)/,
  integrations: /^\/api\/integrations\/repohost\/connectors\/:id(\/|$)/,
  inference: /^\/api\/inference\/connections\/:id(\/|$)/,
};

/** The reads that answer a caller with resource scopes only what those scopes name. */
const VISIBLE_ONLY_READS = new Set([
  'GET /api/containerhost/nodes',
  'GET /api/containerhost/health-checks',
  'GET /api/databases',
  'GET /api/logging/environments',
  'GET /api/pages',
  'GET /api/pages/by-slug/:slug',
  'GET /api/nodes',
  'GET /api/ssl-certificates',
  'GET /api/integrations/repohost/connectors',
  'GET /api/inference/connections',
]);

/** Reads over several resources the query names (required), each one the caller may view or 404. */
const READS_ACROSS_NAMED_RESOURCES = new Set(['GET /api/logging/search']);

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.close());

const withoutTrailingSlash = (url: string) => url.replace(/(.)\/$/, '$1');

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

  it('a caller whose scopes name one other resource in every area gets 404 below resources, the visible-only reads, and 403 elsewhere', async () => {
    const scopes = Object.keys(RESOURCE_PATHS).map((area) => `${area}:*:${crypto.randomUUID()}`);
    const token = await gateway.tokenWithScopes(scopes);
    for (const route of gateway.app.routeCatalog.filter((r) => !r.public && r.url.startsWith('/api/'))) {
      const url = withoutTrailingSlash(route.url);
      const name = `${route.method} ${url}`;
      const area = route.scope?.split(':')[0] ?? '';
      const result = await gateway.call(route.method, concrete(url), { token, body: {} });
      const outcome = { route: name, status: result.status, code: result.body?.code };
      if (RESOURCE_PATHS[area]?.test(url)) {
        // The body {} may be invalid, and validation comes first; a valid request is 404.
        if (result.status !== 404) expect(outcome).toMatchObject({ code: 'VALIDATION_ERROR' });
      } else if (READS_ACROSS_NAMED_RESOURCES.has(name)) {
        expect(outcome).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
      } else if (VISIBLE_ONLY_READS.has(name)) {
        expect(outcome).toMatchObject({ status: name.includes(':slug') ? 404 : 200 });
        if (result.status === 200)
          expect({ route: name, data: result.body.data }).toEqual({ route: name, data: [] });
      } else expect(outcome).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    }
  });
});
