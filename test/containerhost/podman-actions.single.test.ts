import { describe, expect, it } from 'vitest';
import { expectError } from '../support/expectations.js';
import type { TestGateway } from '../support/gateway.js';
import {
  auditEventsOf,
  execIn,
  lastAuditedAs,
  podmanNodeFor,
  podmanSkipReason,
  podmanSuite,
} from './helpers.js';

// What the gateway changes on a real container engine (Podman's Docker-compatible API): files moved in
// containers and written into volumes, networks disconnected, containers stopped.
const suite = podmanSuite();
const { run, names } = suite;

describe.skipIf(Boolean(podmanSkipReason))('container hosts against Podman: actions', () => {
  const node = podmanNodeFor(suite);
  const lastRecorded = (action: string) => lastAuditedAs(node, action);

  describe('file move (POST …/containers/:containerId/files/move)', () => {
    const move = (body: unknown, container = names.web) =>
      node.gateway.call('POST', `${node.base()}/containers/${container}/files/move`, { body });

    it('moves a file inside the container, and records both paths', async () => {
      await execIn(node.podman.docker, names.web, ['sh', '-c', 'echo moved-content > /tmp/source.txt']);
      const result = await move({ fromPath: '/tmp/source.txt', toPath: '/tmp/target file.txt' });
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ success: true });
      expect(await execIn(node.podman.docker, names.web, ['cat', '/tmp/target file.txt'])).toEqual({
        exitCode: 0,
        output: 'moved-content\n',
      });
      expect((await execIn(node.podman.docker, names.web, ['ls', '/tmp/source.txt'])).exitCode).not.toBe(0);
      const web = await node.podman.docker.getContainer(names.web).inspect();
      expect(await lastRecorded('containerhost.container.file_moved')).toEqual({
        targetType: 'containerhost_container',
        targetId: web.Id,
        metadata: {
          nodeId: node.nodeId,
          container: names.web,
          fromPath: '/tmp/source.txt',
          toPath: '/tmp/target file.txt',
        },
      });
    });

    it("answers 422 with the engine's message when the source is missing", async () => {
      const result = await move({ fromPath: `/tmp/${run}-nothing`, toPath: '/tmp/x' });
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(result.body.details.reason).toBe('MOVE_FAILED');
      expect(result.body.details.explanation).toMatch(/No such file or directory/);
    });

    it('answers 422 for a stopped container', async () => {
      const result = await move({ fromPath: '/tmp/a', toPath: '/tmp/b' }, names.idle);
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(result.body.details.reason).toBe('CONTAINER_NOT_RUNNING');
    });

    it('answers 404 for an unknown container', async () => {
      expectError(
        await move({ fromPath: '/tmp/a', toPath: '/tmp/b' }, `ig-${run}-missing`),
        404,
        'NOT_FOUND',
      );
    });
  });

  describe('volume file write (PUT …/volumes/:name/files/write)', () => {
    const write = (options: Parameters<TestGateway['call']>[2], volume = names.volume) =>
      node.gateway.call('PUT', `${node.base()}/volumes/${volume}/files/write`, options);
    const helpers = async () =>
      node.podman.docker.listContainers({
        all: true,
        filters: JSON.stringify({ label: ['io.infragate.helper'] }),
      });

    it('writes a JSON utf8 file that another container reads back, recording its size but not its content', async () => {
      const result = await write({
        body: { path: '/notes/hello.txt', content: 'hello volume\n', encoding: 'utf8' },
      });
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ success: true });
      expect(await execIn(node.podman.docker, names.web, ['cat', '/data/notes/hello.txt'])).toEqual({
        exitCode: 0,
        output: 'hello volume\n',
      });
      const event = await lastRecorded('containerhost.volume.file_written');
      expect(event).toEqual({
        targetType: 'containerhost_volume',
        targetId: names.volume,
        metadata: { nodeId: node.nodeId, path: '/notes/hello.txt', bytes: 13 },
      });
      expect(JSON.stringify(event)).not.toContain('hello volume');
    });

    it('writes base64 content', async () => {
      const content = Buffer.from('decoded from base64\n').toString('base64');
      expect((await write({ body: { path: 'b64.txt', content, encoding: 'base64' } })).status).toBe(200);
      expect((await execIn(node.podman.docker, names.sidecar, ['cat', '/data/b64.txt'])).output).toBe(
        'decoded from base64\n',
      );
    });

    it('writes a raw application/octet-stream body to ?path=', async () => {
      const result = await write({
        rawBody: Buffer.from('raw bytes\n'),
        headers: { 'content-type': 'application/octet-stream' },
        query: { path: 'raw//deep/./file.bin' },
      });
      expect(result.status).toBe(200);
      expect((await execIn(node.podman.docker, names.web, ['cat', '/data/raw/deep/file.bin'])).output).toBe(
        'raw bytes\n',
      );
    });

    it('creates missing parent directories with mode 0755 and the file with mode 0644', async () => {
      expect((await write({ body: { path: 'modes/sub/file.txt', content: 'x' } })).status).toBe(200);
      const listing = await execIn(node.podman.docker, names.web, [
        'ls',
        '-ld',
        '/data/modes',
        '/data/modes/sub',
        '/data/modes/sub/file.txt',
      ]);
      const modes = listing.output
        .trim()
        .split('\n')
        .map((line) => line.split(/\s+/)[0]);
      expect(modes).toEqual(['drwxr-xr-x', 'drwxr-xr-x', '-rw-r--r--']);
    });

    it('writes a file whose path is longer than a tar header holds', async () => {
      const deep = `long/${'d'.repeat(70)}/${'e'.repeat(70)}/file.txt`;
      expect((await write({ body: { path: deep, content: 'deep\n' } })).status).toBe(200);
      expect((await execIn(node.podman.docker, names.web, ['cat', `/data/${deep}`])).output).toBe('deep\n');
    });

    it('removes the helper container afterwards', async () => {
      expect(await helpers()).toEqual([]);
    });

    it('answers 422 and leaves a directory alone when the path names it', async () => {
      const result = await write({ body: { path: 'notes', content: 'x' } });
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(result.body.details.reason).toBe('TARGET_IS_DIRECTORY');
      expect((await execIn(node.podman.docker, names.web, ['cat', '/data/notes/hello.txt'])).output).toBe(
        'hello volume\n',
      );
    });

    it('answers 422 when a parent of the path is a file', async () => {
      const result = await write({ body: { path: 'notes/hello.txt/inner.txt', content: 'x' } });
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(result.body.details.reason).toBe('PARENT_NOT_DIRECTORY');
    });

    it('removes the helper container when the write fails', async () => {
      expect((await write({ body: { path: 'notes', content: 'x' } })).status).toBe(422);
      expect(await helpers()).toEqual([]);
    });

    it('refuses a path with .. segments', async () => {
      const result = await write({ body: { path: '../escape.txt', content: 'x' } });
      expect(result.status).toBe(400);
      expect(result.body.details).toEqual([{ path: ['path'], message: 'must not contain .. segments' }]);
    });

    it('answers 404 for an unknown volume', async () => {
      expectError(await write({ body: { path: 'a.txt', content: 'x' } }, `ig-${run}-none`), 404, 'NOT_FOUND');
    });

    it('answers 422 when the helper image is not on the node and cannot be pulled', async () => {
      const other = await node.gateway.call('POST', '/api/containerhost/nodes', {
        body: {
          name: 'podman-no-helper',
          endpoint: node.podman.endpoint,
          helperImage: `localhost/ig-${run}-absent:latest`,
        },
      });
      const result = await node.gateway.call(
        'PUT',
        `/api/containerhost/nodes/${other.body.data.id}/volumes/${names.volume}/files/write`,
        {
          body: { path: 'a.txt', content: 'x' },
        },
      );
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(result.body.details.reason).toBe('HELPER_IMAGE_PULL_FAILED');
    });
  });

  describe('network disconnect (POST …/networks/:networkId/disconnect)', () => {
    const disconnect = (network: string, containerId: string, query?: Record<string, string | boolean>) =>
      node.gateway.call('POST', `${node.base()}/networks/${network}/disconnect`, {
        body: { containerId },
        ...(query ? { query } : {}),
      });

    it('disconnects an attached container, and records it', async () => {
      const result = await disconnect(names.network, names.sidecar);
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ success: true });
      const inspected = await node.podman.docker.getContainer(names.sidecar).inspect();
      expect(Object.keys(inspected.NetworkSettings.Networks)).not.toContain(names.network);
      const network = await node.podman.docker.getNetwork(names.network).inspect();
      expect(await lastRecorded('containerhost.network.disconnected')).toEqual({
        targetType: 'containerhost_network',
        targetId: network.Id,
        metadata: {
          nodeId: node.nodeId,
          network: names.network,
          containerId: inspected.Id,
          container: names.sidecar,
          force: false,
        },
      });
    });

    it('answers 422 when the container is not attached', async () => {
      const result = await disconnect(names.network, names.sidecar);
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(result.body.details.reason).toBe('NOT_ATTACHED');
    });

    it('answers 404 for an unknown network or container', async () => {
      expectError(await disconnect(`ig-${run}-none`, names.web), 404, 'NOT_FOUND');
      expectError(await disconnect(names.network, `ig-${run}-missing`), 404, 'NOT_FOUND');
    });

    it('refuses the built-in bridge network without ?force=true', async () => {
      const result = await disconnect('bridge', names.web);
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(result.body.details.reason).toBe('BUILT_IN_NETWORK');
    });

    it('goes past the built-in check with ?force=true', async () => {
      // The web container is not on bridge, so the request gets as far as the attachment check.
      const result = await disconnect('bridge', names.web, { force: true });
      expect(result.body.details.reason).toBe('NOT_ATTACHED');
    });
  });

  describe('stop (POST …/containers/:containerId/stop)', () => {
    const stop = (container: string, body?: unknown) =>
      node.gateway.call(
        'POST',
        `${node.base()}/containers/${container}/stop`,
        body === undefined ? {} : { body },
      );

    it('stops a running container', async () => {
      const result = await stop(names.stopper, { timeout: 0 });
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ success: true });
      expect((await node.podman.docker.getContainer(names.stopper).inspect()).State.Running).toBe(false);
    });

    it('answers success for a container that is already stopped', async () => {
      const result = await stop(names.stopper, { timeout: 0 });
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ success: true });
    });

    it('answers 404 for an unknown container', async () => {
      expectError(await stop(`ig-${run}-missing`), 404, 'NOT_FOUND');
    });

    it('records each stop in the audit trail', async () => {
      const events = await auditEventsOf(node, 'containerhost.container.stopped');
      expect(events.map((e) => e.metadata.alreadyStopped)).toEqual([false, true]);
    });
  });
});
