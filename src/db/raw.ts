import type { SQL } from 'drizzle-orm';
import type { DbOrTx } from './client.js';

/** Rows of a raw SQL query; both drivers answer `{rows}` but type it differently. */
export async function queryRows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * Runs a statement of fixed text that runs often (`$1`… for its parameters) under a name: on
 * PostgreSQL each pooled connection then parses and plans it once, not on every call. The embedded
 * database ignores the name.
 */
export async function executeNamed(db: DbOrTx, name: string, text: string, params: unknown[]): Promise<void> {
  await db._.session.prepareQuery({ sql: text, params }, undefined, name, false).execute();
}
