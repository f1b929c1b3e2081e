import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { eventually } from './eventually.js';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
const BUILT_PAGE = path.join(REPO_ROOT, 'dist/web/index.html');
const LOCK = path.join(REPO_ROOT, 'dist/.web-build.lock');
const VITE = path.join(REPO_ROOT, 'node_modules/vite/bin/vite.js');
// What the build depends on: the console's sources, the gateway's scope rules it imports (with the id
// check they use) and the locked dependency versions.
const INPUTS = [
  path.join(REPO_ROOT, 'web'),
  path.join(REPO_ROOT, 'src/core/auth/scopes.ts'),
  path.join(REPO_ROOT, 'src/core/ids.ts'),
  path.join(REPO_ROOT, 'package-lock.json'),
];
const STALE_LOCK_MS = 5 * 60_000;

function newestChange(entry: string): number {
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...fs.readdirSync(entry).map((name) => newestChange(path.join(entry, name))));
}

function builtIsCurrent(): boolean {
  if (!fs.existsSync(BUILT_PAGE)) return false;
  return fs.statSync(BUILT_PAGE).mtimeMs >= Math.max(...INPUTS.map(newestChange));
}

function takeLock(): boolean {
  try {
    fs.mkdirSync(LOCK, { recursive: false });
    return true;
  } catch {
    // A lock left by a build that crashed is taken over once it is old.
    if (Date.now() - fs.statSync(LOCK, { throwIfNoEntry: false })!.mtimeMs > STALE_LOCK_MS) {
      fs.rmSync(LOCK, { recursive: true, force: true });
    }
    return false;
  }
}

/**
 * Makes sure dist/web is a build of the current web/ sources, which the test gateways serve as
 * `npm start` would. `npm ci` built it already (prepare); after a change to web/ the first console
 * test builds it again, one test file at a time (a lock directory), the others wait for it.
 */
export async function ensureConsoleBuilt(): Promise<void> {
  fs.mkdirSync(path.dirname(LOCK), { recursive: true });
  let locked = false;
  await eventually(
    () => {
      if (builtIsCurrent()) return true;
      locked = takeLock();
      return locked;
    },
    'the console build (another test file holds its lock)',
    STALE_LOCK_MS,
  );
  if (!locked) return;
  try {
    if (!builtIsCurrent()) {
      await promisify(execFile)(
        process.execPath,
        [VITE, 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'],
        // vitest sets NODE_ENV=test, which would make this a development build.
        { cwd: REPO_ROOT, env: { ...process.env, NODE_ENV: 'production' } },
      );
    }
  } finally {
    fs.rmSync(LOCK, { recursive: true, force: true });
  }
}
