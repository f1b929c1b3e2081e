/**
 * Set up before every test file (vitest.config.ts): a file of a lane (`TEST_LANE`: browser, podman)
 * first waits until no other file of its lane runs, and lets go when it is done. The lanes run side
 * by side on the two workers, each lane one file at a time (see vitest.config.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll } from 'vitest';
import { REPO_ROOT } from './build.js';
import { heldBy, tryLock, unlock } from './lock-directory.js';

/** Longer than any one file of a lane takes: a lock older than this was left by a crash. */
const STALE_LOCK_MS = 15 * 60_000;
const POLL_MS = 100;

const lane = process.env.TEST_LANE;
if (lane) {
  const lock = path.join(REPO_ROOT, 'test-results', `.lane-${lane}.lock`);
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  // A worker runs file after file: a lock it still holds (a file that failed before its afterAll) is its own.
  while (heldBy(lock) !== process.pid && !tryLock(lock, STALE_LOCK_MS)) await sleep(POLL_MS);
  afterAll(() => unlock(lock));
}
