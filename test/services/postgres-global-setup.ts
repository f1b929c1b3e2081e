import type { TestProject } from 'vitest/node';
import { postgresBinaries, startPostgres } from './postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

/** One PostgreSQL server for the whole `postgres` project; each test file gets its own database. */
export default async function setup(project: TestProject) {
  const available = postgresBinaries();
  if (!available.path) throw new Error(`the postgres test project needs PostgreSQL: ${available.skipReason}`);
  const server = await startPostgres();
  project.provide('postgresUrl', server.url);
  return () => server.stop();
}
