import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { describeResourceScopes } from '../support/resource-scopes.js';
import { tarGz } from './archives.js';
import { auditActions, createProject, deployOk, uniqueSlug } from './helpers.js';

let gateway: TestGateway;
let viewer: string;
let nobody: string;
beforeAll(async () => {
  gateway = await startTestGateway();
  viewer = await gateway.tokenWithScopes(['pages:view']);
  nobody = await gateway.tokenWithScopes([]);
});
afterAll(() => gateway.close());

const unknownId = () => crypto.randomUUID();

describe('POST /api/pages', () => {
  it('creates a project and answers 201 with its record', async () => {
    const slug = uniqueSlug();
    const result = await gateway.call('POST', '/api/pages', { body: { name: '  Docs  ', slug } });
    expect(result.status).toBe(201);
    expect(result.body.data).toMatchObject({
      name: 'Docs',
      slug,
      spaFallback: false,
      productionDeploymentId: null,
      deploymentCount: 0,
      lastDeployment: null,
      url: `/sites/${slug}/`,
    });
    expect(result.body.data.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses a slug that is already taken with 409 CONFLICT', async () => {
    const project = await createProject(gateway);
    const result = await gateway.call('POST', '/api/pages', { body: { name: 'Other', slug: project.slug } });
    expectError(result, 409, 'CONFLICT');
    expect(result.body.details.reason).toBe('SLUG_TAKEN');
  });

  it.each([
    ['uppercase letters', 'My-Site'],
    ['an underscore', 'my_site'],
    ['a leading hyphen', '-site'],
    ['64 characters', 'a'.repeat(64)],
    ['an empty string', ''],
  ])('refuses a slug with %s', async (_what, slug) => {
    expectValidationError(await gateway.call('POST', '/api/pages', { body: { name: 'X', slug } }), ['slug']);
  });

  it('accepts a slug of 63 characters', async () => {
    const slug = `a${crypto.randomBytes(31).toString('hex')}`;
    expect(slug).toHaveLength(63);
    const result = await gateway.call('POST', '/api/pages', { body: { name: 'Long', slug } });
    expect(result.status).toBe(201);
  });

  it('requires name and slug', async () => {
    const result = await gateway.call('POST', '/api/pages', { body: {} });
    expectValidationError(result, ['name']);
    expectValidationError(result, ['slug']);
  });

  it('refuses a body sent as an archive with 415 (only deployment uploads take archives)', async () => {
    const result = await gateway.call('POST', '/api/pages', {
      rawBody: Buffer.from(JSON.stringify({ name: 'Zip', slug: uniqueSlug() })),
      headers: { 'content-type': 'application/zip' },
    });
    expectError(result, 415, 'VALIDATION_ERROR');
  });

  it('refuses a blank name and a name over 255 characters', async () => {
    expectValidationError(
      await gateway.call('POST', '/api/pages', { body: { name: '   ', slug: uniqueSlug() } }),
      ['name'],
    );
    expectValidationError(
      await gateway.call('POST', '/api/pages', { body: { name: 'n'.repeat(256), slug: uniqueSlug() } }),
      ['name'],
    );
  });

  it('answers 401 without a token and 403 without pages:manage', async () => {
    const body = { name: 'X', slug: uniqueSlug() };
    expectError(await gateway.call('POST', '/api/pages', { body, token: null }), 401, 'UNAUTHORIZED');
    expectError(await gateway.call('POST', '/api/pages', { body, token: viewer }), 403, 'FORBIDDEN');
  });

  it('records an audit event for the creation', async () => {
    const project = await createProject(gateway);
    expect(await auditActions(gateway, project.id)).toEqual(['pages.project.created']);
  });
});

describe('GET /api/pages', () => {
  it('lists projects with pagination and a substring filter', async () => {
    const marker = `list-${crypto.randomBytes(3).toString('hex')}`;
    for (const n of [1, 2, 3]) await createProject(gateway, { slug: `${marker}-${n}` });
    const page = await gateway.call('GET', '/api/pages', { query: { q: marker, limit: 2 }, token: viewer });
    expect(page.status).toBe(200);
    expect(page.body.pagination).toEqual({ page: 1, limit: 2, total: 3, totalPages: 2 });
    expect(page.body.data.map((p: { slug: string }) => p.slug)).toEqual([`${marker}-1`, `${marker}-2`]);
  });

  it('treats % and _ in the search text as plain characters', async () => {
    await createProject(gateway, { name: 'Plain name' });
    const result = await gateway.call('GET', '/api/pages', { query: { q: '%_' } });
    expect(result.body.data).toEqual([]);
  });

  it('refuses a limit above 100', async () => {
    expectValidationError(await gateway.call('GET', '/api/pages', { query: { limit: 101 } }), ['limit']);
  });

  it('answers 401 without a token and 403 without a pages scope', async () => {
    expectError(await gateway.call('GET', '/api/pages', { token: null }), 401, 'UNAUTHORIZED');
    expectError(await gateway.call('GET', '/api/pages', { token: nobody }), 403, 'FORBIDDEN');
  });
});

describe('GET /api/pages/by-slug/:slug', () => {
  it('answers the project with its production deployment, deployment count and last deployment', async () => {
    const project = await createProject(gateway);
    const first = await deployOk(gateway, project.id, await tarGz({ 'index.html': 'one' }));
    const second = await deployOk(gateway, project.id, await tarGz({ 'index.html': 'two' }), {
      promote: false,
    });
    const result = await gateway.call('GET', `/api/pages/by-slug/${project.slug}`, { token: viewer });
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({
      id: project.id,
      slug: project.slug,
      productionDeploymentId: first,
      deploymentCount: 2,
      lastDeployment: { id: second, production: false, pinned: false, status: 'ready' },
    });
  });

  it('answers 404 for an unknown slug', async () => {
    expectError(await gateway.call('GET', `/api/pages/by-slug/${uniqueSlug('nope')}`), 404, 'NOT_FOUND');
  });

  it('refuses a malformed slug with 400', async () => {
    expectValidationError(await gateway.call('GET', '/api/pages/by-slug/Not_A_Slug'), ['slug']);
  });

  it('answers 401 without a token and 403 without a pages scope', async () => {
    const url = `/api/pages/by-slug/${uniqueSlug()}`;
    expectError(await gateway.call('GET', url, { token: null }), 401, 'UNAUTHORIZED');
    expectError(await gateway.call('GET', url, { token: nobody }), 403, 'FORBIDDEN');
  });
});

describe('GET /api/pages/:projectId', () => {
  it('answers the project', async () => {
    const project = await createProject(gateway);
    const result = await gateway.call('GET', `/api/pages/${project.id}`, { token: viewer });
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({ id: project.id, slug: project.slug, deploymentCount: 0 });
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    expectError(await gateway.call('GET', `/api/pages/${unknownId()}`), 404, 'NOT_FOUND');
    expectValidationError(await gateway.call('GET', '/api/pages/not-a-uuid'), ['projectId']);
  });

  it('answers 401 without a token and 403 without a pages scope', async () => {
    expectError(await gateway.call('GET', `/api/pages/${unknownId()}`, { token: null }), 401, 'UNAUTHORIZED');
    expectError(await gateway.call('GET', `/api/pages/${unknownId()}`, { token: nobody }), 403, 'FORBIDDEN');
  });
});

describe('PATCH /api/pages/:projectId', () => {
  it('renames the project, changes its slug and its SPA fallback', async () => {
    const project = await createProject(gateway);
    const slug = uniqueSlug('renamed');
    const result = await gateway.call('PATCH', `/api/pages/${project.id}`, {
      body: { name: 'Renamed', slug, spaFallback: true },
    });
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({
      name: 'Renamed',
      slug,
      spaFallback: true,
      url: `/sites/${slug}/`,
    });
  });

  it('refuses a slug another project has with 409', async () => {
    const [a, b] = [await createProject(gateway), await createProject(gateway)];
    const result = await gateway.call('PATCH', `/api/pages/${a.id}`, { body: { slug: b.slug } });
    expectError(result, 409, 'CONFLICT');
  });

  it('refuses an empty change and a malformed slug with 400', async () => {
    const project = await createProject(gateway);
    expectError(
      await gateway.call('PATCH', `/api/pages/${project.id}`, { body: {} }),
      400,
      'VALIDATION_ERROR',
    );
    expectValidationError(
      await gateway.call('PATCH', `/api/pages/${project.id}`, { body: { slug: 'UPPER' } }),
      ['slug'],
    );
  });

  it('answers 404 for an unknown project', async () => {
    expectError(
      await gateway.call('PATCH', `/api/pages/${unknownId()}`, { body: { name: 'x' } }),
      404,
      'NOT_FOUND',
    );
  });

  it('answers 401 without a token and 403 without pages:manage', async () => {
    const url = `/api/pages/${unknownId()}`;
    expectError(await gateway.call('PATCH', url, { body: { name: 'x' }, token: null }), 401, 'UNAUTHORIZED');
    expectError(await gateway.call('PATCH', url, { body: { name: 'x' }, token: viewer }), 403, 'FORBIDDEN');
  });
});

describe('DELETE /api/pages/:projectId', () => {
  it('deletes the project with its deployments and stops serving it', async () => {
    const project = await createProject(gateway);
    await deployOk(gateway, project.id, await tarGz({ 'index.html': 'bye' }));
    const result = await gateway.call('DELETE', `/api/pages/${project.id}`);
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ success: true });
    expectError(await gateway.call('GET', `/api/pages/${project.id}`), 404, 'NOT_FOUND');
    expectError(await gateway.call('GET', `/sites/${project.slug}/`, { token: null }), 404, 'NOT_FOUND');
  });

  it('answers 404 for an unknown project', async () => {
    expectError(await gateway.call('DELETE', `/api/pages/${unknownId()}`), 404, 'NOT_FOUND');
  });

  it('answers 401 without a token and 403 without pages:manage', async () => {
    const url = `/api/pages/${unknownId()}`;
    expectError(await gateway.call('DELETE', url, { token: null }), 401, 'UNAUTHORIZED');
    expectError(await gateway.call('DELETE', url, { token: viewer }), 403, 'FORBIDDEN');
  });
});

