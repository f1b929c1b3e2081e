import { defineConfig } from 'vitest/config';
import { postgresBinaries } from './test/services/postgres.js';

// Every suite runs on the embedded PGlite; the same suites run again on a real PostgreSQL, except
// files named *.single.test.ts whose behaviour does not depend on the database engine. Files named
// *.postgres.test.ts need what only PostgreSQL offers (several processes on one database) and run
// in the postgres project only.
const postgres = postgresBinaries();
if (!postgres.path) console.warn(`skipping the postgres test project: ${postgres.skipReason}`);

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        // web/src/**/*.test.ts: the console's logic that needs no browser (typed by web/tsconfig.json).
        test: {
          name: 'pglite',
          include: ['test/**/*.test.ts', 'web/src/**/*.test.ts'],
          exclude: ['test/**/*.postgres.test.ts'],
          env: { TEST_DB: 'pglite' },
        },
      },
      ...(postgres.path
        ? [
            {
              extends: true as const,
              test: {
                name: 'postgres',
                include: ['test/**/*.test.ts'],
                exclude: ['test/**/*.single.test.ts'],
                env: { TEST_DB: 'postgres' },
                globalSetup: ['test/services/postgres-global-setup.ts'],
              },
            },
          ]
        : []),
    ],
  },
});
