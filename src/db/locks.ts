import { sql } from 'drizzle-orm';
import type { DbOrTx } from './client.js';

/**
 * Every transaction-scoped advisory lock the gateway takes, keyed here so no two can collide:
 * each key serialises one kind of change across all gateway processes on one database.
 */
export const advisoryLocks = {
  /** Applying migrations (several gateways starting together apply them once). */
  migrations: 7_302_118_451,
  /** Extending the audit hash chain (taken by the sequencer only; writers of events take no lock). */
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

/**
 * Locks taken per value (an email, an address): the first key names the kind, the second is a hash
 * of the value. PostgreSQL keeps two-key locks apart from the one-key locks above, and a hash that
 * two values share only makes them take turns.
 */
export const keyedAdvisoryLocks = {
  /** Counting and reserving sign-in attempts of one email (modules/auth/login-throttle.ts). */
  signInEmail: 730_211,
  /** The same for one client address. */
  signInAddress: 730_212,
} as const;

export type KeyedAdvisoryLock = keyof typeof keyedAdvisoryLocks;

/** Takes the named lock until the surrounding transaction ends. */
export async function lockForTransaction(tx: DbOrTx, lock: AdvisoryLock): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${advisoryLocks[lock]})`);
}

/** Takes the lock of `value` among those of its kind until the surrounding transaction ends. */
export async function lockValueForTransaction(
  tx: DbOrTx,
  lock: KeyedAdvisoryLock,
  value: string,
): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${keyedAdvisoryLocks[lock]}::int, hashtext(${value}))`);
}
