import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { tarGz, zipArchive } from './archives.js';
import { auditActions, createProject, deploy, deployOk } from './helpers.js';

const RETAIN = 2;
let gateway: TestGateway;
let viewer: string;
let nobody: string;
beforeAll(async () => {
  gateway = await startTestGateway({ pages: { ...loadConfig({}).pages, retainDeployments: RETAIN } });
  viewer = await gateway.tokenWithScopes(['pages:view']);
  nobody = await gateway.tokenWithScopes([]);
});
afterAll(() => gateway.close());

const unknownId = () => crypto.randomUUID();
const site = (version: string) => tarGz({ 'index.html': `<h1>${version}</h1>`, 'style.css': 'body{}' });
const served = async (slug: string, file = '') =>
  (await gateway.call('GET', `/sites/${slug}/${file}`, { token: null })).text;
const blobDir = () => path.join(gateway.config.dataDir, 'pages', 'blobs');

describe('POST /api/pages/:projectId/deployments', () => {
  it('stores a .tar.gz and answers 201 with the deployment', async () => {
    const project = await createProject(gateway);
    const result = await deploy(gateway, project.id, await site('v1'));
    expect(result.status).toBe(201);
    expect(result.body.data).toMatchObject({
      projectId: project.id,
      status: 'ready',
      fileCount: 2,
      sizeBytes: '<h1>v1</h1>'.length + 'body{}'.length,
      pinned: false,
      production: true,
      archiveFormat: 'tar.gz',
      createdBy: 'admin@test',
    });
    expect(Object.keys(result.body.data)).toEqual(
      expect.arrayContaining(['id', 'projectId', 'status', 'fileCount', 'sizeBytes', 'pinned', 'createdAt']),
    );
    expect(await auditActions(gateway, result.body.data.id)).toEqual(['pages.deployment.created']);
  });

  it('stores a .zip the same way', async () => {
    const project = await createProject(gateway);
    const result = await deploy(gateway, project.id, zipArchive({ 'index.html': 'zipped', 'a/b.txt': 'b' }), {
      contentType: 'application/zip',
    });
    expect(result.status).toBe(201);
    expect(result.body.data).toMatchObject({ archiveFormat: 'zip', fileCount: 2 });
    expect(await served(project.slug)).toBe('zipped');
  });

  it('stores identical files of different deployments once, under their SHA-256', async () => {
    const project = await createProject(gateway);
    const shared = `shared ${crypto.randomUUID()}`;
    await deployOk(gateway, project.id, await tarGz({ 'index.html': 'one', 'lib.js': shared }));
    await deployOk(gateway, project.id, await tarGz({ 'index.html': 'two', 'copy/lib.js': shared }));
    const sha = crypto.createHash('sha256').update(shared).digest('hex');
    expect(fs.readFileSync(path.join(blobDir(), sha), 'utf8')).toBe(shared);
    expect(fs.readdirSync(blobDir()).filter((name) => name === sha)).toHaveLength(1);
  });

  it('accepts concurrent uploads to one project, sharing the files they have in common', async () => {
    const project = await createProject(gateway);
    const shared = `shared ${crypto.randomUUID()}`;
    const archives = await Promise.all(
      ['a', 'b', 'c'].map((version) => tarGz({ 'index.html': version, 'lib.js': shared })),
    );
    const results = await Promise.all(archives.map((archive) => deploy(gateway, project.id, archive)));
    expect(results.map((result) => result.status)).toEqual([201, 201, 201]);
    const sha = crypto.createHash('sha256').update(shared).digest('hex');
    expect(fs.readFileSync(path.join(blobDir(), sha), 'utf8')).toBe(shared);
    const live = await gateway.call('GET', `/sites/${project.slug}/`, { token: null });
    expect(['a', 'b', 'c']).toContain(live.text);
  });

  it('leaves production alone with promote=false', async () => {
    const project = await createProject(gateway);
    await deployOk(gateway, project.id, await site('live'));
    const preview = await deploy(gateway, project.id, await site('preview'), { query: { promote: false } });
    expect(preview.body.data.production).toBe(false);
    expect(await served(project.slug)).toBe('<h1>live</h1>');
  });

  it('drops leading directories with stripComponents', async () => {
    const project = await createProject(gateway);
    await deployOk(gateway, project.id, await tarGz({ 'dist/index.html': 'stripped' }), {
      stripComponents: 1,
    });
    expect(await served(project.slug)).toBe('stripped');
  });

  it('refuses a body that is no archive with 400', async () => {
    const project = await createProject(gateway);
    const result = await deploy(gateway, project.id, Buffer.from('just some text, not an archive'));
    expectError(result, 400, 'VALIDATION_ERROR');
  });

  it('refuses a truncated .tar.gz with 400', async () => {
    const project = await createProject(gateway);
    const archive = await site('cut');
    expectError(
      await deploy(gateway, project.id, archive.subarray(0, archive.length - 12)),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('refuses an archive without files with 400', async () => {
    const project = await createProject(gateway);
    const result = await deploy(gateway, project.id, await tarGz([{ name: 'empty/', type: 'directory' }]));
    expectError(result, 400, 'VALIDATION_ERROR');
  });

  it('refuses a JSON body with 415', async () => {
    const project = await createProject(gateway);
    const result = await gateway.call('POST', `/api/pages/${project.id}/deployments`, {
      body: { files: [] },
    });
    expectError(result, 415, 'VALIDATION_ERROR');
  });

  it('refuses stripComponents outside 0 to 32', async () => {
    const project = await createProject(gateway);
    expectValidationError(
      await deploy(gateway, project.id, await site('x'), { query: { stripComponents: 33 } }),
      ['stripComponents'],
    );
  });

  it('answers 404 for an unknown project and 400 for a malformed id', async () => {
    expectError(await deploy(gateway, unknownId(), await site('x')), 404, 'NOT_FOUND');
    expectValidationError(
      await gateway.call('POST', '/api/pages/nope/deployments', {
        rawBody: await site('x'),
        headers: { 'content-type': 'application/gzip' },
      }),
      ['projectId'],
    );
  });

  it('answers 401 without a token and 403 without pages:manage', async () => {
    const project = await createProject(gateway);
    expectError(await deploy(gateway, project.id, await site('x'), { token: null }), 401, 'UNAUTHORIZED');
    expectError(await deploy(gateway, project.id, await site('x'), { token: viewer }), 403, 'FORBIDDEN');
  });
});

describe('GET /api/pages/:projectId/deployments', () => {
  it('lists deployments newest first with pagination and a pinned filter', async () => {
    const project = await createProject(gateway);
    const first = await deployOk(gateway, project.id, await site('1'));
    const second = await deployOk(gateway, project.id, await site('2'));
    await gateway.call('PATCH', `/api/pages/${project.id}/deployments/${first}/pin`, {
      body: { pinned: true },
    });
    const all = await gateway.call('GET', `/api/pages/${project.id}/deployments`, { token: viewer });
    expect(all.status).toBe(200);
    expect(all.body.data.map((d: { id: string }) => d.id)).toEqual([second, first]);
    expect(all.body.pagination).toEqual({ page: 1, limit: 20, total: 2, totalPages: 1 });
    const pinned = await gateway.call('GET', `/api/pages/${project.id}/deployments`, {
      query: { pinned: true },
    });
    expect(pinned.body.data.map((d: { id: string }) => d.id)).toEqual([first]);
    const paged = await gateway.call('GET', `/api/pages/${project.id}/deployments`, {
      query: { limit: 1, page: 2 },
    });
    expect(paged.body.data.map((d: { id: string }) => d.id)).toEqual([first]);
  });

  it('answers 404 for an unknown project', async () => {
    expectError(await gateway.call('GET', `/api/pages/${unknownId()}/deployments`), 404, 'NOT_FOUND');
  });

  it('answers 401 without a token and 403 without a pages scope', async () => {
    const url = `/api/pages/${unknownId()}/deployments`;
    expectError(await gateway.call('GET', url, { token: null }), 401, 'UNAUTHORIZED');
    expectError(await gateway.call('GET', url, { token: nobody }), 403, 'FORBIDDEN');
  });
});

describe('GET /api/pages/:projectId/deployments/:deploymentId', () => {
  it('answers the deployment, and its files from /files', async () => {
    const project = await createProject(gateway);
    const id = await deployOk(gateway, project.id, await site('one'));
    const result = await gateway.call('GET', `/api/pages/${project.id}/deployments/${id}`, { token: viewer });
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({ id, projectId: project.id, production: true, fileCount: 2 });
    const files = await gateway.call('GET', `/api/pages/${project.id}/deployments/${id}/files`, {
      token: viewer,
    });
    expect(files.body.data).toEqual([
      {
        path: 'index.html',
        sha256: crypto.createHash('sha256').update('<h1>one</h1>').digest('hex'),
        sizeBytes: 12,
        contentType: 'text/html; charset=utf-8',
      },
      expect.objectContaining({ path: 'style.css', contentType: 'text/css; charset=utf-8' }),
    ]);
  });

  it("answers 404 for another project's deployment", async () => {
    const [a, b] = [await createProject(gateway), await createProject(gateway)];
    const id = await deployOk(gateway, a.id, await site('a'));
    expectError(await gateway.call('GET', `/api/pages/${b.id}/deployments/${id}`), 404, 'NOT_FOUND');
  });

  it('answers 404 for an unknown deployment and 400 for a malformed id', async () => {
    const project = await createProject(gateway);
    expectError(
      await gateway.call('GET', `/api/pages/${project.id}/deployments/${unknownId()}`),
      404,
      'NOT_FOUND',
    );
    expectValidationError(await gateway.call('GET', `/api/pages/${project.id}/deployments/x`), [
      'deploymentId',
    ]);
  });

  it('answers 401 without a token and 403 without a pages scope', async () => {
    const url = `/api/pages/${unknownId()}/deployments/${unknownId()}`;
    expectError(await gateway.call('GET', url, { token: null }), 401, 'UNAUTHORIZED');
    expectError(await gateway.call('GET', url, { token: nobody }), 403, 'FORBIDDEN');
  });
});

describe('POST /api/pages/:projectId/deployments/:deploymentId/promote', () => {
  it('serves two versions in turn: deploy, deploy, roll back by promoting the older one', async () => {
    const project = await createProject(gateway);
    const v1 = await deployOk(gateway, project.id, await site('v1'));
    expect(await served(project.slug)).toBe('<h1>v1</h1>');
    const v2 = await deployOk(gateway, project.id, await site('v2'));
    expect(await served(project.slug)).toBe('<h1>v2</h1>');

    const rollback = await gateway.call('POST', `/api/pages/${project.id}/deployments/${v1}/promote`);
    expect(rollback.status).toBe(200);
    expect(rollback.body.data).toMatchObject({ id: v1, production: true });
    expect(await served(project.slug)).toBe('<h1>v1</h1>');
    const record = await gateway.call('GET', `/api/pages/${project.id}`);
    expect(record.body.data.productionDeploymentId).toBe(v1);
    expect(await auditActions(gateway, v1)).toEqual([
      'pages.deployment.created',
      'pages.deployment.promoted',
    ]);

    await gateway.call('POST', `/api/pages/${project.id}/deployments/${v2}/promote`);
    expect(await served(project.slug)).toBe('<h1>v2</h1>');
  });

  it("answers 404 for another project's deployment", async () => {
    const [a, b] = [await createProject(gateway), await createProject(gateway)];
    const id = await deployOk(gateway, a.id, await site('a'));
    expectError(await gateway.call('POST', `/api/pages/${b.id}/deployments/${id}/promote`), 404, 'NOT_FOUND');
  });

  it('answers 401 without a token and 403 without pages:manage', async () => {
    const url = `/api/pages/${unknownId()}/deployments/${unknownId()}/promote`;
    expectError(await gateway.call('POST', url, { token: null }), 401, 'UNAUTHORIZED');
    expectError(await gateway.call('POST', url, { token: viewer }), 403, 'FORBIDDEN');
  });
});

describe('PATCH /api/pages/:projectId/deployments/:deploymentId/pin', () => {
  it('pins and unpins a deployment and answers it', async () => {
    const project = await createProject(gateway);
    const id = await deployOk(gateway, project.id, await site('p'));
    const url = `/api/pages/${project.id}/deployments/${id}/pin`;
    const pinned = await gateway.call('PATCH', url, { body: { pinned: true } });
    expect(pinned.status).toBe(200);
    expect(pinned.body.data).toMatchObject({ id, projectId: project.id, pinned: true });
    const unpinned = await gateway.call('PATCH', url, { body: { pinned: false } });
    expect(unpinned.body.data.pinned).toBe(false);
    expect(await auditActions(gateway, id)).toEqual([
      'pages.deployment.created',
      'pages.deployment.pinned',
      'pages.deployment.unpinned',
    ]);
  });

  it('requires pinned as a boolean', async () => {
    const url = `/api/pages/${unknownId()}/deployments/${unknownId()}/pin`;
    expectValidationError(await gateway.call('PATCH', url, { body: {} }), ['pinned']);
    expectValidationError(await gateway.call('PATCH', url, { body: { pinned: 'yes' } }), ['pinned']);
  });

  it('requires both ids to be uuids', async () => {
    expectValidationError(
      await gateway.call('PATCH', `/api/pages/abc/deployments/${unknownId()}/pin`, {
        body: { pinned: true },
      }),
      ['projectId'],
    );
    expectValidationError(
      await gateway.call('PATCH', `/api/pages/${unknownId()}/deployments/abc/pin`, {
        body: { pinned: true },
      }),
      ['deploymentId'],
    );
  });

  it("answers 404 for another project's deployment and for unknown ids", async () => {
    const [a, b] = [await createProject(gateway), await createProject(gateway)];
    const id = await deployOk(gateway, a.id, await site('a'));
    const body = { pinned: true };
    expectError(
      await gateway.call('PATCH', `/api/pages/${b.id}/deployments/${id}/pin`, { body }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await gateway.call('PATCH', `/api/pages/${unknownId()}/deployments/${id}/pin`, { body }),
      404,
      'NOT_FOUND',
    );
    const stillUnpinned = await gateway.call('GET', `/api/pages/${a.id}/deployments/${id}`);
    expect(stillUnpinned.body.data.pinned).toBe(false);
  });

  it('answers 401 without a token and 403 without pages:manage', async () => {
    const url = `/api/pages/${unknownId()}/deployments/${unknownId()}/pin`;
    expectError(
      await gateway.call('PATCH', url, { body: { pinned: true }, token: null }),
      401,
      'UNAUTHORIZED',
    );
    expectError(
      await gateway.call('PATCH', url, { body: { pinned: true }, token: viewer }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('DELETE /api/pages/:projectId/deployments/:deploymentId', () => {
  it('deletes an unpinned deployment that is not production and frees its unique files', async () => {
    const project = await createProject(gateway);
    const unique = `only here ${crypto.randomUUID()}`;
    const old = await deployOk(gateway, project.id, await tarGz({ 'index.html': unique }));
    await deployOk(gateway, project.id, await site('new'));
    const result = await gateway.call('DELETE', `/api/pages/${project.id}/deployments/${old}`);
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ success: true });
    expectError(await gateway.call('GET', `/api/pages/${project.id}/deployments/${old}`), 404, 'NOT_FOUND');
    const sha = crypto.createHash('sha256').update(unique).digest('hex');
    expect(fs.existsSync(path.join(blobDir(), sha))).toBe(false);
  });

  it('refuses to delete the production deployment with 409', async () => {
    const project = await createProject(gateway);
    const id = await deployOk(gateway, project.id, await site('prod'));
    const result = await gateway.call('DELETE', `/api/pages/${project.id}/deployments/${id}`);
    expectError(result, 409, 'CONFLICT');
    expect(result.body.details.reason).toBe('DEPLOYMENT_IS_PRODUCTION');
  });

  it('refuses to delete a pinned deployment with 409', async () => {
    const project = await createProject(gateway);
    const id = await deployOk(gateway, project.id, await site('pinned'));
    await deployOk(gateway, project.id, await site('newer'));
    await gateway.call('PATCH', `/api/pages/${project.id}/deployments/${id}/pin`, { body: { pinned: true } });
    const result = await gateway.call('DELETE', `/api/pages/${project.id}/deployments/${id}`);
    expectError(result, 409, 'CONFLICT');
    expect(result.body.details.reason).toBe('DEPLOYMENT_PINNED');
  });

  it("answers 404 for another project's deployment", async () => {
    const [a, b] = [await createProject(gateway), await createProject(gateway)];
    const id = await deployOk(gateway, a.id, await site('a'));
    expectError(await gateway.call('DELETE', `/api/pages/${b.id}/deployments/${id}`), 404, 'NOT_FOUND');
  });

  it('answers 401 without a token and 403 without pages:manage', async () => {
    const url = `/api/pages/${unknownId()}/deployments/${unknownId()}`;
    expectError(await gateway.call('DELETE', url, { token: null }), 401, 'UNAUTHORIZED');
    expectError(await gateway.call('DELETE', url, { token: viewer }), 403, 'FORBIDDEN');
  });
});

describe('retention', () => {
  it(`keeps the newest ${RETAIN} unpinned deployments and never removes pinned or production ones`, async () => {
    const project = await createProject(gateway);
    const production = await deployOk(gateway, project.id, await site('prod'));
    const pinned = await deployOk(gateway, project.id, await site('pinned'), { promote: false });
    await gateway.call('PATCH', `/api/pages/${project.id}/deployments/${pinned}/pin`, {
      body: { pinned: true },
    });
    const oldest = await deployOk(gateway, project.id, await site('a'), { promote: false });
    const middle = await deployOk(gateway, project.id, await site('b'), { promote: false });
    const newest = await deployOk(gateway, project.id, await site('c'), { promote: false });

    const list = await gateway.call('GET', `/api/pages/${project.id}/deployments`);
    expect(list.body.data.map((d: { id: string }) => d.id)).toEqual([newest, middle, pinned, production]);
    expect(list.body.data.map((d: { id: string }) => d.id)).not.toContain(oldest);
    expect(await auditActions(gateway, oldest)).toEqual([
      'pages.deployment.created',
      'pages.deployment.expired',
    ]);
    expect(await served(project.slug)).toBe('<h1>prod</h1>');
  });

  it('applies to deployments unpinned later when the maintenance job runs', async () => {
    const project = await createProject(gateway);
    const first = await deployOk(gateway, project.id, await site('1'), { promote: false });
    await gateway.call('PATCH', `/api/pages/${project.id}/deployments/${first}/pin`, {
      body: { pinned: true },
    });
    await deployOk(gateway, project.id, await site('2'));
    await deployOk(gateway, project.id, await site('3'));
    await gateway.call('PATCH', `/api/pages/${project.id}/deployments/${first}/pin`, {
      body: { pinned: false },
    });
    await gateway.deps.jobs.runNow('pages.maintenance');
    expectError(await gateway.call('GET', `/api/pages/${project.id}/deployments/${first}`), 404, 'NOT_FOUND');
    const record = await gateway.call('GET', `/api/pages/${project.id}`);
    expect(record.body.data.deploymentCount).toBe(RETAIN);
  });
});
