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
  /**
   * LISTENs on a channel on a connection of its own (NOTIFY from any process on the same database
   * arrives here); answers the function that stops listening.
   */
  subscribe(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
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
    return {
      db: drizzlePg(pool, { schema }) as unknown as Db,
      kind: 'postgres',
      subscribe: (channel, onMessage) => listenPostgres(target.url!, channel, onMessage),
      close: () => pool.end(),
    };
  }
  if (target.pgliteDir) fs.mkdirSync(path.dirname(target.pgliteDir), { recursive: true });
  const client = await PGlite.create(target.pgliteDir);
  return {
    db: drizzlePglite(client, { schema }) as unknown as Db,
    kind: 'pglite',
    subscribe: async (channel, onMessage) => {
      const unlisten = await client.listen(channel, onMessage);
      return unlisten;
    },
    close: () => client.close(),
  };
}

const RECONNECT_DELAY_MS = 1_000;

/** A dedicated LISTEN connection that reconnects after losing its server. */
async function listenPostgres(
  url: string,
  channel: string,
  onMessage: (payload: string) => void,
): Promise<() => Promise<void>> {
  let client: pg.Client | undefined;
  let stopped = false;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (message) => {
      if (message.channel === channel) onMessage(message.payload ?? '');
    });
    next.on('error', () => {
      if (stopped) return;
      // Reconnect later; a missed message only means a cache entry lives until its short TTL.
      setTimeout(() => void connect().catch(() => {}), RECONNECT_DELAY_MS).unref();
    });
    await next.connect();
    await next.query(`listen "${channel.replace(/"/g, '')}"`);
    client = next;
  };
  await connect();
  return async () => {
    stopped = true;
    await client?.end().catch(() => {});
  };
}
