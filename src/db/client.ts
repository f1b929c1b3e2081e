import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
/**
 * Without drizzle's relational schema: with one, every transaction handle builds a query builder per
 * table (about a fifth of an audited write's CPU), and nothing here uses `db.query`.
 */
export type Db = PgDatabase<PgQueryResultHKT>;
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
  /**
   * Calls `listener` after each top-level `db.transaction()` commits, with the transaction handle
   * its callback was given (work to start once a change is visible to others, e.g. sequencing).
   */
  onCommit(listener: (tx: Tx) => void): () => void;
  /** The connection pool's use (PostgreSQL); undefined for the embedded PGlite, one connection in this process. */
  poolUse(): PoolUse | undefined;
  close(): Promise<void>;
}

export interface PoolUse {
  max: number;
  /** Connections open, idle or lent out. */
  open: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
}

export interface DatabaseTarget {
  /** A postgres:// URL; without it the embedded PGlite is used. */
  url?: string | undefined;
  /** PGlite directory; without it PGlite runs in memory (tests). */
  pgliteDir?: string | undefined;
  /**
   * A PGlite data directory to start from (a `dumpDataDir()` tarball): the tests start each
   * in-memory database from one migrated copy instead of running initdb and the migrations again.
   */
  pgliteData?: Blob | undefined;
  /** Pool size for PostgreSQL. */
  poolSize?: number;
}

/**
 * The embedded PostgreSQL runs inside this process's WebAssembly memory, which only grows: its
 * shared buffers (128 MB by default) were most of the gateway's resident memory. The gateway's
 * working set is small; 16 MB of buffers keeps the hot pages, and the rest is read from the
 * operating system's file cache. PGlite's own start parameters are kept (they are replaced, not
 * merged, when some are given).
 */
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

/**
 * PGlite is PostgreSQL compiled to WebAssembly, the only WebAssembly this process runs. V8 compiles
 * its hot functions a second time with its optimising compiler: that code and its compilation were
 * about 58 MiB of an idle gateway's resident memory and a tenth of its start, for about an eighth
 * more query throughput once warm (docs/PERFORMANCE.md). The embedded database is the small-install
 * default, so it keeps to the baseline compiler. Set before PGlite compiles its module.
 */
function compileWebAssemblyForFootprint(): void {
  v8.setFlagsFromString('--liftoff-only');
}

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.url) {
    const max = target.poolSize ?? 10;
    const pool = new pg.Pool({ connectionString: target.url, max });
    // An idle client that loses its server must not crash the process; the next query reports it.
    pool.on('error', () => {});
    await pool.query('select 1');
    const db = drizzlePg(pool) as unknown as Db;
    return {
      db,
      kind: 'postgres',
      subscribe: (channel, onMessage) => listenPostgres(target.url!, channel, onMessage),
      onCommit: announceCommits(db),
      poolUse: () => ({ max, open: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      close: () => pool.end(),
    };
  }
  if (target.pgliteDir) fs.mkdirSync(path.dirname(target.pgliteDir), { recursive: true });
  compileWebAssemblyForFootprint();
  const client = await PGlite.create(target.pgliteDir, {
    startParams: PGLITE_START_PARAMS,
    ...(target.pgliteData ? { loadDataDir: target.pgliteData } : {}),
  });
  const db = drizzlePglite(client) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    subscribe: async (channel, onMessage) => {
      const unlisten = await client.listen(channel, onMessage);
      return unlisten;
    },
    onCommit: announceCommits(db),
    poolUse: () => undefined,
    close: () => client.close(),
  };
}

/**
 * Wraps `db.transaction` so that listeners hear of each commit (a rollback throws past them).
 * Nested transactions are savepoints of their parent and are not announced on their own.
 */
function announceCommits(db: Db): Database['onCommit'] {
  const listeners = new Set<(tx: Tx) => void>();
  const transaction = db.transaction.bind(db);
  db.transaction = (async (run: (tx: Tx) => Promise<unknown>, config?: Parameters<Db['transaction']>[1]) => {
    let handle: Tx | undefined;
    const result = await transaction((tx) => {
      handle = tx;
      return run(tx);
    }, config);
    for (const listener of listeners) listener(handle!);
    return result;
  }) as Db['transaction'];
  return (listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
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
