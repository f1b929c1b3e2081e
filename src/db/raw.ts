import type { SQL } from 'drizzle-orm';
import type { DbOrTx } from './client.js';

/** Rows of a raw SQL query; both drivers answer `{rows}` but type it differently. */
export async function queryRows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
