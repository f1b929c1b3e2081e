import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { tarGz } from './archives.js';
import { createProject, deployOk, pagesConfig } from './helpers.js';

const BASE_DOMAIN = 'pages.test';

describe('previews under /sites/ (no base domain)', () => {
  let gateway: TestGateway;
  let slug: string;
  let projectId: string;
  let production: string;
  let preview: string;

  beforeAll(async () => {
    gateway = await startTestGateway();
    const project = await createProject(gateway);
    ({ slug, id: projectId } = project);
    production = await deployOk(gateway, projectId, await tarGz({ 'index.html': 'production' }));
    preview = await deployOk(gateway, projectId, await tarGz({ 'index.html': 'preview', 'a/b.txt': 'b' }), {
      promote: false,
    });
  });
  afterAll(() => gateway.close());

  const get = (url: string) => gateway.call('GET', url, { token: null });

  it('gives every deployment a preview URL and the project its URL under /sites/', async () => {
    const deployment = await gateway.call('GET', `/api/pages/${projectId}/deployments/${preview}`);
    expect(deployment.body.data.previewUrl).toBe(`/sites/${slug}/~${preview}/`);
    const project = await gateway.call('GET', `/api/pages/${projectId}`);
    expect(project.body.data.url).toBe(`/sites/${slug}/`);
  });

  it('serves a deployment that is not production at its preview URL, marked noindex', async () => {
    const result = await get(`/sites/${slug}/~${preview}/`);
    expect(result.status).toBe(200);
    expect(result.text).toBe('preview');
    expect(result.headers['x-robots-tag']).toBe('noindex');
    expect((await get(`/sites/${slug}/~${preview}/a/b.txt`)).text).toBe('b');
  });

  it('marks the production deployment noindex at its preview URL only', async () => {
    expect((await get(`/sites/${slug}/~${production}/`)).headers['x-robots-tag']).toBe('noindex');
    const live = await get(`/sites/${slug}/`);
    expect(live.text).toBe('production');
    expect(live.headers['x-robots-tag']).toBeUndefined();
  });

  it('redirects a preview root without its trailing slash', async () => {
    const result = await get(`/sites/${slug}/~${preview}?x=1`);
    expect(result.status).toBe(301);
    expect(result.headers.location).toBe(`/sites/${slug}/~${preview}/?x=1`);
  });

  it('answers 404 DEPLOYMENT_NOT_FOUND for an unknown deployment or one of another project', async () => {
    const other = await createProject(gateway);
    const foreign = await deployOk(gateway, other.id, await tarGz({ 'index.html': 'other' }));
    for (const id of [crypto.randomUUID(), foreign]) {
      const result = await get(`/sites/${slug}/~${id}/`);
      expectError(result, 404, 'NOT_FOUND');
      expect(result.body.details.reason).toBe('DEPLOYMENT_NOT_FOUND');
    }
  });

  it('stops serving a preview once its deployment is deleted', async () => {
    const doomed = await deployOk(gateway, projectId, await tarGz({ 'index.html': 'doomed' }), {
      promote: false,
    });
    expect((await get(`/sites/${slug}/~${doomed}/`)).text).toBe('doomed');
    await gateway.call('DELETE', `/api/pages/${projectId}/deployments/${doomed}`);
    expect((await get(`/sites/${slug}/~${doomed}/`)).body.details.reason).toBe('DEPLOYMENT_NOT_FOUND');
  });

  it('serves a top-level directory whose name starts with ~ but is no deployment id as a file path', async () => {
    const project = await createProject(gateway);
    await deployOk(gateway, project.id, await tarGz({ '~user/index.html': 'home of user' }));
    expect((await get(`/sites/${project.slug}/~user/`)).text).toBe('home of user');
  });
});

describe('previews on the pages base domain', () => {
  let gateway: TestGateway;
  let slug: string;
  let projectId: string;
  let preview: string;

  beforeAll(async () => {
    gateway = await startTestGateway({ pages: pagesConfig({ baseDomain: BASE_DOMAIN }) });
    const project = await createProject(gateway);
    ({ slug, id: projectId } = project);
    await deployOk(gateway, projectId, await tarGz({ 'index.html': 'production' }));
    preview = await deployOk(gateway, projectId, await tarGz({ 'index.html': 'preview' }), {
      promote: false,
    });
  });
  afterAll(() => gateway.close());

  const onHost = (host: string, url = '/') => gateway.call('GET', url, { token: null, headers: { host } });

  it('answers URLs on the base domain for the project and each deployment', async () => {
    const deployment = await gateway.call('GET', `/api/pages/${projectId}/deployments/${preview}`);
    expect(deployment.body.data.previewUrl).toBe(`https://${preview}.${slug}.${BASE_DOMAIN}/`);
    const project = await gateway.call('GET', `/api/pages/${projectId}`);
    expect(project.body.data.url).toBe(`https://${slug}.${BASE_DOMAIN}/`);
    expect(project.body.data.lastDeployment.previewUrl).toBe(`https://${preview}.${slug}.${BASE_DOMAIN}/`);
  });

  it('serves production at <slug>.<base domain> without noindex', async () => {
    const result = await onHost(`${slug}.${BASE_DOMAIN}`);
    expect(result.text).toBe('production');
    expect(result.headers['x-robots-tag']).toBeUndefined();
    expect(result.headers['content-security-policy']).toBeUndefined();
  });

  it('serves a deployment at <deploymentId>.<slug>.<base domain>, marked noindex', async () => {
    const result = await onHost(`${preview}.${slug}.${BASE_DOMAIN}`);
    expect(result.text).toBe('preview');
    expect(result.headers['x-robots-tag']).toBe('noindex');
  });

  it('matches the Host header without regard to case, a port or a final dot', async () => {
    expect((await onHost(`${slug.toUpperCase()}.Pages.Test.:8080`)).text).toBe('production');
  });

  it('answers 404 for names under the base domain that name no site', async () => {
    expect((await onHost(`nope.${BASE_DOMAIN}`)).body.details.reason).toBe('SITE_NOT_FOUND');
    expect((await onHost(`not-an-id.${slug}.${BASE_DOMAIN}`)).body.details.reason).toBe(
      'DEPLOYMENT_NOT_FOUND',
    );
    expect((await onHost(`a.b.${slug}.${BASE_DOMAIN}`)).body.details.reason).toBe('SITE_NOT_FOUND');
  });
});
