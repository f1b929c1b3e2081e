import os from 'node:os';
import { defineConfig } from 'vitest/config';
import { postgresBinaries } from './test/services/postgres.js';

// Every suite runs on the embedded PGlite; the same suites run again on a real PostgreSQL, except
// files named *.single.test.ts whose behaviour does not depend on the database engine. Files named
// *.postgres.test.ts need what only PostgreSQL offers (several processes on one database) and run
// in the postgres project only. Files named *.unit.test.ts, and the console's web/src/**/*.test.ts,
// test pure code (no peer, no gateway, no database): they are the unit project, which
// `npm run test:unit` runs alone in seconds.
const postgres = postgresBinaries();
if (!postgres.path) console.warn(`skipping the postgres test project: ${postgres.skipReason}`);

/** The unit project's files; the other projects leave them out, so nothing runs twice. */
const UNIT = ['test/**/*.unit.test.ts', 'web/src/**/*.test.ts'];

/**
 * Files that must not overlap others: those driving Chromium (two browsers at once halve each one's
 * speed on 2 cores) and those driving Podman (one container storage on the machine, behind one lock).
 * Each kind is a lane that runs its files one at a time, once the parallel files are done, the
 * browser lane first, then the Podman lane. Beside the other files, clicks in the console's dialogs
 * timed out under the load; beside the Podman lane alone, a console page's first request to its
 * gateway failed now and then (docs/ARCHITECTURE.md, "Tests").
 */
const BROWSER_LANE = ['test/console/**/*.single.test.ts'];
const PODMAN_LANE = ['test/containerhost/podman-*.single.test.ts', 'test/cli/container*.single.test.ts'];

/** A lane: its files one after another, in the group `groupOrder` (after the parallel group 0). */
const lane = (name: string, include: string[], groupOrder: number) => ({
  extends: true as const,
  test: { name, include, env: { TEST_DB: 'pglite' }, fileParallelism: false, sequence: { groupOrder } },
});

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A worker runs its files one after another with the modules it has loaded, rather than loading
    // the gateway's modules again for each file: that took about a third of the suite's time. Tests
    // keep no state in modules (each starts its own gateway), and a file that changes built-in
    // prototypes fails (test/support/untouched-builtins.ts).
    isolate: false,
    setupFiles: ['test/support/untouched-builtins.ts'],
    // One file per core (vitest's default leaves one core free): most files spend much of their
    // time waiting on a peer or a database.
    maxWorkers: os.availableParallelism(),
    projects: [
      {
        extends: true,
        // web/src/**/*.test.ts: the console's logic that needs no browser (typed by web/tsconfig.json).
        test: { name: 'unit', include: UNIT },
      },
      {
        extends: true,
        test: {
          name: 'pglite',
          include: ['test/**/*.test.ts'],
          exclude: ['test/**/*.postgres.test.ts', ...UNIT, ...BROWSER_LANE, ...PODMAN_LANE],
          env: { TEST_DB: 'pglite' },
        },
      },
      lane('browser', BROWSER_LANE, 1),
      lane('podman', PODMAN_LANE, 2),
      ...(postgres.path
        ? [
            {
              extends: true as const,
              test: {
                name: 'postgres',
                include: ['test/**/*.test.ts'],
                exclude: ['test/**/*.single.test.ts', ...UNIT],
                env: { TEST_DB: 'postgres' },
                globalSetup: ['test/services/postgres-global-setup.ts'],
              },
            },
          ]
        : []),
    ],
  },
});