describeResourceScopes(() => gateway, {
  area: 'pages',
  list: '/api/pages',
  read: (id) => `/api/pages/${id}`,
  create: async () => (await createProject(gateway)).id,
});

describe('a caller holding pages scopes on one project', () => {
  it('deploys to it and reads its deployments, domains and deploy tokens', async () => {
    const project = await createProject(gateway);
    const token = await gateway.tokenWithScopes([`pages:manage:${project.id}`]);
    const archive = await tarGz({ 'index.html': 'mine' });
    const deployed = await gateway.call('POST', `/api/pages/${project.id}/deployments`, {
      token,
      rawBody: archive,
      headers: { 'content-type': 'application/gzip' },
    });
    expect(deployed.status, deployed.text).toBe(201);
    for (const below of ['deployments', 'domains', 'deploy-tokens']) {
      expect((await gateway.call('GET', `/api/pages/${project.id}/${below}`, { token })).status).toBe(200);
    }
  });

  it("answers 404 for another project's deployments", async () => {
    const [mine, theirs] = [await createProject(gateway), await createProject(gateway)];
    const token = await gateway.tokenWithScopes([`pages:view:${mine.id}`]);
    const result = await gateway.call('GET', `/api/pages/${theirs.id}/deployments`, { token });
    expectError(result, 404, 'NOT_FOUND');
  });

  it('finds only that project by slug: another answers 404, as an unknown slug does', async () => {
    const [mine, theirs] = [await createProject(gateway), await createProject(gateway)];
    const token = await gateway.tokenWithScopes([`pages:view:${mine.id}`]);
    const found = await gateway.call('GET', `/api/pages/by-slug/${mine.slug}`, { token });
    expect(found.body.data.id).toBe(mine.id);
    expectError(await gateway.call('GET', `/api/pages/by-slug/${theirs.slug}`, { token }), 404, 'NOT_FOUND');
  });
});
