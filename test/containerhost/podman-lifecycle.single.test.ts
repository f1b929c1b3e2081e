import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/expectations.js';
import {
  auditEventsOf,
  execIn,
  lastAuditedAs,
  podmanNodeFor,
  podmanSkipReason,
  podmanSuite,
} from './helpers.js';

// A container's lifecycle on a real engine (Podman): each change is checked through Podman itself.
const suite = podmanSuite();
const { run, names } = suite;
const labels = { 'io.infragate.test': run };
const name = (what: string) => `ig-${run}-${what}`;

describe.skipIf(Boolean(podmanSkipReason))('container hosts against Podman: lifecycle', () => {
  const node = podmanNodeFor(suite);
  const secondNetwork = name('net2');
  const bindDir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-bind-'));
  const inspect = (container: string) => node.podman.docker.getContainer(container).inspect();
  const create = (body: Record<string, unknown>) =>
    node.gateway.call('POST', `${node.base()}/containers`, {
      body: { image: node.podman.image, cmd: ['sleep', '600'], labels, ...body },
    });
  const act = (container: string, action: string, body?: unknown) =>
    node.gateway.call('POST', `${node.base()}/containers/${container}/${action}`, body ? { body } : {});
  const lastRecorded = (verb: string) => lastAuditedAs(node, `containerhost.container.${verb}`);
  const recorded = (container: string, metadata: Record<string, unknown>) => ({
    targetType: 'containerhost_container',
    targetId: container,
    metadata: { nodeId: node.nodeId, ...metadata },
  });

  beforeAll(async () => {
    await node.podman.docker.createNetwork({ Name: secondNetwork, Labels: labels });
  });
  afterAll(() => fs.rmSync(bindDir, { recursive: true, force: true }));

  describe('create (POST …/containers)', () => {
    it('creates a container with its command, environment, labels, ports, mounts, networks and limits', async () => {
      fs.writeFileSync(path.join(bindDir, 'from-host.txt'), 'bound\n');
      const result = await create({
        name: name('made'),
        env: { GREETING: 'hello', EMPTY: '' },
        labels: { ...labels, role: 'api' },
        ports: [{ containerPort: 8080, hostPort: 0, hostIp: '127.0.0.1' }],
        mounts: [
          { type: 'volume', source: names.volume, target: '/data' },
          { type: 'bind', source: bindDir, target: '/host', readOnly: true },
        ],
        networks: [names.network, secondNetwork],
        restartPolicy: 'unless-stopped',
        memoryBytes: 64 * 1024 * 1024,
        cpus: 0.5,
      });
      expect(result.status).toBe(201);
      expect(result.body.data).toMatchObject({
        name: name('made'),
        state: { status: 'created', running: false },
      });
      const made = await inspect(name('made'));
      expect(made.Config.Cmd).toEqual(['sleep', '600']);
      expect(made.Config.Env).toEqual(expect.arrayContaining(['GREETING=hello', 'EMPTY=']));
      expect(made.Config.Labels).toMatchObject({ role: 'api' });
      expect(made.HostConfig.PortBindings['8080/tcp']).toEqual([
        { HostIp: '127.0.0.1', HostPort: expect.any(String) },
      ]);
      expect(made.HostConfig.RestartPolicy?.Name).toBe('unless-stopped');
      expect(made.HostConfig.Memory).toBe(64 * 1024 * 1024);
      expect(made.HostConfig.NanoCpus).toBe(500_000_000);
      expect(made.Mounts.map((m) => m.Destination).sort()).toEqual(['/data', '/host']);
      expect(Object.keys(made.NetworkSettings.Networks).sort()).toEqual(
        [names.network, secondNetwork].sort(),
      );
    });

    it('starts it with start: true', async () => {
      const result = await create({
        name: name('started'),
        start: true,
        mounts: [{ type: 'bind', source: bindDir, target: '/host' }],
      });
      expect(result.body.data.state.running).toBe(true);
      expect((await execIn(node.podman.docker, name('started'), ['cat', '/host/from-host.txt'])).output).toBe(
        'bound\n',
      );
    });

    it("answers 409 with the engine's reason when the name is taken", async () => {
      const result = await create({ name: name('made') });
      expectError(result, 409, 'CONFLICT');
      expect(result.body.details).toMatchObject({
        reason: 'ENGINE_CONFLICT',
        explanation: expect.stringMatching(/in use/),
      });
    });

    it('answers 404 when the image is not on the node, and creates nothing', async () => {
      const result = await create({ name: name('no-image'), image: `localhost/ig-${run}-absent:latest` });
      expectError(result, 404, 'NOT_FOUND');
      await expect(inspect(name('no-image'))).rejects.toMatchObject({ statusCode: 404 });
    });

    it('records the creation in the audit trail', async () => {
      const events = await auditEventsOf(node, 'containerhost.container.created');
      expect(events.map((event) => event.metadata.name)).toEqual([name('made'), name('started')]);
    });
  });

  describe('start, restart, kill, pause, unpause', () => {
    it('starts a created container, and records it', async () => {
      expect((await act(name('made'), 'start')).body).toEqual({ success: true });
      expect((await inspect(name('made'))).State.Running).toBe(true);
      expect(await lastRecorded('started')).toEqual(recorded(name('made'), { alreadyRunning: false }));
    });

    it('answers success for a container that is already running, and records that it was', async () => {
      expect((await act(name('made'), 'start')).status).toBe(200);
      expect(await lastRecorded('started')).toEqual(recorded(name('made'), { alreadyRunning: true }));
    });

    it('restarts a running container, and records it with its timeout', async () => {
      const before = (await inspect(name('made'))).State.StartedAt;
      expect((await act(name('made'), 'restart', { timeout: 0 })).status).toBe(200);
      const after = await inspect(name('made'));
      expect(after.State.Running).toBe(true);
      expect(after.State.StartedAt).not.toBe(before);
      expect(await lastRecorded('restarted')).toEqual(recorded(name('made'), { timeout: 0 }));
    });

    it('pauses and unpauses a running container, and records both', async () => {
      expect((await act(name('made'), 'pause')).status).toBe(200);
      expect((await inspect(name('made'))).State.Paused).toBe(true);
      expect((await act(name('made'), 'unpause')).status).toBe(200);
      expect((await inspect(name('made'))).State.Paused).toBe(false);
      expect(await lastRecorded('paused')).toEqual(recorded(name('made'), {}));
      expect(await lastRecorded('unpaused')).toEqual(recorded(name('made'), {}));
    });

    it('answers 409 to pausing a paused container and unpausing a running one', async () => {
      expect((await act(name('started'), 'pause')).status).toBe(200);
      expectError(await act(name('started'), 'pause'), 409, 'CONFLICT');
      expect((await act(name('started'), 'unpause')).status).toBe(200);
      expectError(await act(name('started'), 'unpause'), 409, 'CONFLICT');
    });

    it('kills a running container with the given signal, and records the signal', async () => {
      expect((await act(name('started'), 'kill', { signal: 'SIGKILL' })).status).toBe(200);
      expect((await inspect(name('started'))).State.Running).toBe(false);
      expect(await lastRecorded('killed')).toEqual(recorded(name('started'), { signal: 'SIGKILL' }));
    });

    it('answers 409 to killing a container that is not running', async () => {
      expectError(await act(name('started'), 'kill'), 409, 'CONFLICT');
    });

    it('answers 404 for an unknown container', async () => {
      for (const action of ['start', 'restart', 'kill', 'pause', 'unpause'])
        expectError(await act(name('missing'), action), 404, 'NOT_FOUND');
    });
  });

  describe('recreate (POST …/containers/:containerId/recreate)', () => {
    it('replaces a running container by a new one with the same configuration, still running', async () => {
      const before = await inspect(name('made'));
      const result = await act(name('made'), 'recreate');
      expect(result.status).toBe(200);
      expect(result.body.data).toMatchObject({ name: name('made'), state: { running: true } });
      const after = await inspect(name('made'));
      expect(after.Id).not.toBe(before.Id);
      expect(after.Config.Env).toEqual(expect.arrayContaining(['GREETING=hello']));
      expect(after.HostConfig.PortBindings).toEqual(before.HostConfig.PortBindings);
      expect(after.HostConfig.Memory).toBe(before.HostConfig.Memory);
      expect(after.Mounts.map((m) => `${m.Destination}:${m.RW}`).sort()).toEqual(
        before.Mounts.map((m) => `${m.Destination}:${m.RW}`).sort(),
      );
      expect(Object.keys(after.NetworkSettings.Networks).sort()).toEqual(
        [names.network, secondNetwork].sort(),
      );
      await expect(node.podman.docker.getContainer(before.Id).inspect()).rejects.toMatchObject({
        statusCode: 404,
      });
    });

    it('keeps a stopped container stopped', async () => {
      const result = await act(name('started'), 'recreate');
      expect(result.body.data.state.running).toBe(false);
    });

    it("answers 409 with the engine's reason for a paused container, and leaves it as it was", async () => {
      // The engine refuses to stop a paused container, the first step of a recreate.
      const before = await inspect(name('made'));
      expect((await act(name('made'), 'pause')).status).toBe(200);
      const result = await act(name('made'), 'recreate');
      expectError(result, 409, 'CONFLICT');
      expect(result.body.details).toMatchObject({
        reason: 'ENGINE_CONFLICT',
        explanation: expect.stringMatching(/state improper/),
      });
      const after = await inspect(name('made'));
      expect(after).toMatchObject({ Id: before.Id, Name: before.Name, State: { Paused: true } });
      expect((await act(name('made'), 'unpause')).status).toBe(200);
    });

    it('answers 404 for an unknown container', async () => {
      expectError(await act(name('missing'), 'recreate'), 404, 'NOT_FOUND');
    });
  });

  describe('remove (DELETE …/containers/:containerId)', () => {
    const remove = (container: string, query: Record<string, boolean> = {}) =>
      node.gateway.call('DELETE', `${node.base()}/containers/${container}`, { query });

    it('answers 409 for a running container without ?force=true, and leaves it running', async () => {
      expectError(await remove(name('made')), 409, 'CONFLICT');
      expect((await inspect(name('made'))).State.Running).toBe(true);
    });

    it('removes a running container with ?force=true, and records it', async () => {
      expect((await remove(name('made'), { force: true })).body).toEqual({ success: true });
      await expect(inspect(name('made'))).rejects.toMatchObject({ statusCode: 404 });
      expect(await lastRecorded('removed')).toEqual(
        recorded(name('made'), { force: true, removeVolumes: false }),
      );
    });

    it('removes a stopped container with its anonymous volumes', async () => {
      expect((await remove(name('started'), { removeVolumes: true })).status).toBe(200);
      await expect(inspect(name('started'))).rejects.toMatchObject({ statusCode: 404 });
      expect(await lastRecorded('removed')).toEqual(
        recorded(name('started'), { force: false, removeVolumes: true }),
      );
    });

    it('answers 404 for an unknown container', async () => {
      expectError(await remove(name('missing')), 404, 'NOT_FOUND');
    });
  });
});
