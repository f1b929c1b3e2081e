import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tarGz } from '../pages/archives.js';
import { pagesConfig } from '../pages/helpers.js';
import { type KnotZone, knotBinaries, startKnotZone } from '../pages/knot-dns.js';
import { freePort } from '../services/peers.js';
import { type ApiCli, apiCli, gatewayWithCli } from '../support/cli.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

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
  it('packs a directory, uploads it with a progress bar on stderr, and prints the deployment, its site and preview URLs', async () => {
    await cli.json(['pages', 'create', '--name', 'Docs', '--slug', 'docs']);
    const result = await cli.run(['pages', 'deploy', siteDir('first'), '--project', 'docs']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('packed 3 files');
    expect(result.stderr).toMatch(/\[#+\] 100%/);
    expect(result.stderr).toContain('ETA');
    const deployment = JSON.parse(result.stdout);
    expect(deployment).toMatchObject({
      fileCount: 3,
      production: true,
      siteUrl: `${baseUrl}/sites/docs/`,
      previewUrl: `${baseUrl}/sites/docs/~${deployment.id}/`,
    });
    expect(await site('docs', '')).toBe('first');
    expect(await site('docs', 'docs/guide.html')).toBe('the guide');
    expect(await site('docs', 'home.html')).toBe('first');
  });

  it('at a terminal redraws the bar in place and ends with the site and preview URLs', async () => {
    await cli.json(['pages', 'create', '--name', 'Blog', '--slug', 'blog']);
    const shown = await cli.terminal(['pages', 'deploy', siteDir('blog'), '--project', 'blog']);
    expect(shown.code).toBe(0);
    // Drawn in place: the first and the last state of the bar share one line.
    expect(shown.stdout).toMatch(/ 0%[^\n]* 100%/);
    expect(shown.stdout).toMatch(/deployed [0-9a-f-]{36} to blog: 3 files, \d+ bytes, now in production/);
    expect(shown.stdout).toContain(`site:    ${baseUrl}/sites/blog/\r\n`);
    expect(shown.stdout).toMatch(new RegExp(`preview: ${baseUrl}/sites/blog/~[0-9a-f-]{36}/`));
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

describe('infragate pages deploy with a project deploy token (CI)', () => {
  /** The CLI as CI runs it: the deploy token in INFRAGATE_TOKEN, nothing else. */
  async function ciWithToken(slug: string): Promise<{ ci: ApiCli; tokenId: string; projectId: string }> {
    const project = await cli.json(['pages', 'create', '--name', slug, '--slug', slug]);
    const issued = await cli.json(['pages', 'deploy-tokens', 'create', '--project', slug, '--name', 'ci']);
    expect(issued.token).toMatch(/^igp_/);
    return { ci: apiCli(baseUrl, issued.token), tokenId: issued.id, projectId: project.id };
  }

  it('deploys to the project named by slug or id, and prints the site and preview URLs', async () => {
    const { ci, tokenId, projectId } = await ciWithToken('from-ci');
    const bySlug = await ci.json(['pages', 'deploy', siteDir('built by CI'), '--project', 'from-ci']);
    expect(bySlug).toMatchObject({
      deployTokenId: tokenId,
      production: true,
      siteUrl: `${baseUrl}/sites/from-ci/`,
      previewUrl: `${baseUrl}/sites/from-ci/~${bySlug.id}/`,
    });
    expect(await site('from-ci', '')).toBe('built by CI');
    const byId = await ci.json(['pages', 'deploy', siteDir('again'), '--project', projectId, '--no-promote']);
    expect(byId).toMatchObject({ deployTokenId: tokenId, production: false });
    expect(await (await fetch(byId.previewUrl)).text()).toBe('again');
  });

  it('names the project the token deploys when told another one, and uploads nothing', async () => {
    const { ci, projectId } = await ciWithToken('ci-own');
    await cli.json(['pages', 'create', '--name', 'Other', '--slug', 'ci-other']);
    const result = await ci.run(['pages', 'deploy', siteDir('x'), '--project', 'ci-other']);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      `infragate: this deploy token deploys project ci-own (${projectId}), not ci-other`,
    );
    expect(await cli.json(['pages', 'deployments', 'ls', '--project', 'ci-other'])).toEqual([]);
  });

  it('lists the tokens without their secrets; a revoked token deploys no more', async () => {
    const { ci } = await ciWithToken('ci-revoked');
    const [listed] = await cli.json(['pages', 'deploy-tokens', 'ls', '--project', 'ci-revoked']);
    expect(listed).toMatchObject({ name: 'ci', revokedAt: null });
    expect(listed).not.toHaveProperty('token');
    expect((await cli.run(['pages', 'deploy-tokens', 'revoke', 'ci', '--project', 'ci-revoked'])).code).toBe(
      0,
    );
    const refused = await ci.run(['pages', 'deploy', siteDir('x'), '--project', 'ci-revoked']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('401 UNAUTHORIZED');
    const revoked = await cli.json(['pages', 'deploy-tokens', 'ls', '--project', 'ci-revoked', '--revoked']);
    expect(revoked.map((token: { id: string }) => token.id)).toEqual([listed.id]);
  });
});

const knot = knotBinaries();
describe.skipIf(Boolean(knot.skipReason))(
  'infragate pages domains (proofs answered by a real DNS server)',
  () => {
    let zone: KnotZone;
    let domainGateway: TestGateway;
    let admin: ApiCli;
    beforeAll(async () => {
      zone = await startKnotZone('example.test');
      // Knot answers 127.0.0.1 for the names, and the HTTP proof is fetched from this port: the gateway's.
      const port = await freePort();
      domainGateway = await startTestGateway({
        pages: pagesConfig({ dnsServers: [zone.server], verifyHttpPort: port }),
      });
      await domainGateway.app.listen({ port, host: '127.0.0.1' });
      admin = apiCli(`http://127.0.0.1:${port}`, domainGateway.adminToken);
      await admin.json(['pages', 'create', '--name', 'Shop', '--slug', 'shop']);
    });
    afterAll(async () => {
      await domainGateway?.close();
      await zone?.stop();
    });

    it('adds a domain, verifies it by its HTTP token, chooses its certificate, and removes it', async () => {
      const added = await admin.json(['pages', 'domains', 'add', 'shop.example.test', '--project', 'shop']);
      expect(added).toMatchObject({ hostname: 'shop.example.test', status: 'pending' });
      expect(added.verification.httpBody).toBeTruthy();
      const listed = await admin.json(['pages', 'domains', 'ls', '--project', 'shop']);
      expect(listed.map((domain: { id: string }) => domain.id)).toEqual([added.id]);
      const verified = await admin.json([
        'pages',
        'domains',
        'verify',
        'shop.example.test',
        '--project',
        'shop',
        '--method',
        'http',
      ]);
      expect(verified).toMatchObject({ status: 'verified', lastError: null });
      const kept = await admin.json([
        'pages',
        'domains',
        'set-certificate',
        'shop.example.test',
        '--project',
        'shop',
        '--certificate',
        'none',
      ]);
      expect(kept).toMatchObject({ id: added.id, certificateId: null });
      expect((await admin.json(['pages', 'domains', 'get', added.id, '--project', 'shop'])).status).toBe(
        'verified',
      );
      expect(
        (await admin.run(['pages', 'domains', 'delete', 'shop.example.test', '--project', 'shop'])).code,
      ).toBe(0);
      expect(await admin.json(['pages', 'domains', 'ls', '--project', 'shop'])).toEqual([]);
    });
  },
);
