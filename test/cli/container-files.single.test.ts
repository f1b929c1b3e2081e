import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { execIn, podmanNodeFor, podmanSkipReason, podmanSuite } from '../containerhost/helpers.js';
import { type ApiCli, apiCli } from '../support/cli.js';

// `infragate containers files`: a container's files through a real gateway and a real engine
// (Podman), each change checked inside the container.
const suite = podmanSuite();
const { run, names } = suite;
const host = ['--host', 'podman'];

describe.skipIf(Boolean(podmanSkipReason))('infragate containers files against Podman', () => {
  const node = podmanNodeFor(suite);
  let cli: ApiCli;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-cli-files-'));
  const inWeb = async (script: string) =>
    (await execIn(node.podman.docker, names.web, ['sh', '-c', script])).output;

  beforeAll(async () => {
    cli = apiCli(await node.gateway.listen(), node.gateway.adminToken);
  });

  it('lists a directory as a table of name, type, size, mode and time', async () => {
    const result = await cli.terminal(['containers', 'files', 'ls', names.web, '/www', ...host]);
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toMatch(/NAME\s+TYPE\s+SIZE\s+MODE\s+MTIME/);
    expect(result.stdout).toMatch(/index\.html\s+file\s+27\s+0644/);
  });

  it('lists the root directory when no path is given, as the listing in JSON', async () => {
    const listing = await cli.json(['containers', 'files', 'ls', names.web, ...host]);
    expect(listing).toMatchObject({ path: '/', truncated: false });
    expect(listing.entries).toContainEqual(expect.objectContaining({ name: 'www', type: 'directory' }));
  });

  it('prints a file on standard output', async () => {
    const result = await cli.run(['containers', 'files', 'get', names.web, '/www/index.html', ...host]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(await inWeb('cat /www/index.html'));
  });

  it('writes a downloaded file with -o, byte for byte', async () => {
    const bytes = crypto.randomBytes(3000);
    const uploaded = await node.gateway.call('PUT', `${node.base()}/containers/${names.web}/files/content`, {
      rawBody: bytes,
      headers: { 'content-type': 'application/octet-stream' },
      query: { path: '/tmp/random.bin' },
    });
    expect(uploaded.status).toBe(200);
    const target = path.join(work, 'back.bin');
    const get = ['containers', 'files', 'get', names.web, '/tmp/random.bin', '-o', target, ...host];
    expect(await cli.json(get)).toEqual({ file: target, bytes: 3000 });
    expect(fs.readFileSync(target).equals(bytes)).toBe(true);
  });

  it('uploads standard input with -, replacing the file', async () => {
    await inWeb('echo first > /tmp/note.txt');
    const put = ['containers', 'files', 'put', names.web, '/tmp/note.txt', '-', ...host];
    expect(await cli.json(put, 'second\n')).toEqual({ success: true });
    expect(await inWeb('cat /tmp/note.txt')).toBe('second\n');
  });

  it('says how many bytes it wrote where, at a terminal', async () => {
    const source = path.join(work, 'hello.txt');
    fs.writeFileSync(source, 'hello');
    const result = await cli.terminal([
      'containers',
      'files',
      'put',
      names.web,
      '/tmp/hello.txt',
      source,
      ...host,
    ]);
    expect(result.stdout.trim()).toBe(`wrote 5 bytes to ${names.web}:/tmp/hello.txt`);
  });

  it('stops before sending anything when the local file cannot be read', async () => {
    const missing = path.join(work, 'absent.txt');
    const result = await cli.run(['containers', 'files', 'put', names.web, '/tmp/absent', missing, ...host]);
    expect(result).toMatchObject({ code: 1, stderr: `infragate: cannot read ${missing}: ENOENT\n` });
    expect(await inWeb('test -e /tmp/absent && echo there || echo absent')).toBe('absent\n');
  });

  it('creates a directory with its missing parents', async () => {
    const made = await cli.json(['containers', 'files', 'mkdir', names.web, `/tmp/${run}/a/b`, ...host]);
    expect(made).toEqual({ success: true });
    expect(await inWeb(`test -d /tmp/${run}/a/b && echo directory`)).toBe('directory\n');
  });

  it('deletes a file', async () => {
    await inWeb(`touch /tmp/${run}-single`);
    const rm = ['containers', 'files', 'rm', names.web, `/tmp/${run}-single`, ...host];
    expect((await cli.run(rm)).code).toBe(0);
    expect(await inWeb(`test -e /tmp/${run}-single || echo gone`)).toBe('gone\n');
  });

  it('refuses to delete a directory that is not empty without -r', async () => {
    await inWeb(`mkdir -p /tmp/${run}-kept/sub && touch /tmp/${run}-kept/sub/file`);
    const rm = ['containers', 'files', 'rm', names.web, `/tmp/${run}-kept`, ...host];
    const result = await cli.run(rm);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^infragate: 409 /);
    expect(await inWeb(`test -e /tmp/${run}-kept/sub/file && echo kept`)).toBe('kept\n');
  });

  it('deletes a directory with everything in it with -r', async () => {
    await inWeb(`mkdir -p /tmp/${run}-tree/sub && touch /tmp/${run}-tree/sub/file`);
    const rm = ['containers', 'files', 'rm', names.web, `/tmp/${run}-tree`, '-r', ...host];
    expect((await cli.run(rm)).code).toBe(0);
    expect(await inWeb(`test -e /tmp/${run}-tree || echo gone`)).toBe('gone\n');
  });

  it("prints the API's error and exits 1 for a file that does not exist", async () => {
    const result = await cli.run(['containers', 'files', 'get', names.web, '/www/absent.html', ...host]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^infragate: 404 /);
  });
});
