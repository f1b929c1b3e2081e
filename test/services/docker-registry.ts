import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eventually } from '../support/eventually.js';
import { findBinary, freePort } from './peers.js';

const run = promisify(execFile);

/** The CNCF distribution registry (Debian's `docker-registry`) on a loopback port, with htpasswd auth. */
export interface RegistryPeer {
  /** `127.0.0.1:<port>`: the registry part of image references. */
  address: string;
  username: string;
  password: string;
  /** Copies a local image into the registry as `<address>/<repository>` (with podman, over plain HTTP). */
  push(localImage: string, repository: string): Promise<string>;
  stop(): Promise<void>;
}

/** Why the registry suites skip on this machine (no registry or htpasswd), else undefined. */
export function registryBinaries(): { path?: string; skipReason?: string } {
  const htpasswd = findBinary('htpasswd', ['/usr/bin/htpasswd']);
  if (!htpasswd.path) return htpasswd;
  return findBinary('docker-registry', ['/usr/bin/docker-registry']);
}

/** Starts the registry with one user (bcrypt in htpasswd, which the registry requires) and storage in a temp dir. */
export async function startRegistry(): Promise<RegistryPeer> {
  const binary = registryBinaries().path!;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-registry-'));
  const username = 'puller';
  const password = `pw-${path.basename(dir)}`;
  const { stdout } = await run('htpasswd', ['-nbB', username, password]);
  fs.writeFileSync(path.join(dir, 'htpasswd'), stdout);
  const port = await freePort();
  const address = `127.0.0.1:${port}`;
  fs.writeFileSync(
    path.join(dir, 'config.yml'),
    [
      'version: 0.1',
      'log:',
      '  level: error',
      '  accesslog:',
      '    disabled: true',
      'storage:',
      '  filesystem:',
      `    rootdirectory: ${path.join(dir, 'data')}`,
      'http:',
      `  addr: ${address}`,
      'auth:',
      '  htpasswd:',
      '    realm: infragate-test',
      `    path: ${path.join(dir, 'htpasswd')}`,
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(binary, ['serve', path.join(dir, 'config.yml')], { stdio: 'ignore' });
  await eventually(async () => (await fetch(`http://${address}/v2/`)).status === 401, 'docker-registry');
  return {
    address,
    username,
    password,
    async push(localImage, repository) {
      const target = `${address}/${repository}`;
      await run('podman', [
        'push',
        '--tls-verify=false',
        '--creds',
        `${username}:${password}`,
        localImage,
        target,
      ]);
      return target;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
