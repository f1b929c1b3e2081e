import crypto from 'node:crypto';
import type Docker from 'dockerode';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containerhostHealthChecks } from '../../src/db/schema/index.js';
import { HEALTH_JOB } from '../../src/modules/containerhost/health-checks.js';
import { freePort } from '../services/peers.js';
import { type PodmanPeer, podmanBinaries, removeLabelled, startPodman } from '../services/podman.js';
import { expectError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

// Behaviour against a real container engine: Podman's Docker-compatible API on a unix socket.
const binaries = podmanBinaries();
if (binaries.skipReason) console.warn(`skipping the Podman suite: ${binaries.skipReason}`);

const run = crypto.randomBytes(3).toString('hex');
const label = `io.infragate.test=${run}`;
const names = {
  network: `ig-${run}-net`,
  volume: `ig-${run}-vol`,
  web: `ig-${run}-web`,
  stopper: `ig-${run}-stopper`,
  sidecar: `ig-${run}-sidecar`,
  idle: `ig-${run}-idle`,
};

/** Runs a command in a container directly on the engine, for setting up and checking. */
async function execIn(
  docker: Docker,
  container: string,
  cmd: string[],
): Promise<{ exitCode: number; output: string }> {
  const exec = await docker
    .getContainer(container)
    .exec({ Cmd: cmd, AttachStdout: true, AttachStderr: true });
  const stream = await exec.start({ hijack: true, stdin: false });
  const chunks: Buffer[] = [];
  const sink = { write: (chunk: Buffer) => chunks.push(chunk) };
  docker.modem.demuxStream(stream, sink as never, sink as never);
  await new Promise((resolve) => stream.on('end', resolve));
  const info = await exec.inspect();
  return { exitCode: info.ExitCode ?? -1, output: Buffer.concat(chunks).toString('utf8') };
}

describe.skipIf(Boolean(binaries.skipReason))('container hosts against Podman', () => {
  let podman: PodmanPeer;
  let gateway: TestGateway;
  let nodeId: string;
  let webPort: number;
  let webIp: string;
  let sidecarIp: string;
  const base = () => `/api/containerhost/nodes/${nodeId}`;

  beforeAll(async () => {
    [podman, gateway] = await Promise.all([startPodman(), startTestGateway({ healthCheckHistory: 2 })]);
    const { docker, image } = podman;
    const labels = { 'io.infragate.test': run };
    await Promise.all([
      docker.createNetwork({ Name: names.network, Labels: labels }),
      docker.createVolume({ Name: names.volume, Labels: labels }),
    ]);
    const httpd = (name: string, publish: boolean) =>
      docker.createContainer({
        name,
        Image: image,
        Cmd: ['/bin/httpd', '-f', '-p', '8080', '-h', '/www'],
        Labels: labels,
        ExposedPorts: { '8080/tcp': {} },
        HostConfig: {
          NetworkMode: names.network,
          Binds: [`${names.volume}:/data`],
          ...(publish ? { PortBindings: { '8080/tcp': [{ HostIp: '127.0.0.1', HostPort: '0' }] } } : {}),
        },
      });
    const created = await Promise.all([
      httpd(names.web, true),
      httpd(names.stopper, true),
      httpd(names.sidecar, false),
      docker.createContainer({ name: names.idle, Image: image, Cmd: ['/bin/true'], Labels: labels }),
    ]);
    await Promise.all(created.slice(0, 3).map((c) => c.start()));
    const web = await docker.getContainer(names.web).inspect();
    webPort = Number(web.NetworkSettings.Ports['8080/tcp']![0]!.HostPort);
    webIp = web.NetworkSettings.Networks[names.network]!.IPAddress;
    const sidecar = await docker.getContainer(names.sidecar).inspect();
    sidecarIp = sidecar.NetworkSettings.Networks[names.network]!.IPAddress;

    const node = await gateway.call('POST', '/api/containerhost/nodes', {
      body: { name: 'podman', endpoint: podman.endpoint, helperImage: image },
    });
    expect(node.status).toBe(201);
    nodeId = node.body.data.id;
  });

  afterAll(async () => {
    if (podman) await removeLabelled(podman.docker, label).catch(() => {});
    await Promise.all([gateway?.close(), podman?.stop()]);
  });

  describe('node', () => {
    it('reports the engine as reachable with its version', async () => {
      const result = await gateway.call('GET', base());
      expect(result.status).toBe(200);
      expect(result.body.data.engine).toMatchObject({ reachable: true, version: expect.any(String) });
      expect(result.body.data.engine.version.length).toBeGreaterThan(0);
    });
  });

  describe('read models', () => {
    it('lists running containers by name with their published ports', async () => {
      const result = await gateway.call('GET', `${base()}/containers`, { query: { limit: 100 } });
      expect(result.status).toBe(200);
      const web = result.body.data.find((c: { name: string }) => c.name === names.web);
      expect(web).toMatchObject({ state: 'running', resourceKey: names.web });
      expect(web.ports).toContainEqual(expect.objectContaining({ privatePort: 8080, publicPort: webPort }));
      expect(result.body.data.map((c: { name: string }) => c.name)).not.toContain(names.idle);
    });

    it('includes stopped containers with ?all=true', async () => {
      const result = await gateway.call('GET', `${base()}/containers`, {
        query: { all: true, q: run, limit: 100 },
      });
      expect(result.body.data.map((c: { name: string }) => c.name)).toContain(names.idle);
    });

    it('pages container listings with the shared pagination envelope', async () => {
      const result = await gateway.call('GET', `${base()}/containers`, {
        query: { all: true, q: run, limit: 2 },
      });
      expect(result.body.data).toHaveLength(2);
      expect(result.body.pagination).toEqual({ page: 1, limit: 2, total: 4, totalPages: 2 });
    });

    it('inspects a container by name, without its environment', async () => {
      const result = await gateway.call('GET', `${base()}/containers/${names.web}`);
      expect(result.status).toBe(200);
      expect(result.body.data).toMatchObject({ name: names.web, state: { running: true } });
      expect(result.body.data.networks).toContainEqual(
        expect.objectContaining({ name: names.network, ipAddress: webIp }),
      );
      expect(result.body.data).not.toHaveProperty('env');
    });

    it('answers 404 for a container the engine does not know', async () => {
      expectError(await gateway.call('GET', `${base()}/containers/ig-${run}-missing`), 404, 'NOT_FOUND');
    });

    it('lists and inspects networks, volumes and images', async () => {
      const networks = await gateway.call('GET', `${base()}/networks`, { query: { q: run } });
      expect(networks.body.data.map((n: { name: string }) => n.name)).toEqual([names.network]);
      const network = await gateway.call('GET', `${base()}/networks/${names.network}`);
      expect(network.body.data).toMatchObject({ name: names.network, builtIn: false });

      const volumes = await gateway.call('GET', `${base()}/volumes`, { query: { q: run } });
      expect(volumes.body.data.map((v: { name: string }) => v.name)).toEqual([names.volume]);
      const volume = await gateway.call('GET', `${base()}/volumes/${names.volume}`);
      expect(volume.body.data).toMatchObject({ name: names.volume, labels: { 'io.infragate.test': run } });

      const images = await gateway.call('GET', `${base()}/images`, { query: { q: 'infragate-test' } });
      expect(images.body.data[0].repoTags).toContain(podman.image);
      const image = await gateway.call('GET', `${base()}/images/${encodeURIComponent(podman.image)}`);
      expect(image.body.data.repoTags).toContain(podman.image);
    });

    it('answers 404 for an unknown network, volume or image', async () => {
      expectError(await gateway.call('GET', `${base()}/networks/ig-${run}-none`), 404, 'NOT_FOUND');
      expectError(await gateway.call('GET', `${base()}/volumes/ig-${run}-none`), 404, 'NOT_FOUND');
      expectError(await gateway.call('GET', `${base()}/images/ig-${run}-none`), 404, 'NOT_FOUND');
    });

    it('lists containers in the order saved by reorder-resources', async () => {
      const reorder = await gateway.call('PUT', '/api/containerhost/folders/reorder-resources', {
        body: {
          resourceType: 'container',
          items: [
            { nodeId, resourceKey: names.sidecar, sortOrder: 1 },
            { nodeId, resourceKey: names.web, sortOrder: 2 },
            { nodeId, resourceKey: names.idle, sortOrder: 3 },
          ],
        },
      });
      expect(reorder.status).toBe(200);
      const result = await gateway.call('GET', `${base()}/containers`, { query: { all: true, q: run } });
      expect(result.body.data.map((c: { name: string }) => c.name)).toEqual([
        names.sidecar,
        names.web,
        names.idle,
        names.stopper,
      ]);
      expect(result.body.data[0].sortOrder).toBe(1);
      expect(result.body.data[3].sortOrder).toBeNull();
    });
  });

  describe('health-check test (POST …/containers/:containerName/health-check/test)', () => {
    const test = (body?: Record<string, unknown>, container = names.web) =>
      gateway.call('POST', `${base()}/containers/${container}/health-check/test`, body ? { body } : {});

    it('reports online for a published port that answers in range with the expected body', async () => {
      const result = await test({ hostPort: webPort, expectedBody: 'hello' });
      expect(result.status).toBe(200);
      expect(result.body.data).toMatchObject({
        ok: true,
        status: 'online',
        httpStatus: 200,
        slow: false,
        bodyMatched: true,
        url: `http://127.0.0.1:${webPort}/`,
      });
      expect(result.body.data.responseMs).toBeGreaterThanOrEqual(0);
      expect(Date.parse(result.body.data.checkedAt)).not.toBeNaN();
    });

    it('probes the first published port when neither port is given', async () => {
      const result = await test();
      expect(result.body.data).toMatchObject({
        ok: true,
        status: 'online',
        url: `http://127.0.0.1:${webPort}/`,
      });
      expect(result.body.data.bodyMatched).toBeNull();
    });

    it("probes the container's own address when only containerPort is given", async () => {
      const result = await test({ containerPort: 8080 }, names.sidecar);
      expect(result.body.data).toMatchObject({
        ok: true,
        status: 'online',
        url: `http://${sidecarIp}:8080/`,
      });
    });

    it('reports offline when the status is outside statusMin..statusMax', async () => {
      const result = await test({ hostPort: webPort, statusMin: 500, statusMax: 599 });
      expect(result.body.data).toMatchObject({ ok: false, status: 'offline', httpStatus: 200 });
      expect(result.body.data.error).toMatch(/outside 500-599/);
    });

    it('reports offline when the body does not match', async () => {
      const result = await test({ hostPort: webPort, expectedBody: 'not on the page' });
      expect(result.body.data).toMatchObject({
        ok: false,
        status: 'offline',
        httpStatus: 200,
        bodyMatched: false,
      });
    });

    it('matches the body with exact, starts_with and ends_with', async () => {
      const page = 'infragate test page: hello\n';
      for (const [mode, expectedBody] of [
        ['exact', page],
        ['starts_with', 'infragate test'],
        ['ends_with', 'hello'],
      ]) {
        const result = await test({ hostPort: webPort, expectedBody, bodyMatchMode: mode });
        expect({ mode, matched: result.body.data.bodyMatched }).toEqual({ mode, matched: true });
      }
    });

    it('reports degraded and slow when the answer takes longer than slowThreshold', async () => {
      const result = await test({ hostPort: webPort, path: '/cgi-bin/slow', slowThreshold: 200 });
      expect(result.body.data).toMatchObject({ ok: true, status: 'degraded', slow: true, httpStatus: 200 });
    });

    it('reports offline when the answer does not come within timeoutSeconds', async () => {
      const result = await test({ hostPort: webPort, path: '/cgi-bin/slower', timeoutSeconds: 1 });
      expect(result.body.data).toMatchObject({ ok: false, status: 'offline', httpStatus: null });
      expect(result.body.data.error).toBe('timed out after 1 s');
    });

    it('reports offline with the reason when the port refuses connections', async () => {
      const result = await test({ hostPort: await freePort() });
      expect(result.body.data).toMatchObject({ ok: false, status: 'offline', httpStatus: null });
      expect(result.body.data.error).toBe('connection refused');
    });

    it('answers 404 for an unknown container', async () => {
      expectError(await test({}, `ig-${run}-missing`), 404, 'NOT_FOUND');
    });

    it('reports disabled when the saved check is disabled', async () => {
      const saved = await gateway.call('PUT', `${base()}/containers/${names.stopper}/health-check`, {
        body: { enabled: false, hostPort: 1 },
      });
      expect(saved.status).toBe(200);
      const result = await test({}, names.stopper);
      expect(result.body.data).toMatchObject({ ok: false, status: 'disabled' });
    });
  });

  describe('saved health checks', () => {
    it('saves a check with the defaults of the spec table', async () => {
      const result = await gateway.call('PUT', `${base()}/containers/${names.web}/health-check`, {
        body: { hostPort: webPort, expectedBody: 'hello' },
      });
      expect(result.status).toBe(200);
      expect(result.body.data).toMatchObject({
        containerName: names.web,
        enabled: true,
        scheme: 'http',
        path: '/',
        statusMin: 200,
        statusMax: 399,
        bodyMatchMode: 'includes',
        intervalSeconds: 30,
        timeoutSeconds: 5,
        slowThreshold: 1000,
      });
      const read = await gateway.call('GET', `${base()}/containers/${names.web}/health-check`);
      expect(read.body.data.hostPort).toBe(webPort);
    });

    it('runs due checks in the background and keeps their results', async () => {
      await gateway.deps.jobs.runNow(HEALTH_JOB);
      const results = await gateway.call('GET', `${base()}/containers/${names.web}/health-check/results`);
      expect(results.status).toBe(200);
      expect(results.body.pagination.total).toBe(1);
      expect(results.body.data[0]).toMatchObject({
        ok: true,
        status: 'online',
        httpStatus: 200,
        bodyMatched: true,
      });
    });

    it('moves a check one interval ahead once it ran, so it does not run again at once', async () => {
      await gateway.deps.jobs.runNow(HEALTH_JOB);
      const results = await gateway.call('GET', `${base()}/containers/${names.web}/health-check/results`);
      expect(results.body.pagination.total).toBe(1);
    });

    it('keeps only the last INFRAGATE_HEALTHCHECK_HISTORY results', async () => {
      for (let round = 0; round < 3; round++) {
        await gateway.deps.db
          .update(containerhostHealthChecks)
          .set({ nextRunAt: new Date(Date.now() - 1000) })
          .where(eq(containerhostHealthChecks.containerName, names.web));
        await gateway.deps.jobs.runNow(HEALTH_JOB);
      }
      const results = await gateway.call('GET', `${base()}/containers/${names.web}/health-check/results`);
      expect(results.body.pagination.total).toBe(2);
    });

    it('does not run a disabled check in the background', async () => {
      const results = await gateway.call('GET', `${base()}/containers/${names.stopper}/health-check/results`);
      expect(results.body.pagination.total).toBe(0);
    });
  });

  describe('file move (POST …/containers/:containerId/files/move)', () => {
    const move = (body: unknown, container = names.web) =>
      gateway.call('POST', `${base()}/containers/${container}/files/move`, { body });

    it('moves a file inside the container', async () => {
      await execIn(podman.docker, names.web, ['sh', '-c', 'echo moved-content > /tmp/source.txt']);
      const result = await move({ fromPath: '/tmp/source.txt', toPath: '/tmp/target file.txt' });
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ success: true });
      expect(await execIn(podman.docker, names.web, ['cat', '/tmp/target file.txt'])).toEqual({
        exitCode: 0,
        output: 'moved-content\n',
      });
      expect((await execIn(podman.docker, names.web, ['ls', '/tmp/source.txt'])).exitCode).not.toBe(0);
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
      gateway.call('PUT', `${base()}/volumes/${volume}/files/write`, options);
    const helpers = async () =>
      podman.docker.listContainers({
        all: true,
        filters: JSON.stringify({ label: ['io.infragate.helper'] }),
      });

    it('writes a JSON utf8 file that another container reads back', async () => {
      const result = await write({
        body: { path: '/notes/hello.txt', content: 'hello volume\n', encoding: 'utf8' },
      });
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ success: true });
      expect(await execIn(podman.docker, names.web, ['cat', '/data/notes/hello.txt'])).toEqual({
        exitCode: 0,
        output: 'hello volume\n',
      });
    });

    it('writes base64 content', async () => {
      const content = Buffer.from('decoded from base64\n').toString('base64');
      expect((await write({ body: { path: 'b64.txt', content, encoding: 'base64' } })).status).toBe(200);
      expect((await execIn(podman.docker, names.sidecar, ['cat', '/data/b64.txt'])).output).toBe(
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
      expect((await execIn(podman.docker, names.web, ['cat', '/data/raw/deep/file.bin'])).output).toBe(
        'raw bytes\n',
      );
    });

    it('creates missing parent directories with mode 0755 and the file with mode 0644', async () => {
      expect((await write({ body: { path: 'modes/sub/file.txt', content: 'x' } })).status).toBe(200);
      const listing = await execIn(podman.docker, names.web, [
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
      expect((await execIn(podman.docker, names.web, ['cat', `/data/${deep}`])).output).toBe('deep\n');
    });

    it('removes the helper container afterwards', async () => {
      expect(await helpers()).toEqual([]);
    });

    it('answers 422 and leaves a directory alone when the path names it', async () => {
      const result = await write({ body: { path: 'notes', content: 'x' } });
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(result.body.details.reason).toBe('TARGET_IS_DIRECTORY');
      expect((await execIn(podman.docker, names.web, ['cat', '/data/notes/hello.txt'])).output).toBe(
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

    it('answers 422 when the helper image is not on the node', async () => {
      const other = await gateway.call('POST', '/api/containerhost/nodes', {
        body: {
          name: 'podman-no-helper',
          endpoint: podman.endpoint,
          helperImage: `localhost/ig-${run}-absent:latest`,
        },
      });
      const result = await gateway.call(
        'PUT',
        `/api/containerhost/nodes/${other.body.data.id}/volumes/${names.volume}/files/write`,
        {
          body: { path: 'a.txt', content: 'x' },
        },
      );
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(result.body.details.reason).toBe('HELPER_IMAGE_MISSING');
    });
  });

  describe('network disconnect (POST …/networks/:networkId/disconnect)', () => {
    const disconnect = (network: string, containerId: string, query?: Record<string, string | boolean>) =>
      gateway.call('POST', `${base()}/networks/${network}/disconnect`, {
        body: { containerId },
        ...(query ? { query } : {}),
      });

    it('disconnects an attached container', async () => {
      const result = await disconnect(names.network, names.sidecar);
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ success: true });
      const inspected = await podman.docker.getContainer(names.sidecar).inspect();
      expect(Object.keys(inspected.NetworkSettings.Networks)).not.toContain(names.network);
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
      gateway.call('POST', `${base()}/containers/${container}/stop`, body === undefined ? {} : { body });

    it('stops a running container', async () => {
      const result = await stop(names.stopper, { timeout: 0 });
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ success: true });
      expect((await podman.docker.getContainer(names.stopper).inspect()).State.Running).toBe(false);
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
      const { auditEvents } = await import('../../src/db/schema/index.js');
      const { eq } = await import('drizzle-orm');
      const events = await gateway.deps.db
        .select()
        .from(auditEvents)
        .where(eq(auditEvents.action, 'containerhost.container.stopped'));
      expect(events.map((e) => e.metadata.alreadyStopped)).toEqual([false, true]);
    });
  });
});
