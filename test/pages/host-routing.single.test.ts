import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { tarGz } from './archives.js';
import { createProject, deployOk, pagesConfig } from './helpers.js';

const BASE_DOMAIN = 'pages.test';

let gateway: TestGateway;
let siteHost: string;

beforeAll(async () => {
  gateway = await startTestGateway({ pages: pagesConfig({ baseDomain: BASE_DOMAIN }) });
  const project = await createProject(gateway);
  siteHost = `${project.slug}.${BASE_DOMAIN}`;
  await deployOk(
    gateway,
    project.id,
    await tarGz({
      'index.html': 'home',
      '404.html': 'site 404',
      'healthz/index.html': 'a page called healthz',
    }),
  );
});
afterAll(() => gateway.close());

const call = (method: string, url: string, host: string, token: string | null = null) =>
  gateway.call(method, url, { token, headers: { host } });

describe("on a site's host the path space is the site's", () => {
  it('serves the site for paths the gateway uses itself', async () => {
    for (const url of ['/api/pages', '/auth/login', '/sites/anything', '/openapi.json']) {
      const result = await call('GET', url, siteHost, gateway.adminToken);
      expect({ url, status: result.status, text: result.text }).toEqual({
        url,
        status: 404,
        text: 'site 404',
      });
    }
    expect((await call('GET', '/healthz', siteHost)).headers.location).toBe('/healthz/');
    expect((await call('GET', '/healthz/', siteHost)).text).toBe('a page called healthz');
  });

  it('answers other methods with 404, whatever the token', async () => {
    const result = await call('POST', '/api/pages', siteHost, gateway.adminToken);
    expectError(result, 404, 'NOT_FOUND');
    expect(result.body.details.reason).toBe('FILE_NOT_FOUND');
  });

  it('leaves /.well-known/acme-challenge/ to the gateway', async () => {
    const result = await call('GET', '/.well-known/acme-challenge/some-token', siteHost);
    expectError(result, 404, 'NOT_FOUND');
    expect(result.text).not.toBe('site 404');
  });

  it('leaves the domain ownership proof to the gateway', async () => {
    const result = await call('GET', '/.well-known/infragate-domain/unknown', siteHost);
    expect(result.body.details.reason).toBe('DOMAIN_TOKEN_NOT_FOUND');
  });
});

describe('every other host sees the gateway', () => {
  it('answers the API on the base domain itself', async () => {
    expectError(await call('GET', '/api/pages', BASE_DOMAIN), 401, 'UNAUTHORIZED');
    expect((await call('GET', '/healthz', BASE_DOMAIN)).status).toBe(200);
  });

  it('answers the API on names that are no site', async () => {
    expect((await call('GET', '/api/pages', 'gateway.example.org', gateway.adminToken)).status).toBe(200);
    expect((await call('GET', '/api/pages', '127.0.0.1:8080', gateway.adminToken)).status).toBe(200);
  });
});
