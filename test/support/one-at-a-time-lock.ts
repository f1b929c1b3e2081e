import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { tryLock, unlock } from './lock-directory.js';

/**
 * Setup file of the one-at-a-time project: its test files drive Chromium or Podman, and run beside
 * the other files but never beside each other (two browsers at once halve each one's speed on two
 * cores; every Podman service on the machine shares one container storage). A file waits here, before
 * it is imported, until it holds a machine-wide lock, so a second test run on the machine waits too.
 * The lock is let go after the file's own afterAll hooks, or when its process ends.
 */
const LOCK = path.join(os.tmpdir(), 'infragate-tests-one-at-a-time.lock');
/** Longer than any file takes: a lock this old was left behind. */
const STALE_MS = 10 * 60_000;
const POLL_MS = 200;

while (!tryLock(LOCK, STALE_MS)) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
process.once('exit', () => unlock(LOCK));
// Registered first, so it runs after the file's own afterAll hooks (they run in reverse order).
afterAll(() => unlock(LOCK));
