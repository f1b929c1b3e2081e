import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tarGz } from '../pages/archives.js';
import { type ApiCli, gatewayWithCli } from '../support/cli.js';
import type { TestGateway } from '../support/gateway.js';

let gateway: TestGateway;
let baseUrl: string;
let cli: ApiCli;
beforeAll(async () => {
  ({ gateway, baseUrl, cli } = await gatewayWithCli());
});
afterAll(() => gateway.close());

/** A site directory: an index, a page in a subdirectory and a symbolic link to the index. */
function siteDir(index: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-site-'));
  fs.writeFileSync(path.join(dir, 'index.html'), index);
  fs.mkdirSync(path.join(dir, 'docs'));
  fs.writeFileSync(path.join(dir, 'docs', 'guide.html'), 'the guide');
  fs.symlinkSync('index.html', path.join(dir, 'home.html'));
  return dir;
}

const site = async (slug: string, file: string) => (await fetch(`${baseUrl}/sites/${slug}/${file}`)).text();

describe('infragate pages projects', () => {
  it('creates a project, finds it by slug, updates and deletes it', async () => {
    const project = await cli.json(['pages', 'create', '--name', 'Handbook', '--slug', 'handbook']);
    expect(project).toMatchObject({ slug: 'handbook', spaFallback: false });
    expect((await cli.json(['pages', 'get', 'handbook'])).id).toBe(project.id);
    expect((await cli.json(['pages', 'update', 'handbook', '--spa-fallback'])).spaFallback).toBe(true);
    expect((await cli.json(['pages', 'ls', '--q', 'hand'])).map((row: { id: string }) => row.id)).toEqual([
      project.id,
    ]);
    expect((await cli.run(['pages', 'delete', 'handbook'])).code).toBe(0);
    expect((await gateway.call('GET', `/api/pages/${project.id}`)).status).toBe(404);
  });
});

describe('infragate pages deploy', () => {
  it('packs a directory, uploads it with a progress bar on stderr, and prints the deployment and its site URL', async () => {
    await cli.json(['pages', 'create', '--name', 'Docs', '--slug', 'docs']);
    const result = await cli.run(['pages', 'deploy', siteDir('first'), '--project', 'docs']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('packed 3 files');
    expect(result.stderr).toMatch(/\[#+\] 100%/);
    expect(result.stderr).toContain('ETA');
    const deployment = JSON.parse(result.stdout);
    expect(deployment).toMatchObject({ fileCount: 3, production: true, siteUrl: `${baseUrl}/sites/docs/` });
    expect(await site('docs', '')).toBe('first');
    expect(await site('docs', 'docs/guide.html')).toBe('the guide');
    expect(await site('docs', 'home.html')).toBe('first');
  });

  it('at a terminal redraws the bar in place and ends with the site URL', async () => {
    await cli.json(['pages', 'create', '--name', 'Blog', '--slug', 'blog']);
    const shown = await cli.terminal(['pages', 'deploy', siteDir('blog'), '--project', 'blog']);
    expect(shown.code).toBe(0);
    // Drawn in place: the first and the last state of the bar share one line.
    expect(shown.stdout).toMatch(/ 0%[^\n]* 100%/);
    expect(shown.stdout).toMatch(/deployed [0-9a-f-]{36} to blog: 3 files, \d+ bytes, now in production/);
    expect(shown.stdout).toContain(`${baseUrl}/sites/blog/`);
  });

  it('uploads an archive as it is; --no-promote keeps production where it was until promote', async () => {
    await cli.json(['pages', 'create', '--name', 'Site', '--slug', 'site']);
    const first = await cli.json(['pages', 'deploy', siteDir('v1'), '--project', 'site']);
    const archive = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-archive-')), 'site.tar.gz');
    fs.writeFileSync(archive, await tarGz({ 'dist/index.html': 'v2' }));
    const second = await cli.json([
      'pages',
      'deploy',
      archive,
      '--project',
      'site',
      '--no-promote',
      '--strip-components',
      '1',
    ]);
    expect(second).toMatchObject({ production: false, archiveFormat: 'tar.gz', fileCount: 1 });
    expect(await site('site', '')).toBe('v1');
    expect(await cli.json(['pages', 'promote', second.id, '--project', 'site'])).toMatchObject({
      production: true,
    });
    expect(await site('site', '')).toBe('v2');
    expect(await cli.json(['pages', 'pin', first.id, '--project', 'site'])).toMatchObject({ pinned: true });
    const pinned = await cli.json(['pages', 'deployments', 'ls', '--project', 'site', '--pinned']);
    expect(pinned.map((row: { id: string }) => row.id)).toEqual([first.id]);
    const files = await cli.json(['pages', 'deployments', 'files', second.id, '--project', 'site']);
    expect(files.map((file: { path: string }) => file.path)).toEqual(['index.html']);
    const refused = await cli.run(['pages', 'deployments', 'delete', second.id, '--project', 'site']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('DEPLOYMENT_IS_PRODUCTION');
  });

  it('names a project that does not exist, and a source that does not exist', async () => {
    const noProject = await cli.run(['pages', 'deploy', siteDir('x'), '--project', 'missing']);
    expect(noProject.code).toBe(1);
    expect(noProject.stderr.trim()).toBe('infragate: no project with slug missing');
    await cli.json(['pages', 'create', '--name', 'Empty', '--slug', 'empty']);
    const noSource = await cli.run(['pages', 'deploy', '/nonexistent/site', '--project', 'empty']);
    expect(noSource.code).toBe(1);
    expect(noSource.stderr.trim()).toBe('infragate: /nonexistent/site does not exist');
  });
});
