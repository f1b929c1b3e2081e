import { eq } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Deps } from '../../core/deps.js';
import { EgressDeniedError } from '../../core/egress-guard.js';
import { notFound } from '../../core/errors.js';
import { databases } from '../../db/schema/index.js';
import { KeyValueError, KeyValuePool } from './redis.js';
import type { DatabaseStatus } from './schemas.js';

export type DatabaseRow = typeof databases.$inferSelect;

/** Where sealed database passwords live; binds each ciphertext to its column. */
export const PASSWORD_CONTEXT = 'databases.password';
/**
 * How long a console command may use a registration it read before; changes made through this
 * process apply at once, changes made through another gateway instance within this time.
 */
const ROW_CACHE_MS = 2_000;
const ROW_CACHE_SIZE = 10_000;

/** Why a database could not be used, in the contract's terms (`reason`) and in words. */
export interface ConnectionFailure {
  reason: string;
  explanation: string;
  serverError?: string;
}

/** Maps a failure to reach or use a server to its reason; undefined when it is not such a failure. */
export function connectionFailure(error: unknown): ConnectionFailure | undefined {
  if (error instanceof EgressDeniedError) {
    return {
      reason: 'EGRESS_DENIED',
      explanation: `connections to ${error.host} (${error.address}) are refused: ${error.rule}`,
    };
  }
  if (!(error instanceof KeyValueError)) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
      return { reason: 'UNREACHABLE', explanation: `the database host could not be resolved (${code})` };
    return undefined;
  }
  switch (error.kind) {
    case 'auth':
      return {
        reason: 'AUTH_FAILED',
        explanation: `the server refused the registered credentials: ${error.message}`,
        serverError: error.message,
      };
    case 'tls':
      return {
        reason: 'TLS_FAILED',
        explanation: `the TLS handshake failed (check tls.caPem, tls.serverName or tls.rejectUnauthorized): ${error.message}`,
      };
    case 'timeout':
      return { reason: 'TIMEOUT', explanation: `the server did not answer in time: ${error.message}` };
    case 'reply':
      return {
        reason: 'COMMAND_ERROR',
        explanation: `the server refused the command: ${error.message}`,
        serverError: error.message,
      };
    default:
      return { reason: 'UNREACHABLE', explanation: `the server could not be reached: ${error.message}` };
  }
}

/**
 * The connection pools of the registered databases, one per database, opened on first use through
 * the egress guard and rebuilt when the registration changes (here or in another instance).
 */
export class KeyValueConnections {
  private readonly pools = new Map<string, { version: number; pool: Promise<KeyValuePool> }>();
  private readonly rows = new LRUCache<string, DatabaseRow>({ max: ROW_CACHE_SIZE, ttl: ROW_CACHE_MS });

  constructor(private readonly deps: Pick<Deps, 'db' | 'egress' | 'secrets' | 'config'>) {}

  /** The registration as stored; 404 when there is none. */
  async row(id: string): Promise<DatabaseRow> {
    const [row] = await this.deps.db.select().from(databases).where(eq(databases.id, id));
    if (!row) throw notFound({ databaseId: id });
    return row;
  }

  /** The registration for the console's hot path (see ROW_CACHE_MS). */
  async cachedRow(id: string): Promise<DatabaseRow> {
    const cached = this.rows.get(id);
    if (cached) return cached;
    const row = await this.row(id);
    this.rows.set(id, row);
    return row;
  }

  /** The pool of a database, rebuilt when its registration changed (here or in another instance). */
  pool(row: DatabaseRow): Promise<KeyValuePool> {
    const version = row.updatedAt.getTime();
    const entry = this.pools.get(row.id);
    if (entry && entry.version === version) return entry.pool;
    this.drop(row.id);
    const pool = this.open(row);
    this.pools.set(row.id, { version, pool });
    pool.catch(() => {
      if (this.pools.get(row.id)?.pool === pool) this.pools.delete(row.id);
    });
    return pool;
  }

  /** A live check of the server: reachable, version, round trip; the reason when it is not reachable. */
  async probe(row: DatabaseRow): Promise<DatabaseStatus> {
    const checkedAt = new Date();
    try {
      const pool = await this.pool(row);
      const { serverVersion, latencyMs } = await pool.probe();
      return {
        reachable: true,
        serverVersion,
        latencyMs: Math.round(latencyMs * 1000) / 1000,
        reason: null,
        error: null,
        checkedAt,
      };
    } catch (error) {
      const failure = connectionFailure(error);
      if (!failure) throw error;
      return {
        reachable: false,
        serverVersion: null,
        latencyMs: null,
        reason: failure.reason,
        error: failure.explanation,
        checkedAt,
      };
    }
  }

  /** Forgets a database's cached registration and closes its pool (after a change or removal). */
  drop(id: string): void {
    this.rows.delete(id);
    const entry = this.pools.get(id);
    if (!entry) return;
    this.pools.delete(id);
    entry.pool.then((pool) => pool.close()).catch(() => {});
  }

  /** Closes every pool (server shutdown). */
  closeAll(): void {
    for (const id of [...this.pools.keys()]) this.drop(id);
  }

  private async open(row: DatabaseRow): Promise<KeyValuePool> {
    const url = new URL(row.url);
    const hostName = url.hostname.replace(/^\[|\]$/g, '');
    const address = await this.deps.egress.resolve(hostName);
    const { keyvalue } = this.deps.config;
    return new KeyValuePool(
      {
        host: address,
        port: url.port ? Number(url.port) : 6379,
        hostName,
        username: row.username ?? undefined,
        password: row.passwordSealed
          ? this.deps.secrets.open(row.passwordSealed, PASSWORD_CONTEXT)
          : undefined,
        tls: row.tls ?? undefined,
        db: row.dbIndex,
      },
      {
        size: keyvalue.poolSize,
        connectTimeoutMs: keyvalue.connectTimeoutMs,
        commandTimeoutMs: keyvalue.commandTimeoutMs,
      },
    );
  }
}
