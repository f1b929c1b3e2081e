import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Docker from 'dockerode';
import { eventually } from '../support/eventually.js';
import { findBinary } from './peers.js';

const run = promisify(execFile);

/** The locally built test image: busybox-static plus a small web root for httpd. */
export const TEST_IMAGE = 'localhost/infragate-test:latest';

const BUSYBOX_APPLETS = [
  'sh',
  'ls',
  'mv',
  'cat',
  'httpd',
  'sleep',
  'mkdir',
  'echo',
  'true',
  'test',
  'rm',
  'rmdir',
  'stty',
  'head',
  'seq',
  'chmod',
];

export interface PodmanPeer {
  /** `unix:///…/podman.sock`, ready for a node's endpoint. */
  endpoint: string;
  socketPath: string;
  /** A direct client, for test setup and for checking what the gateway did. */
  docker: Docker;
  image: string;
  stop(): Promise<void>;
}

export function podmanBinaries(): { path?: string; skipReason?: string } {
  const podman = findBinary('podman', ['/usr/bin/podman']);
  if (!podman.path) return podman;
  const runc = findBinary('runc', ['/usr/sbin/runc', '/usr/bin/runc']);
  if (!runc.path) return runc;
  const busybox = findBinary('busybox', ['/bin/busybox', '/usr/bin/busybox']);
  if (!busybox.path) return busybox;
  return podman;
}

function writeRootfs(dir: string): string {
  const root = path.join(dir, 'rootfs');
  for (const sub of ['bin', 'tmp', 'www/cgi-bin', 'etc', 'data'])
    fs.mkdirSync(path.join(root, sub), { recursive: true });
  const busybox = findBinary('busybox', ['/bin/busybox', '/usr/bin/busybox']).path!;
  fs.copyFileSync(busybox, path.join(root, 'bin/busybox'));
  fs.chmodSync(path.join(root, 'bin/busybox'), 0o755);
  for (const applet of BUSYBOX_APPLETS) fs.symlinkSync('busybox', path.join(root, 'bin', applet));
  fs.writeFileSync(path.join(root, 'etc/passwd'), 'root:x:0:0:root:/:/bin/sh\n');
  fs.writeFileSync(path.join(root, 'www/index.html'), 'infragate test page: hello\n');
  // CGI pages that answer after one and three seconds, for the slow-response and timeout checks.
  fs.writeFileSync(
    path.join(root, 'www/cgi-bin/slow'),
    '#!/bin/sh\nsleep 1\nprintf "Content-Type: text/plain\\r\\n\\r\\nslow page\\n"\n',
    { mode: 0o755 },
  );
  fs.writeFileSync(
    path.join(root, 'www/cgi-bin/slower'),
    '#!/bin/sh\nsleep 3\nprintf "Content-Type: text/plain\\r\\n\\r\\nslower page\\n"\n',
    { mode: 0o755 },
  );
  const tarball = path.join(dir, 'rootfs.tar');
  return tarball;
}

export interface PodmanOptions {
  /** Registries (`host:port`) the engine pulls from over plain HTTP, e.g. the test registry on loopback. */
  insecureRegistries?: string[];
}

/**
 * Starts Podman's Docker-compatible API on a unix socket in a temp dir, per DESIGN.md: runc, default
 * ulimits through CONTAINERS_CONF, and the busybox test image imported locally. Registries the engine
 * may pull from over plain HTTP are listed in its own registries.conf (CONTAINERS_REGISTRIES_CONF).
 */
export async function startPodman(options: PodmanOptions = {}): Promise<PodmanPeer> {
  const podman = podmanBinaries().path!;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-podman-'));
  const conf = path.join(dir, 'containers.conf');
  fs.writeFileSync(
    conf,
    '[containers]\ndefault_ulimits = ["nofile=1024:1024", "nproc=1024:1024"]\n\n[engine]\nruntime = "runc"\n',
  );
  const registries = path.join(dir, 'registries.conf');
  fs.writeFileSync(
    registries,
    (options.insecureRegistries ?? [])
      .map((registry) => `[[registry]]\nlocation = "${registry}"\ninsecure = true\n`)
      .join('\n'),
  );
  const env = { ...process.env, CONTAINERS_CONF: conf, CONTAINERS_REGISTRIES_CONF: registries };
  const tarball = writeRootfs(dir);
  await run('tar', ['-C', path.join(dir, 'rootfs'), '-cf', tarball, '.']);
  await run(podman, ['import', tarball, TEST_IMAGE], { env });

  const socketPath = path.join(dir, 'podman.sock');
  const child: ChildProcess = spawn(podman, ['system', 'service', '--time=0', `unix://${socketPath}`], {
    env,
    stdio: 'ignore',
  });
  const docker = new Docker({ socketPath, timeout: 30_000 });
  await eventually(async () => (await docker.ping()) !== undefined, 'podman system service');
  return {
    endpoint: `unix://${socketPath}`,
    socketPath,
    docker,
    image: TEST_IMAGE,
    async stop() {
      if (child.exitCode === null && child.pid) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        process.kill(child.pid, 'SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
        if (child.exitCode === null) process.kill(child.pid, 'SIGKILL');
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Removes what a suite created, by the label it put on everything. */
export async function removeLabelled(docker: Docker, label: string): Promise<void> {
  const filters = JSON.stringify({ label: [label] });
  for (const c of await docker.listContainers({ all: true, filters }))
    await docker
      .getContainer(c.Id)
      .remove({ force: true })
      .catch(() => {});
  for (const n of await docker.listNetworks({ filters }))
    await docker
      .getNetwork(n.Id)
      .remove()
      .catch(() => {});
  const volumes = await docker.listVolumes({ filters });
  for (const v of volumes.Volumes ?? [])
    await docker
      .getVolume(v.Name)
      .remove()
      .catch(() => {});
}
