import { sql } from 'drizzle-orm';
import { hasSqlState } from '../../core/db-errors.js';
import type { Deps } from '../../core/deps.js';
import { isUuid } from '../../core/ids.js';
import type { Tx } from '../../db/client.js';
import { lockForTransaction } from '../../db/locks.js';
import { queryRows } from '../../db/raw.js';

const DAY_MS = 86_400_000;
const ROOT = 'log_records';
/** How long a drop waits for its lock before giving up until the next run. */
const DROP_LOCK_TIMEOUT = '2s';
const LOCK_NOT_AVAILABLE = '55P03';

/** `2026-11-23` for the UTC day of an instant. */
export const dayOf = (instant: Date): string => instant.toISOString().slice(0, 10);
export const nextDay = (day: string): string => dayOf(new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS));

const environmentTable = (environmentId: string) => `${ROOT}_${environmentId.replaceAll('-', '')}`;
const dayTable = (environmentId: string, day: string) =>
  `${environmentTable(environmentId)}_${day.replaceAll('-', '')}`;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const NAME = /^log_records_([0-9a-f]{32})(?:_(\d{4})(\d{2})(\d{2}))?$/;
const uuidOf = (hex: string) =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

export interface DayPartition {
  environmentId: string;
  day: string;
}

/**
 * The partitions of `log_records`: one LIST partition per environment, holding one RANGE partition
 * per UTC day. A partition is created as a plain table and then attached, which locks the parent
 * only against other DDL (SHARE UPDATE EXCLUSIVE), never against the inserts and searches running
 * on it. All partition DDL of every gateway is serialised by one advisory lock.
 */
export class LogPartitions {
  /** Day partitions this process knows to exist (`environmentId/day`); saves a catalog read per insert. */
  private readonly known = new Set<string>();

  constructor(private readonly deps: Pick<Deps, 'db'>) {}

  /** Makes sure the environment has a partition for each of these days. */
  async ensure(environmentId: string, days: Iterable<string>): Promise<void> {
    // Partition bounds and names are SQL text, not parameters: only these shapes reach them.
    if (!isUuid(environmentId)) throw new Error(`not an environment id: ${environmentId}`);
    const missing = [...new Set(days)].filter((day) => !this.known.has(`${environmentId}/${day}`));
    if (missing.some((day) => !DAY.test(day))) throw new Error(`not a day: ${missing.join(', ')}`);
    if (missing.length === 0) return;
    await this.deps.db.transaction(async (tx) => {
      await lockForTransaction(tx, 'logPartitions');
      await this.createEnvironment(tx, environmentId);
      for (const day of missing) await this.createDay(tx, environmentId, day);
    });
    for (const day of missing) this.known.add(`${environmentId}/${day}`);
  }

  /** Forgets what this process believed about an environment (after an insert found no partition). */
  forget(environmentId: string): void {
    for (const key of this.known) if (key.startsWith(`${environmentId}/`)) this.known.delete(key);
  }

  /** Every day partition, and the environment partitions (day null) with none. */
  async list(): Promise<{ environmentId: string; day: string | null; table: string }[]> {
    const rows = await queryRows<{ name: string }>(
      this.deps.db,
      sql`select c.relname as name from pg_class c
          join pg_inherits i on i.inhrelid = c.oid
          join pg_class parent on parent.oid = i.inhparent
          left join pg_inherits up on up.inhrelid = parent.oid
          left join pg_class root on root.oid = up.inhparent
          where parent.relname = ${ROOT} or root.relname = ${ROOT}`,
    );
    return rows.flatMap(({ name }) => {
      const match = NAME.exec(name);
      if (!match) return [];
      const [, hex, year, month, date] = match;
      return [{ environmentId: uuidOf(hex!), day: year ? `${year}-${month}-${date}` : null, table: name }];
    });
  }

  /** Drops one partition (a day's, or an environment's with all its days); false if a lock timed out. */
  async drop(table: string): Promise<boolean> {
    const partition = NAME.exec(table);
    if (!partition) throw new Error(`not a log partition: ${table}`);
    try {
      await this.deps.db.transaction(async (tx) => {
        await lockForTransaction(tx, 'logPartitions');
        // A drop waits for every query on the parent and blocks the ones behind it: briefly, or not now.
        await tx.execute(sql.raw(`set local lock_timeout = '${DROP_LOCK_TIMEOUT}'`));
        await tx.execute(sql`drop table if exists ${sql.identifier(table)}`);
      });
    } catch (error) {
      if (hasSqlState(error, LOCK_NOT_AVAILABLE)) return false;
      throw error;
    }
    const [, hex, year, month, date] = partition;
    const environmentId = uuidOf(hex!);
    if (year) this.known.delete(`${environmentId}/${year}-${month}-${date}`);
    else this.forget(environmentId);
    return true;
  }

  private async exists(tx: Tx, table: string): Promise<boolean> {
    const [row] = await queryRows<{ found: string | null }>(
      tx,
      sql`select to_regclass(${table})::text as found`,
    );
    return Boolean(row?.found);
  }

  private async createEnvironment(tx: Tx, environmentId: string): Promise<void> {
    const table = environmentTable(environmentId);
    if (await this.exists(tx, table)) return;
    const name = sql.identifier(table);
    await tx.execute(
      sql`create table ${name} (like ${sql.identifier(ROOT)} including defaults including constraints) partition by range (occurred_at)`,
    );
    await tx.execute(
      sql`alter table ${sql.identifier(ROOT)} attach partition ${name} for values in (${sql.raw(`'${environmentId}'`)})`,
    );
  }

  private async createDay(tx: Tx, environmentId: string, day: string): Promise<void> {
    const table = dayTable(environmentId, day);
    if (await this.exists(tx, table)) return;
    const name = sql.identifier(table);
    await tx.execute(
      sql`create table ${name} (like ${sql.identifier(ROOT)} including defaults including constraints)`,
    );
    await tx.execute(
      sql`alter table ${sql.identifier(environmentTable(environmentId))} attach partition ${name}
          for values from (${sql.raw(`'${day} 00:00:00+00'`)}) to (${sql.raw(`'${nextDay(day)} 00:00:00+00'`)})`,
    );
  }
}
