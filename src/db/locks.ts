import { sql } from 'drizzle-orm';
import type { DbOrTx } from './client.js';

/**
 * Every transaction-scoped advisory lock the gateway takes, keyed here so no two can collide:
 * each key serialises one kind of change across all gateway processes on one database.
 */
export const advisoryLocks = {
  /** Applying migrations (several gateways starting together apply them once). */
  migrations: 7_302_118_451,
  /** Appending to the audit hash chain (one writer extends the head at a time). */
  auditChain: 7_302_118_452,
  /** Creating the first admin on an empty database. */
  firstAdmin: 7_302_118_453,
  /** Structural changes to the logging schema folder tree. */
  schemaFolderTree: 7_302_118_460,
  /** Structural changes to the logging environment folder tree. */
  environmentFolderTree: 7_302_118_461,
  /** Creating and dropping log record partitions (modules/logging/partitions.ts). */
  logPartitions: 7_302_118_462,
  /** Storing and collecting pages blobs (reference counting against garbage collection). */
  pagesBlobs: 7_302_118_907,
} as const;

export type AdvisoryLock = keyof typeof advisoryLocks;

/** Takes the named lock until the surrounding transaction ends. */
export async function lockForTransaction(tx: DbOrTx, lock: AdvisoryLock): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${advisoryLocks[lock]})`);
}
