import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { tarGz } from './archives.js';
import { createProject, deployOk, uniqueSlug } from './helpers.js';

let gateway: TestGateway;
let slug: string;
const big = crypto.randomBytes(3 * 1024 * 1024 + 17);
const sha = (content: string | Buffer) => crypto.createHash('sha256').update(content).digest('hex');

beforeAll(async () => {
  gateway = await startTestGateway();
  const project = await createProject(gateway);
  slug = project.slug;
  await deployOk(
    gateway,
    project.id,
    await tarGz({
      'index.html': '<h1>home</h1>',
      'docs/index.html': '<h1>docs</h1>',
      'app.js': 'console.log(1)',
      'style.css': 'body{}',
      'logo.svg': '<svg/>',
      'data.json': '{}',
      LICENSE: 'text',
      'big.bin': big,
    }),
  );
});
afterAll(() => gateway.close());

const get = (url: string, headers: Record<string, string> = {}) =>
  gateway.call('GET', url, { token: null, headers });

describe('GET /sites/:slug/*', () => {
  it('serves the production deployment without authentication', async () => {
    const result = await get(`/sites/${slug}/`);
    expect(result.status).toBe(200);
    expect(result.text).toBe('<h1>home</h1>');
    expect(result.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it.each([
    ['app.js', /^(text|application)\/javascript/],
    ['style.css', /^text\/css/],
    ['logo.svg', /^image\/svg\+xml/],
    ['data.json', /^application\/json/],
    ['LICENSE', /^application\/octet-stream$/],
  ])('serves %s with its content type', async (file, type) => {
    const result = await get(`/sites/${slug}/${file}`);
    expect(result.status).toBe(200);
    expect(result.headers['content-type']).toMatch(type);
    expect(result.headers['x-content-type-options']).toBe('nosniff');
  });

  it('sends the SHA-256 of the file as its ETag and answers 304 to a matching If-None-Match', async () => {
    const first = await get(`/sites/${slug}/style.css`);
    expect(first.headers.etag).toBe(`"${sha('body{}')}"`);
    for (const header of [
      first.headers.etag as string,
      `W/${first.headers.etag}`,
      `"other", ${first.headers.etag}`,
      '*',
    ]) {
      const again = await get(`/sites/${slug}/style.css`, { 'if-none-match': header });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
    }
    expect((await get(`/sites/${slug}/style.css`, { 'if-none-match': '"stale"' })).status).toBe(200);
  });

  it('serves index.html for a directory and redirects a directory without its slash', async () => {
    expect((await get(`/sites/${slug}/docs/`)).text).toBe('<h1>docs</h1>');
    const redirect = await get(`/sites/${slug}/docs?x=1`);
    expect(redirect.status).toBe(301);
    expect(redirect.headers.location).toBe(`/sites/${slug}/docs/?x=1`);
    const root = await get(`/sites/${slug}`);
    expect(root.status).toBe(301);
    expect(root.headers.location).toBe(`/sites/${slug}/`);
  });

  it('streams a large file intact', async () => {
    const response = await gateway.app.inject({ method: 'GET', url: `/sites/${slug}/big.bin` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-length']).toBe(String(big.length));
    expect(sha(response.rawPayload)).toBe(sha(big));
  });

  it('answers HEAD with the headers and no body', async () => {
    const result = await gateway.call('HEAD', `/sites/${slug}/app.js`, { token: null });
    expect(result.status).toBe(200);
    expect(result.headers.etag).toBe(`"${sha('console.log(1)')}"`);
    expect(result.text).toBe('');
  });

  it('sandboxes site content so its scripts cannot act as the gateway origin', async () => {
    const result = await get(`/sites/${slug}/`);
    expect(result.headers['content-security-policy']).toMatch(/^sandbox /);
    expect(result.headers['content-security-policy']).not.toMatch(/allow-same-origin/);
  });

  it('answers 404 for a missing file, and refuses paths that climb out of the site', async () => {
    const missing = await get(`/sites/${slug}/nope.html`);
    expectError(missing, 404, 'NOT_FOUND');
    expect(missing.body.details.reason).toBe('FILE_NOT_FOUND');
    for (const url of [
      `/sites/${slug}/%2e%2e/%2e%2e/package.json`,
      `/sites/${slug}/docs/..%2f..%2fmaster.key`,
    ]) {
      expectError(await get(url), 404, 'NOT_FOUND');
    }
  });

  it('answers 404 for an unknown slug and for a project without a production deployment', async () => {
    const unknown = await get(`/sites/${uniqueSlug('none')}/`);
    expectError(unknown, 404, 'NOT_FOUND');
    expect(unknown.body.details.reason).toBe('SITE_NOT_FOUND');
    const empty = await createProject(gateway);
    const result = await get(`/sites/${empty.slug}/`);
    expectError(result, 404, 'NOT_FOUND');
    expect(result.body.details.reason).toBe('NO_PRODUCTION_DEPLOYMENT');
  });

  it("serves the site's 404.html with status 404 for missing files", async () => {
    const project = await createProject(gateway);
    await deployOk(gateway, project.id, await tarGz({ 'index.html': 'home', '404.html': 'custom missing' }));
    const result = await get(`/sites/${project.slug}/no/such/page`);
    expect(result.status).toBe(404);
    expect(result.text).toBe('custom missing');
    expect(result.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('serves index.html for unknown paths when the project has the SPA fallback', async () => {
    const project = await createProject(gateway, { spaFallback: true });
    await deployOk(gateway, project.id, await tarGz({ 'index.html': 'spa', 'main.js': 'js' }));
    const route = await get(`/sites/${project.slug}/users/42/settings`);
    expect(route.status).toBe(200);
    expect(route.text).toBe('spa');
    expect((await get(`/sites/${project.slug}/main.js`)).text).toBe('js');
  });

  it('turns the SPA fallback on and off with PATCH', async () => {
    const project = await createProject(gateway);
    await deployOk(gateway, project.id, await tarGz({ 'index.html': 'spa' }));
    expect((await get(`/sites/${project.slug}/route`)).status).toBe(404);
    await gateway.call('PATCH', `/api/pages/${project.id}`, { body: { spaFallback: true } });
    expect((await get(`/sites/${project.slug}/route`)).status).toBe(200);
  });

  it('serves under the new slug at once after a rename, and no longer under the old one', async () => {
    const project = await createProject(gateway);
    await deployOk(gateway, project.id, await tarGz({ 'index.html': 'moved' }));
    expect((await get(`/sites/${project.slug}/`)).text).toBe('moved');
    const renamed = uniqueSlug('moved');
    await gateway.call('PATCH', `/api/pages/${project.id}`, { body: { slug: renamed } });
    expect((await get(`/sites/${renamed}/`)).text).toBe('moved');
    expect((await get(`/sites/${project.slug}/`)).status).toBe(404);
  });
});
