import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { tarGz } from './archives.js';
import { createProject, deploy, deployOk, pagesConfig } from './helpers.js';

const BASE_DOMAIN = 'pages.test';

const REDIRECTS = `# moved pages
/old /new.html 301
/about /elsewhere 301
/forced.html /index.html 302!
/news/* /blog/:splat 301
/app/* /app/index.html 200
/en/* /en/404.html 404
/ext https://example.com/x 308
`;

const HEADERS = `/*
  X-Site: yes
/docs/*
  Cache-Control: public, max-age=3600
  ! X-Frame-Options
/*.html
  Content-Security-Policy: default-src 'self'
`;

let gateway: TestGateway;
let slug: string;
let projectId: string;
let deploymentId: string;

beforeAll(async () => {
  gateway = await startTestGateway({ pages: pagesConfig({ baseDomain: BASE_DOMAIN }) });
  const project = await createProject(gateway);
  slug = project.slug;
  projectId = project.id;
  deploymentId = await deployOk(
    gateway,
    project.id,
    await tarGz({
      'index.html': 'home',
      'new.html': 'new',
      'forced.html': 'never served',
      'about/index.html': 'about',
      'app/index.html': 'the app',
      'en/404.html': 'english 404',
      '404.html': 'site 404',
      'docs/a.html': 'doc a',
      _redirects: REDIRECTS,
      _headers: HEADERS,
    }),
  );
});
afterAll(() => gateway.close());

const get = (url: string, host?: string) =>
  gateway.call('GET', url, { token: null, ...(host ? { headers: { host } } : {}) });

describe('_redirects when serving', () => {
  it('redirects under /sites/ with the site root before the destination', async () => {
    const result = await get(`/sites/${slug}/old?x=1`);
    expect(result.status).toBe(301);
    expect(result.headers.location).toBe(`/sites/${slug}/new.html?x=1`);
  });

  it('redirects on the site host from the root of the host', async () => {
    const result = await get('/old', `${slug}.${BASE_DOMAIN}`);
    expect(result.status).toBe(301);
    expect(result.headers.location).toBe('/new.html');
  });

  it('redirects in a preview within the preview', async () => {
    const result = await get(`/sites/${slug}/~${deploymentId}/old`);
    expect(result.headers.location).toBe(`/sites/${slug}/~${deploymentId}/new.html`);
  });

  it('redirects with splats and to other hosts', async () => {
    expect((await get(`/sites/${slug}/news/2024/a`)).headers.location).toBe(`/sites/${slug}/blog/2024/a`);
    const external = await get(`/sites/${slug}/ext`);
    expect(external.status).toBe(308);
    expect(external.headers.location).toBe('https://example.com/x');
  });

  it('serves the destination of a 200 rewrite at the requested path', async () => {
    const result = await get(`/sites/${slug}/app/users/7`);
    expect(result.status).toBe(200);
    expect(result.text).toBe('the app');
  });

  it('serves the destination of a 404 rule with status 404', async () => {
    const result = await get(`/sites/${slug}/en/missing`);
    expect(result.status).toBe(404);
    expect(result.text).toBe('english 404');
  });

  it('lets an existing file win over a rule that is not forced', async () => {
    const result = await get(`/sites/${slug}/about`);
    expect(result.status).toBe(301);
    expect(result.headers.location).toBe(`/sites/${slug}/about/`);
  });

  it('applies a forced rule even where a file exists', async () => {
    const result = await get(`/sites/${slug}/forced.html`);
    expect(result.status).toBe(302);
    expect(result.headers.location).toBe(`/sites/${slug}/index.html`);
  });

  it('never serves the rules files themselves', async () => {
    for (const file of ['_redirects', '_headers']) {
      const result = await get(`/sites/${slug}/${file}`);
      expect(result.status).toBe(404);
      expect(result.text).toBe('site 404');
    }
  });
});

