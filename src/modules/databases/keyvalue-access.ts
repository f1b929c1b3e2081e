import { AppError, conflict, unprocessable } from '../../core/errors.js';
import { connectionFailure, type DatabaseRow, type KeyValueConnections } from './connections.js';
import { KeyValueError, type KeyValuePool } from './redis.js';

/** One key-value database opened for the browser, panes and pub/sub. */
export interface KeyValueHandle {
  row: DatabaseRow;
  pool: KeyValuePool;
  /** Runs one command; server and connection failures answered in the contract's terms. */
  run(...args: (string | Buffer | number)[]): Promise<unknown>;
}

/**
 * Opens a registered database for the typed operations (browser, panes): 404 for none, 422
 * `NOT_A_KEYVALUE_DATABASE` for one of another type. Failures map as the console's do (422 with
 * the reason), and WRONGTYPE — the key changed type under the caller — to 409 `KEY_TYPE_CHANGED`.
 */
export async function openKeyValue(connections: KeyValueConnections, id: string): Promise<KeyValueHandle> {
  const row = await connections.cachedRow(id);
  if (row.type !== 'keyvalue') {
    throw unprocessable(
      'NOT_A_KEYVALUE_DATABASE',
      `this database is a ${row.type} database, not a key-value one`,
    );
  }
  const pool = await connections.pool(row).catch((error) => {
    throw keyValueFailure(error);
  });
  return {
    row,
    pool,
    run: (...args) =>
      pool
        .run(args.map((arg) => (Buffer.isBuffer(arg) ? arg : Buffer.from(String(arg), 'utf8'))))
        .catch((error) => {
          throw keyValueFailure(error);
        }),
  };
}

/** A server or connection failure as the contract's error (AppErrors pass through). */
export function keyValueFailure(error: unknown): unknown {
  if (error instanceof AppError) return error;
  if (error instanceof KeyValueError && error.kind === 'reply' && /^WRONGTYPE/.test(error.message)) {
    return conflict('KEY_TYPE_CHANGED', {
      explanation: 'the key holds another type than this operation needs',
    });
  }
  const failure = connectionFailure(error);
  if (!failure) return error;
  return unprocessable(failure.reason, failure.explanation, {
    ...(failure.serverError ? { serverError: failure.serverError } : {}),
  });
}
