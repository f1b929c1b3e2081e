import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { eventually } from './eventually.js';
import { tryLock, unlock } from './lock-directory.js';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
const STALE_LOCK_MS = 5 * 60_000;

/** One of the builds `npm install` makes (prepare), which tests use as `npm start` would. */
interface Build {
  /** A file every run of the build writes; its age says whether the build is current. */
  output: string;
  /** What the build depends on: when any of it is newer than `output`, the build is stale. */
  inputs: string[];
  lock: string;
  command: string[];
}

const fromRoot = (...parts: string[]) => path.join(REPO_ROOT, ...parts);

const CONSOLE: Build = {
  output: fromRoot('dist/web/index.html'),
  // The console's sources, the gateway's scope rules it imports (with the id check they use) and
  // the locked dependency versions.
  inputs: [
    fromRoot('web'),
    fromRoot('src/core/auth/scopes.ts'),
    fromRoot('src/core/ids.ts'),
    fromRoot('package-lock.json'),
  ],
  lock: fromRoot('dist/.web-build.lock'),
  command: [
    fromRoot('node_modules/vite/bin/vite.js'),
    'build',
    '--config',
    'web/vite.config.ts',
    '--logLevel',
    'warn',
  ],
};

const SERVER: Build = {
  output: fromRoot('dist/cli.js'),
  inputs: [fromRoot('src'), fromRoot('scripts/build-server.mjs'), fromRoot('package-lock.json')],
  lock: fromRoot('dist/.server-build.lock'),
  command: [fromRoot('scripts/build-server.mjs')],
};

function newestChange(entry: string): number {
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...fs.readdirSync(entry).map((name) => newestChange(path.join(entry, name))));
}

function isCurrent(build: Build): boolean {
  if (!fs.existsSync(build.output)) return false;
  return fs.statSync(build.output).mtimeMs >= Math.max(...build.inputs.map(newestChange));
}

/**
 * Makes sure a build is of the current sources. `npm ci` built it already (prepare); after a
 * change the first test file that needs it builds it again, one at a time (a lock directory),
 * the others wait for it.
 */
async function ensureBuilt(build: Build): Promise<void> {
  fs.mkdirSync(path.dirname(build.lock), { recursive: true });
  let locked = false;
  await eventually(
    () => {
      // While another file builds, what is on disk may be half written.
      if (!fs.existsSync(build.lock) && isCurrent(build)) return true;
      locked = tryLock(build.lock, STALE_LOCK_MS);
      return locked;
    },
    `the build of ${path.relative(REPO_ROOT, build.output)} (another test file holds its lock)`,
    STALE_LOCK_MS,
  );
  if (!locked) return;
  try {
    if (!isCurrent(build)) {
      await promisify(execFile)(process.execPath, build.command, {
        cwd: REPO_ROOT,
        // vitest sets NODE_ENV=test, which would make the console a development build.
        env: { ...process.env, NODE_ENV: 'production' },
      });
    }
  } finally {
    unlock(build.lock);
  }
}

/** dist/web: the console the test gateways serve at `/`, as `npm start` would. */
export const ensureConsoleBuilt = () => ensureBuilt(CONSOLE);

/** dist/cli.js: the `infragate` command operators run (`npm start` is `node dist/cli.js serve`). */
export async function builtCli(): Promise<string> {
  await ensureBuilt(SERVER);
  return SERVER.output;
}
