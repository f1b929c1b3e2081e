import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { expectError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { tarArchive, tarGz, zipArchive } from './archives.js';
import { createProject, deploy } from './helpers.js';

let gateway: TestGateway;
let projectId: string;
let slug: string;
beforeAll(async () => {
  gateway = await startTestGateway({
    pages: { ...loadConfig({}).pages, maxArchiveBytes: 64 * 1024, maxSiteBytes: 256 * 1024, maxFiles: 5 },
  });
  ({ id: projectId, slug } = await createProject(gateway));
});
afterAll(() => gateway.close());

const deploymentCount = async () =>
  (await gateway.call('GET', `/api/pages/${projectId}`)).body.data.deploymentCount as number;
const served = async (file: string) => gateway.call('GET', `/sites/${slug}/${file}`, { token: null });

function expectRefused(result: Awaited<ReturnType<typeof deploy>>, reason: string) {
  expectError(result, 422, 'UNPROCESSABLE_ENTITY');
  expect(result.body.details.reason).toBe(reason);
  expect(typeof result.body.details.explanation).toBe('string');
}

describe('unsafe archives', () => {
  it('refuses a .tar.gz with a ../ entry, stores nothing and writes nothing outside', async () => {
    const before = await deploymentCount();
    const outside = path.join(gateway.config.dataDir, 'pages', 'escaped.txt');
    const result = await deploy(
      gateway,
      projectId,
      await tarGz({ 'index.html': 'ok', '../escaped.txt': 'pwned', '../../../../tmp/pwned.txt': 'pwned' }),
    );
    expectRefused(result, 'ARCHIVE_PATH_UNSAFE');
    expect(result.body.details.entry).toBe('../escaped.txt');
    expect(await deploymentCount()).toBe(before);
    expect(fs.existsSync(outside)).toBe(false);
  });

  it('refuses a .zip with a ../ entry', async () => {
    const result = await deploy(gateway, projectId, zipArchive({ 'a/../../evil.html': 'x' }), {
      contentType: 'application/zip',
    });
    expectRefused(result, 'ARCHIVE_PATH_UNSAFE');
  });

  it('refuses absolute entry names in tar and zip', async () => {
    expectRefused(
      await deploy(gateway, projectId, await tarGz({ '/etc/cron.d/x': 'x' })),
      'ARCHIVE_PATH_UNSAFE',
    );
    expectRefused(
      await deploy(gateway, projectId, zipArchive({ '/etc/passwd': 'x' }), {
        contentType: 'application/zip',
      }),
      'ARCHIVE_PATH_UNSAFE',
    );
  });

  it('refuses a symlink that points outside the site', async () => {
    const archive = await tarGz([
      { name: 'index.html', content: 'ok' },
      { name: 'secret', type: 'symlink', target: '../../../etc/passwd' },
    ]);
    expectRefused(await deploy(gateway, projectId, archive), 'ARCHIVE_LINK_OUTSIDE');
  });

  it('refuses a symlink with an absolute target', async () => {
    const archive = await tarGz([{ name: 'passwd', type: 'symlink', target: '/etc/passwd' }]);
    expectRefused(await deploy(gateway, projectId, archive), 'ARCHIVE_LINK_OUTSIDE');
  });

  it('refuses a zip symlink that points outside the site', async () => {
    const archive = zipArchive([
      { name: 'index.html', content: 'ok' },
      { name: 'key', type: 'symlink', target: '../../master.key' },
    ]);
    expectRefused(
      await deploy(gateway, projectId, archive, { contentType: 'application/zip' }),
      'ARCHIVE_LINK_OUTSIDE',
    );
  });

  it('refuses a hard link to a path outside the site', async () => {
    const archive = await tarGz([{ name: 'x', type: 'link', target: '../outside' }]);
    expectRefused(await deploy(gateway, projectId, archive), 'ARCHIVE_LINK_OUTSIDE');
  });

  it('refuses device and fifo entries', async () => {
    const archive = await tarGz([{ name: 'pipe', type: 'fifo' }]);
    expectRefused(await deploy(gateway, projectId, archive), 'ARCHIVE_ENTRY_UNSUPPORTED');
  });
});

describe('links inside the site', () => {
  it('serves symlinks and hard links as the files they name', async () => {
    const archive = await tarGz([
      { name: 'docs/guide.html', content: 'guide' },
      { name: 'latest.html', type: 'symlink', target: 'docs/guide.html' },
      { name: 'docs/again.html', type: 'symlink', target: './guide.html' },
      { name: 'copy.html', type: 'link', target: 'docs/guide.html' },
    ]);
    const result = await deploy(gateway, projectId, archive);
    expect(result.status).toBe(201);
    expect(result.body.data.fileCount).toBe(4);
    for (const file of ['latest.html', 'docs/again.html', 'copy.html'])
      expect((await served(file)).text).toBe('guide');
  });

  it('serves zip symlinks as the files they name', async () => {
    const archive = zipArchive([
      { name: 'a/page.html', content: 'page' },
      { name: 'b/link.html', type: 'symlink', target: '../a/page.html' },
    ]);
    expect((await deploy(gateway, projectId, archive, { contentType: 'application/zip' })).status).toBe(201);
    expect((await served('b/link.html')).text).toBe('page');
  });

  it('refuses a link to a missing file or to a directory', async () => {
    const dangling = await tarGz([{ name: 'x.html', type: 'symlink', target: 'nowhere.html' }]);
    expectRefused(await deploy(gateway, projectId, dangling), 'ARCHIVE_LINK_UNRESOLVED');
    const loop = await tarGz([
      { name: 'a', type: 'symlink', target: 'b' },
      { name: 'b', type: 'symlink', target: 'a' },
    ]);
    expectRefused(await deploy(gateway, projectId, loop), 'ARCHIVE_LINK_UNRESOLVED');
  });
});

describe('formats and limits', () => {
  it('accepts a plain .tar sent as application/x-tar', async () => {
    const result = await deploy(gateway, projectId, await tarArchive({ 'index.html': 'plain tar' }), {
      contentType: 'application/x-tar',
    });
    expect(result.status).toBe(201);
    expect(result.body.data.archiveFormat).toBe('tar');
  });

  it('detects the format from the bytes, whatever the declared type', async () => {
    const result = await deploy(gateway, projectId, zipArchive({ 'index.html': 'z' }), {
      contentType: 'application/octet-stream',
    });
    expect(result.body.data.archiveFormat).toBe('zip');
  });

  it('accepts normalisable names such as ./a//b.html', async () => {
    const result = await deploy(gateway, projectId, await tarGz({ './a//b.html': 'norm', './': '' }));
    expect(result.status).toBe(201);
    expect((await served('a/b.html')).text).toBe('norm');
  });

  it('refuses an archive larger than the upload limit with 413', async () => {
    const result = await deploy(
      gateway,
      projectId,
      await tarGz({ 'big.bin': crypto.randomBytes(80 * 1024) }),
    );
    expectError(result, 413, 'VALIDATION_ERROR');
  });

  it('stops reading a streamed archive without Content-Length at the upload limit', async () => {
    const archive = await tarGz({ 'big.bin': crypto.randomBytes(80 * 1024) });
    const base = await gateway.listen();
    const response = await fetch(`${base}/api/pages/${projectId}/deployments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.adminToken}`, 'content-type': 'application/gzip' },
      body: Readable.toWeb(
        Readable.from([archive.subarray(0, 40_000), archive.subarray(40_000)]),
      ) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    expect({ status: response.status, code: ((await response.json()) as { code: string }).code }).toEqual({
      status: 413,
      code: 'VALIDATION_ERROR',
    });
  });

  it('refuses an archive that extracts to more than the site limit with 413 (compression bomb)', async () => {
    const result = await deploy(gateway, projectId, await tarGz({ 'zeros.bin': Buffer.alloc(1024 * 1024) }));
    expectError(result, 413, 'VALIDATION_ERROR');
    expect(result.body.details[0].message).toMatch(/extracted site is larger/);
  });

  it('refuses an archive with more files than the limit with 413', async () => {
    const files = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`f${i}.txt`, `${i}`]));
    expectError(await deploy(gateway, projectId, await tarGz(files)), 413, 'VALIDATION_ERROR');
  });

  it('leaves no staging files behind after a refused upload', async () => {
    await deploy(gateway, projectId, await tarGz({ '../x': 'x' }));
    expect(fs.readdirSync(path.join(gateway.config.dataDir, 'pages', 'tmp'))).toEqual([]);
  });
});
