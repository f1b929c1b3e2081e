import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import * as schema from './schema/index.js';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle; services pass it down so a change and its audit event commit together. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Either the database or an open transaction. */
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export interface DatabaseTarget {
  /** A postgres:// URL; without it the embedded PGlite is used. */
  url?: string | undefined;
  /** PGlite directory; without it PGlite runs in memory (tests). */
  pgliteDir?: string | undefined;
  /** Pool size for PostgreSQL. */
  poolSize?: number;
}

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.url) {
    const pool = new pg.Pool({ connectionString: target.url, max: target.poolSize ?? 10 });
    // An idle client that loses its server must not crash the process; the next query reports it.
    pool.on('error', () => {});
    await pool.query('select 1');
    return { db: drizzlePg(pool, { schema }) as unknown as Db, kind: 'postgres', close: () => pool.end() };
  }
  if (target.pgliteDir) fs.mkdirSync(path.dirname(target.pgliteDir), { recursive: true });
  const client = await PGlite.create(target.pgliteDir);
  return {
    db: drizzlePglite(client, { schema }) as unknown as Db,
    kind: 'pglite',
    close: () => client.close(),
  };
}