describe('_headers when serving', () => {
  it('adds the headers of every matching rule', async () => {
    const result = await get(`/sites/${slug}/docs/a.html`);
    expect(result.headers['x-site']).toBe('yes');
    expect(result.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('takes away a header the gateway sends by default', async () => {
    expect((await get(`/sites/${slug}/index.html`)).headers['x-frame-options']).toBe('DENY');
    expect((await get(`/sites/${slug}/docs/a.html`)).headers['x-frame-options']).toBeUndefined();
  });

  it('keeps the sandbox under /sites/ and sends the site policy beside it', async () => {
    const result = await get(`/sites/${slug}/index.html`);
    expect(result.headers['content-security-policy']).toEqual([
      expect.stringMatching(/^sandbox /),
      "default-src 'self'",
    ]);
  });

  it('sends only the site policy on the site host', async () => {
    const result = await get('/index.html', `${slug}.${BASE_DOMAIN}`);
    expect(result.headers['content-security-policy']).toBe("default-src 'self'");
    expect(result.headers['x-site']).toBe('yes');
  });

  it('applies to the 404 page too', async () => {
    const result = await get(`/sites/${slug}/nothing-here`);
    expect(result.status).toBe(404);
    expect(result.headers['x-site']).toBe('yes');
  });

  it('leaves redirects alone', async () => {
    expect((await get(`/sites/${slug}/old`)).headers['x-site']).toBeUndefined();
  });
});

describe('rules checked at deploy time', () => {
  it('refuses a deployment whose rules have mistakes with 422 and every problem by file and line', async () => {
    const before = await gateway.call('GET', `/api/pages/${projectId}/deployments`);
    const result = await deploy(
      gateway,
      projectId,
      await tarGz({
        'index.html': 'x',
        _redirects: '/a /b\n/c\n/d /e 418\n',
        _headers: '/x\n  Set-Cookie: a=1\n',
      }),
    );
    expectError(result, 422, 'UNPROCESSABLE_ENTITY');
    expect(result.body.details.reason).toBe('SITE_RULES_INVALID');
    expect(result.body.details.problemCount).toBe(3);
    expect(result.body.details.problems).toEqual([
      { file: '_redirects', line: 2, message: expect.any(String) },
      { file: '_redirects', line: 3, message: expect.stringMatching(/status must be one of/) },
      { file: '_headers', line: 2, message: expect.stringMatching(/set-cookie/) },
    ]);
    const after = await gateway.call('GET', `/api/pages/${projectId}/deployments`);
    expect(after.body.pagination.total).toBe(before.body.pagination.total);
  });

  it('refuses headers that would act on the gateway itself, naming their lines', async () => {
    const result = await deploy(
      gateway,
      projectId,
      await tarGz({
        'index.html': 'x',
        _headers: '/*\n  X-Site: fine\n  Clear-Site-Data: "*"\n/later\n  Refresh: 0; url=/sites/\n',
      }),
    );
    expectError(result, 422, 'UNPROCESSABLE_ENTITY');
    expect(result.body.details).toMatchObject({ reason: 'SITE_RULES_INVALID', problemCount: 2 });
    expect(result.body.details.problems).toEqual([
      { file: '_headers', line: 3, message: expect.stringMatching(/^the clear-site-data header/) },
      { file: '_headers', line: 5, message: expect.stringMatching(/^the refresh header/) },
    ]);
  });

  it('refuses rules files that are not UTF-8 text', async () => {
    const result = await deploy(
      gateway,
      projectId,
      await tarGz({ 'index.html': 'x', _redirects: Buffer.from([0xff, 0xfe, 0x2f]) }),
    );
    expectError(result, 422, 'UNPROCESSABLE_ENTITY');
    expect(result.body.details.problems).toEqual([
      { file: '_redirects', line: 0, message: '_redirects is not UTF-8 text' },
    ]);
  });

  it('reads rules files only at the root of the site', async () => {
    await deployOk(gateway, projectId, await tarGz({ 'index.html': 'x', 'sub/_redirects': 'not rules' }), {
      promote: false,
    });
  });
});
