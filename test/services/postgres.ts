import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { eventually } from '../support/eventually.js';
import { findBinary, freePort } from './peers.js';

export interface PostgresServer {
  /** Superuser URL of the server's `postgres` database. */
  url: string;
  stop(): Promise<void>;
}

const binDirs = ['/usr/lib/postgresql/17/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/15/bin'];

/** Whether a real PostgreSQL can be started here, and why not. */
export function postgresBinaries() {
  return findBinary(
    'initdb',
    binDirs.map((dir) => `${dir}/initdb`),
  );
}

/**
 * Starts a throw-away PostgreSQL on a free loopback port. initdb refuses root, so the cluster is
 * created and run as the `postgres` user in a temp dir it owns. Tests run it without fsync; a
 * benchmark of writes asks for `durable` (fsync, synchronous commit and full page writes on, as
 * deployed).
 */
export async function startPostgres(options: { durable?: boolean } = {}): Promise<PostgresServer> {
  const initdb = postgresBinaries().path;
  if (!initdb) throw new Error('initdb not found');
  const binDir = path.dirname(fs.realpathSync(initdb));
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-pg-'));
  const dataDir = path.join(root, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync('chown', ['postgres:postgres', root]);
  const run = (binary: string, args: string[]) =>
    asRoot
      ? (['runuser', ['-u', 'postgres', '--', path.join(binDir, binary), ...args]] as const)
      : ([path.join(binDir, binary), args] as const);

  const [initCommand, initArgs] = run('initdb', [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  execFileSync(initCommand, [...initArgs], { stdio: 'ignore' });
  const port = await freePort();
  const [command, args] = run('postgres', [
    '-D',
    dataDir,
    '-p',
    String(port),
    '-h',
    '127.0.0.1',
    '-k',
    root,
    ...(options.durable
      ? []
      : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']),
    '-c',
    'max_connections=300',
  ]);
  const child = spawn(command, [...args], { stdio: 'ignore', detached: false });
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  await eventually(async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.end();
    return true;
  }, 'postgres');
  return {
    url,
    stop: async () => {
      // Signal postgres itself (runuser does not pass SIGINT on): a fast shutdown, then the
      // wrapper exits with it.
      const exited =
        child.exitCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve));
      const postmasterPid = Number(
        fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0],
      );
      process.kill(postmasterPid, 'SIGINT');
      await exited;
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A fresh, empty database on the server, for one test file. */
export async function createDatabase(serverUrl: string): Promise<string> {
  const name = `t_${Math.random().toString(36).slice(2, 12)}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
