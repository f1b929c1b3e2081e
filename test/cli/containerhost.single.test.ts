import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PodmanPeer, podmanBinaries, removeLabelled, startPodman } from '../services/podman.js';
import { type ApiCli, apiCli } from '../support/cli.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

// The container-host commands against a real engine: Podman's Docker-compatible API.
const binaries = podmanBinaries();
if (binaries.skipReason) console.warn(`skipping the CLI container-host suite: ${binaries.skipReason}`);

const run = crypto.randomBytes(3).toString('hex');
const label = `io.infragate.test=${run}`;
const names = {
  volume: `ig-${run}-vol`,
  web: `ig-${run}-web`,
  sleeper: `ig-${run}-sleeper`,
  idle: `ig-${run}-idle`,
};

describe.skipIf(Boolean(binaries.skipReason))(
  'infragate hosts, containers, networks, volumes, images',
  () => {
    let podman: PodmanPeer;
    let gateway: TestGateway;
    let cli: ApiCli;
    let webPort: number;
    const host = ['--host', 'podman'];

    beforeAll(async () => {
      [podman, gateway] = await Promise.all([startPodman(), startTestGateway()]);
      cli = apiCli(await gateway.listen(), gateway.adminToken);
      const { docker, image } = podman;
      const Labels = { 'io.infragate.test': run };
      await docker.createVolume({ Name: names.volume, Labels });
      // Serves the volume over HTTP, so a file written into it can be read back.
      const web = await docker.createContainer({
        name: names.web,
        Image: image,
        Cmd: ['/bin/httpd', '-f', '-p', '8080', '-h', '/www'],
        Labels,
        ExposedPorts: { '8080/tcp': {} },
        HostConfig: {
          Binds: [`${names.volume}:/www`],
          PortBindings: { '8080/tcp': [{ HostIp: '127.0.0.1', HostPort: '0' }] },
        },
      });
      const sleeper = await docker.createContainer({
        name: names.sleeper,
        Image: image,
        Cmd: ['/bin/sleep', '3600'],
        Labels,
      });
      await docker.createContainer({ name: names.idle, Image: image, Cmd: ['/bin/true'], Labels });
      await Promise.all([web.start(), sleeper.start()]);
      webPort = Number((await web.inspect()).NetworkSettings.Ports['8080/tcp']![0]!.HostPort);
    });

    afterAll(async () => {
      if (podman) await removeLabelled(podman.docker, label).catch(() => {});
      await Promise.all([gateway?.close(), podman?.stop()]);
    });

    it('registers the engine as a host and shows its version', async () => {
      const created = await cli.json([
        'hosts',
        'create',
        '--name',
        'podman',
        '--endpoint',
        podman.endpoint,
        '--helper-image',
        podman.image,
      ]);
      expect(created).toMatchObject({ name: 'podman', transport: 'unix', helperImage: podman.image });
      expect((await cli.json(['hosts', 'ls'])).map((row: { id: string }) => row.id)).toEqual([created.id]);
      expect((await cli.json(['hosts', 'get', 'podman'])).engine).toMatchObject({ reachable: true });
    });

    it('lists running containers, and stopped ones with --all', async () => {
      const running = await cli.json(['containers', 'ls', ...host, '--q', run]);
      expect(running.map((row: { name: string }) => row.name).sort()).toEqual(
        [names.sleeper, names.web].sort(),
      );
      const all = await cli.json(['containers', 'ls', ...host, '--q', run, '--all']);
      expect(all.map((row: { name: string }) => row.name)).toContain(names.idle);
      expect((await cli.json(['containers', 'get', names.web, ...host])).state).toMatchObject({
        running: true,
      });
    });

    it('stops a container by name', async () => {
      expect((await cli.run(['containers', 'stop', names.sleeper, ...host, '--timeout', '0'])).code).toBe(0);
      const running = await cli.json(['containers', 'ls', ...host, '--q', run]);
      expect(running.map((row: { name: string }) => row.name)).toEqual([names.web]);
    });

    it('writes a local file into a volume', async () => {
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-volume-')), 'note.txt');
      fs.writeFileSync(file, 'written by the CLI\n');
      expect((await cli.run(['volumes', 'write', names.volume, 'notes/note.txt', file, ...host])).code).toBe(
        0,
      );
      expect(await (await fetch(`http://127.0.0.1:${webPort}/notes/note.txt`)).text()).toBe(
        'written by the CLI\n',
      );
      expect(
        (await cli.json(['volumes', 'ls', ...host, '--q', run])).map((row: { name: string }) => row.name),
      ).toEqual([names.volume]);
    });

    it('lists and inspects networks and images', async () => {
      const networks = await cli.json(['networks', 'ls', ...host]);
      expect(networks.length).toBeGreaterThan(0);
      expect((await cli.json(['networks', 'get', networks[0].name, ...host])).name).toBe(networks[0].name);
      const images = await cli.json(['images', 'ls', ...host, '--all-pages']);
      expect(images.map((row: { id: string }) => row.id)).toContain(
        (await podman.docker.getImage(podman.image).inspect()).Id,
      );
      expect((await cli.json(['images', 'get', podman.image, ...host])).id).toBeDefined();
    });

    it('names an unknown host in one line', async () => {
      const result = await cli.run(['containers', 'ls', '--host', 'nowhere']);
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toBe('infragate: no host with name nowhere');
    });

    it('creates, lists and deletes a container folder, and deletes the host', async () => {
      const folder = await cli.json([
        'container-folders',
        'create',
        '--name',
        'web tier',
        '--type',
        'container',
      ]);
      expect(
        (await cli.json(['container-folders', 'ls', '--type', 'container'])).map(
          (row: { id: string }) => row.id,
        ),
      ).toEqual([folder.id]);
      expect((await cli.run(['container-folders', 'delete', 'web tier'])).code).toBe(0);
      expect((await cli.run(['hosts', 'delete', 'podman'])).code).toBe(0);
      expect(await cli.json(['hosts', 'ls'])).toEqual([]);
    });
  },
);
