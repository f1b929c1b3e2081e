import { describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import type { CallOptions } from '../support/gateway.js';
import {
  auditEventsOf,
  execIn,
  lastAuditedAs,
  podmanNodeFor,
  podmanSkipReason,
  podmanSuite,
} from './helpers.js';

// A container's files through the archive API, and a volume's through helper containers, on a real
// engine (Podman); every change is checked inside the container.
const suite = podmanSuite();
const { run, names } = suite;
const LIMIT = 64 * 1024;
const raw = (content: string | Buffer, query: Record<string, string>): CallOptions => ({
  rawBody: Buffer.from(content),
  headers: { 'content-type': 'application/octet-stream' },
  query,
});

describe.skipIf(Boolean(podmanSkipReason))('container hosts against Podman: files', () => {
  const node = podmanNodeFor(suite, { volumeWriteLimitBytes: LIMIT });
  const files = (container = names.web, tail = '') => `${node.base()}/containers/${container}/files${tail}`;
  const list = (path?: string, container = names.web) =>
    node.gateway.call('GET', files(container), path === undefined ? {} : { query: { path } });
  const download = (path: string, container = names.web) =>
    node.gateway.call('GET', files(container, '/content'), { query: { path } });
  const upload = (path: string, content: string | Buffer, container = names.web) =>
    node.gateway.call('PUT', files(container, '/content'), raw(content, { path }));
  const inWeb = (cmd: string[]) => execIn(node.podman.docker, names.web, cmd);

  describe('list (GET …/containers/:containerId/files)', () => {
    it('lists a directory with each entry’s name, type, size, mode, mtime and link target', async () => {
      const result = await list('/www');
      expect(result.status).toBe(200);
      expect(result.body.data).toMatchObject({ path: '/www', truncated: false });
      expect(result.body.data.entries).toEqual([
        {
          name: 'cgi-bin',
          type: 'directory',
          size: 0,
          mode: '0755',
          mtime: expect.any(String),
          linkTarget: null,
        },
        {
          name: 'index.html',
          type: 'file',
          size: 27,
          mode: '0644',
          mtime: expect.any(String),
          linkTarget: null,
        },
      ]);
    });

    it('names the target of a symbolic link', async () => {
      const entries = (await list('/bin')).body.data.entries;
      expect(entries).toContainEqual(
        expect.objectContaining({ name: 'sh', type: 'symlink', linkTarget: 'busybox' }),
      );
    });

    it('lists the root when no path is given', async () => {
      const names = (await list()).body.data.entries.map((entry: { name: string }) => entry.name);
      expect(names).toEqual(expect.arrayContaining(['bin', 'www', 'data']));
    });

    it('lists a stopped container', async () => {
      expect((await list('/www', names.idle)).status).toBe(200);
    });

    it('answers 404 for a missing directory or container, 422 for a file', async () => {
      expectError(await list('/nowhere'), 404, 'NOT_FOUND');
      expectError(await list('/', `ig-${run}-missing`), 404, 'NOT_FOUND');
      const file = await list('/www/index.html');
      expectError(file, 422, 'UNPROCESSABLE_ENTITY');
      expect(file.body.details.reason).toBe('NOT_A_DIRECTORY');
    });

    it('refuses a relative path and .. segments with 400', async () => {
      expectValidationError(await list('www'), ['path']);
      expectValidationError(await list('/www/../etc'), ['path']);
    });
  });

  describe('download (GET …/files/content)', () => {
    it('answers the bytes of a file as an attachment', async () => {
      const result = await download('/www/index.html');
      expect(result.status).toBe(200);
      expect(result.text).toBe('infragate test page: hello\n');
      expect(result.headers['content-type']).toBe('application/octet-stream');
      expect(result.headers['content-disposition']).toBe("attachment; filename*=UTF-8''index.html");
    });

    it('answers 422 for a directory and for a symbolic link (naming its target)', async () => {
      expect((await download('/www')).body.details.reason).toBe('TARGET_IS_DIRECTORY');
      const link = await download('/bin/sh');
      expectError(link, 422, 'UNPROCESSABLE_ENTITY');
      expect(link.body.details).toMatchObject({
        reason: 'TARGET_IS_SYMLINK',
        linkTarget: expect.any(String),
      });
    });

    it('answers 404 for a missing file', async () => {
      expectError(await download('/www/none.html'), 404, 'NOT_FOUND');
    });
  });

  describe('upload (PUT …/files/content)', () => {
    it('writes a new file (mode 0644) with its missing parents', async () => {
      expect((await upload('/srv/new/hello.txt', 'file body\n')).body).toEqual({ success: true });
      expect((await inWeb(['cat', '/srv/new/hello.txt'])).output).toBe('file body\n');
      expect((await inWeb(['ls', '-l', '/srv/new/hello.txt'])).output).toMatch(/^-rw-r--r--/);
    });

    it('replaces a file and keeps its permissions', async () => {
      await inWeb(['sh', '-c', 'echo old > /tmp/kept.txt && chmod 600 /tmp/kept.txt']);
      expect((await upload('/tmp/kept.txt', 'new\n')).status).toBe(200);
      expect((await inWeb(['cat', '/tmp/kept.txt'])).output).toBe('new\n');
      expect((await inWeb(['ls', '-l', '/tmp/kept.txt'])).output).toMatch(/^-rw-------/);
    });

    it('writes an empty file', async () => {
      expect((await upload('/tmp/empty.txt', '')).status).toBe(200);
      expect(await inWeb(['cat', '/tmp/empty.txt'])).toEqual({ exitCode: 0, output: '' });
    });

    it('writes into a stopped container', async () => {
      expect((await upload('/tmp/offline.txt', 'while stopped\n', names.idle)).status).toBe(200);
      expect((await download('/tmp/offline.txt', names.idle)).text).toBe('while stopped\n');
    });

    it('records the upload with its size, never its content', async () => {
      const [event] = await auditEventsOf(node, 'containerhost.container.file_uploaded');
      expect(event?.metadata).toMatchObject({ path: '/srv/new/hello.txt', bytes: 10, replaced: false });
      expect(JSON.stringify(event)).not.toContain('file body');
    });

    it('answers 413 past the size limit and writes nothing', async () => {
      const result = await upload('/tmp/big.bin', Buffer.alloc(LIMIT + 1));
      expectError(result, 413, 'VALIDATION_ERROR');
      expect((await inWeb(['ls', '/tmp/big.bin'])).exitCode).not.toBe(0);
    });

    it('answers 415 for a content type other than application/octet-stream', async () => {
      const result = await node.gateway.call('PUT', files(names.web, '/content'), {
        rawBody: 'text',
        headers: { 'content-type': 'text/plain' },
        query: { path: '/tmp/x.txt' },
      });
      expectError(result, 415, 'VALIDATION_ERROR');
    });

    it('answers 422 when the path names a directory, and leaves it alone', async () => {
      const result = await upload('/www', 'x');
      expect(result.body.details.reason).toBe('TARGET_IS_DIRECTORY');
      expect((await inWeb(['cat', '/www/index.html'])).exitCode).toBe(0);
    });

    it('refuses a path ending in / with 400', async () => {
      expectValidationError(await upload('/tmp/dir/', 'x'), ['path']);
    });
  });

  describe('mkdir and delete', () => {
    const mkdir = (path: string) => node.gateway.call('POST', files(names.web, '/mkdir'), { body: { path } });
    const remove = (path: string, query: Record<string, string | boolean> = {}, container = names.web) =>
      node.gateway.call('DELETE', files(container), { query: { path, ...query } });
    const lastRecorded = (verb: string) => lastAuditedAs(node, `containerhost.container.${verb}`);
    const aboutWeb = async (metadata: Record<string, unknown>) => ({
      targetType: 'containerhost_container',
      targetId: (await node.podman.docker.getContainer(names.web).inspect()).Id,
      metadata: { nodeId: node.nodeId, container: names.web, ...metadata },
    });

    it('creates a directory with its parents, and records it', async () => {
      expect((await mkdir('/srv/made/deeper')).status).toBe(201);
      expect((await inWeb(['test', '-d', '/srv/made/deeper'])).exitCode).toBe(0);
      expect(await lastRecorded('directory_created')).toEqual(await aboutWeb({ path: '/srv/made/deeper' }));
    });

    it('answers 409 when the path exists', async () => {
      const result = await mkdir('/srv/made');
      expectError(result, 409, 'CONFLICT');
      expect(result.body.details.reason).toBe('PATH_EXISTS');
    });

    it('deletes a file, and records it', async () => {
      expect((await remove('/srv/new/hello.txt')).body).toEqual({ success: true });
      expect((await inWeb(['ls', '/srv/new/hello.txt'])).exitCode).not.toBe(0);
      expect(await lastRecorded('file_deleted')).toEqual(
        await aboutWeb({ path: '/srv/new/hello.txt', type: 'file', recursive: false }),
      );
    });

    it('answers 409 for a directory with entries unless ?recursive=true', async () => {
      const refused = await remove('/srv/made');
      expectError(refused, 409, 'CONFLICT');
      expect(refused.body.details.reason).toBe('DIRECTORY_NOT_EMPTY');
      expect((await remove('/srv/made', { recursive: true })).status).toBe(200);
      expect((await inWeb(['ls', '/srv/made'])).exitCode).not.toBe(0);
      expect(await lastRecorded('file_deleted')).toEqual(
        await aboutWeb({ path: '/srv/made', type: 'directory', recursive: true }),
      );
    });

    it('deletes an empty directory', async () => {
      expect((await remove('/srv/new')).status).toBe(200);
      expect((await inWeb(['ls', '/srv/new'])).exitCode).not.toBe(0);
    });

    it('answers 404 for a missing path, 409 in a stopped container, 400 for the root', async () => {
      expectError(await remove('/srv/none'), 404, 'NOT_FOUND');
      expectError(await remove('/tmp/offline.txt', {}, names.idle), 409, 'CONFLICT');
      expectValidationError(await remove('/'), ['path']);
    });
  });

  describe('volumes (GET …/volumes/:name/files and /files/content)', () => {
    const volume = (tail: string, query: Record<string, string>, name = names.volume) =>
      node.gateway.call('GET', `${node.base()}/volumes/${name}/files${tail}`, { query });
    const helpers = () =>
      node.podman.docker.listContainers({
        all: true,
        filters: JSON.stringify({ label: ['io.infragate.helper'] }),
      });

    it('lists a directory of the volume', async () => {
      await inWeb(['sh', '-c', 'mkdir -p /data/browse && echo in volume > /data/browse/a.txt']);
      const result = await volume('', { path: 'browse' });
      expect(result.status).toBe(200);
      expect(result.body.data.entries).toEqual([
        expect.objectContaining({ name: 'a.txt', type: 'file', size: 10 }),
      ]);
    });

    it('reads a file of the volume', async () => {
      const result = await volume('/content', { path: '/browse/a.txt' });
      expect(result.text).toBe('in volume\n');
    });

    it('removes its helper containers afterwards', async () => {
      await eventually(async () => (await helpers()).length === 0, 'helper containers to be removed');
    });

    it('answers 404 for an unknown volume or file, 400 for .. segments', async () => {
      expectError(await volume('', { path: '/' }, `ig-${run}-none`), 404, 'NOT_FOUND');
      expectError(await volume('/content', { path: 'browse/none.txt' }), 404, 'NOT_FOUND');
      expectValidationError(await volume('', { path: '../etc' }), ['path']);
    });
  });
});
