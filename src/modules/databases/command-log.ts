import { setImmediate as nextTurn } from 'node:timers/promises';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Actor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { queryRows } from '../../db/raw.js';
import { type CommandStatus, databaseCommandHistory } from '../../db/schema/index.js';
import { HISTORY_SIZE, type HistoryEntry } from './schemas.js';

export interface CommandRecord {
  actor: Actor;
  databaseId: string;
  /** The command line with credentials masked (never stored unmasked). */
  command: string;
  commandName: string;
  commandClass: string | null;
  keyCount: number | null;
  argCount: number;
  status: CommandStatus;
  reason: string | null;
  error: string | null;
  durationMs: number | null;
}

interface Pending {
  record: CommandRecord;
  /** Set for a durable append: settled once the record committed. */
  settle?: { resolve: () => void; reject: (error: unknown) => void };
}

const MAX_BATCH = 500;
/** Rows an owner may gain past HISTORY_SIZE before old ones are deleted (deletes are batched). */
const TRIM_SLACK = 25;
/** A write-behind record is committed at most this long after its command was answered. */
export const WRITE_BEHIND_MS = 200;
/** Records waiting past this make callers wait for a write (backpressure; nothing is dropped). */
const MAX_WAITING = 10_000;

/**
 * Audit events and history rows of console commands, written in batches (one transaction, one
 * insert of events, one of history rows). A durable `append` is answered only after its record
 * committed: commands arriving while a write is under way are committed together in the next one
 * (group commit). `appendLater` (read-class commands) answers at once and the record is committed
 * within WRITE_BEHIND_MS, with the next durable batch, or on shutdown (`flush`); a failed write is
 * tried again, so only a process killed in that window loses such records.
 */
export class CommandLog {
  private pending: Pending[] = [];
  private draining: Promise<void> | null = null;
  private timer: NodeJS.Timeout | undefined;
  /** Rows written per database/user since their history was last trimmed (this process). */
  private readonly sinceTrim = new Map<string, number>();

  constructor(private readonly deps: Pick<Deps, 'db' | 'audit' | 'log'>) {}

  /** Queues the record and resolves once it committed. */
  append(record: CommandRecord): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ record, settle: { resolve, reject } });
      this.drainSoon();
    });
  }

  /** Queues the record to be committed within WRITE_BEHIND_MS; waits only when too many are waiting. */
  async appendLater(record: CommandRecord): Promise<void> {
    this.pending.push({ record });
    if (this.pending.length >= MAX_WAITING) {
      this.drainSoon();
      await this.draining;
    } else {
      this.timer ??= setTimeout(() => this.drainSoon(), WRITE_BEHIND_MS);
    }
  }

  /** Writes everything appended so far (before a read of the history, and on shutdown). */
  async flush(): Promise<void> {
    if (this.pending.length > 0) this.drainSoon();
    while (this.draining) await this.draining;
  }

  private drainSoon(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.draining ??= nextTurn().then(() => this.drain());
  }

  /** The owner's newest rows, after writing what is still queued (a caller sees its own commands). */
  async history(databaseId: string, userId: string, limit: number): Promise<HistoryEntry[]> {
    await this.flush();
    return this.deps.db
      .select({
        id: databaseCommandHistory.id,
        command: databaseCommandHistory.command,
        commandName: databaseCommandHistory.commandName,
        status: databaseCommandHistory.status,
        error: databaseCommandHistory.error,
        durationMs: databaseCommandHistory.durationMs,
        createdAt: databaseCommandHistory.createdAt,
      })
      .from(databaseCommandHistory)
      .where(
        and(eq(databaseCommandHistory.databaseId, databaseId), eq(databaseCommandHistory.userId, userId)),
      )
      .orderBy(desc(databaseCommandHistory.seq))
      .limit(limit);
  }

  private async drain(): Promise<void> {
    try {
      while (this.pending.length > 0) {
        const batch = this.pending.splice(0, MAX_BATCH);
        try {
          await this.write(batch.map((item) => item.record));
          for (const item of batch) item.settle?.resolve();
        } catch (error) {
          for (const item of batch) item.settle?.reject(error);
          const later = batch.filter((item) => !item.settle);
          if (later.length > 0) {
            this.deps.log.error(
              { err: error, records: later.length },
              'console audit write failed; retrying',
            );
            this.pending.unshift(...later);
            this.timer ??= setTimeout(() => this.drainSoon(), WRITE_BEHIND_MS);
            return;
          }
        }
        // Requests get in between batches: on PGlite the database works in this thread, and a
        // backlog written in one go kept every request waiting (up to ~0.3 s under load).
        if (this.pending.length > 0) await nextTurn();
      }
    } finally {
      this.draining = null;
    }
  }

  private async write(records: CommandRecord[]): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      await this.deps.audit.recordMany(
        tx,
        records.map((record) => ({
          actor: record.actor,
          entry: {
            action: 'databases.keyvalue.command_run',
            targetType: 'database',
            targetId: record.databaseId,
            outcome: record.status === 'ok' ? 'success' : 'failure',
            metadata: {
              command: record.commandName,
              class: record.commandClass,
              keyCount: record.keyCount,
              argCount: record.argCount,
              status: record.status,
              ...(record.reason ? { reason: record.reason } : {}),
            },
          },
        })),
      );
      // A database removed meanwhile keeps its audit events but gets no history rows. One parameter
      // whatever the batch, as for the events: drizzle's insert of hundreds of rows took more CPU
      // than the commands themselves.
      const rows = records.map((record) => ({
        databaseId: record.databaseId,
        userId: record.actor.userId,
        command: record.command,
        commandName: record.commandName,
        status: record.status,
        error: record.error,
        durationMs: record.durationMs,
      }));
      const inserted = await queryRows<{ databaseId: string; userId: string }>(
        tx,
        sql`insert into database_command_history
            (database_id, user_id, command, command_name, status, error, duration_ms)
          select r."databaseId", r."userId", r.command, r."commandName", r.status, r.error, r."durationMs"
          from rows from (jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as (
            "databaseId" uuid, "userId" uuid, command text, "commandName" text, status text,
            error text, "durationMs" real)) with ordinality as r(
            "databaseId", "userId", command, "commandName", status, error, "durationMs", ordinality)
          where exists (select 1 from databases d where d.id = r."databaseId")
          order by r.ordinality
          returning database_id as "databaseId", user_id as "userId"`,
      );
      const due = new Map<string, { databaseId: string; userId: string }>();
      for (const row of inserted) {
        const owner = `${row.databaseId}/${row.userId}`;
        const written = (this.sinceTrim.get(owner) ?? 0) + 1;
        this.sinceTrim.set(owner, written);
        if (written >= TRIM_SLACK) due.set(owner, row);
      }
      for (const [owner, { databaseId, userId }] of due) {
        await tx.execute(sql`
          delete from ${databaseCommandHistory} where id in (
            select id from ${databaseCommandHistory}
            where database_id = ${databaseId} and user_id = ${userId}
            order by seq desc offset ${HISTORY_SIZE})`);
        this.sinceTrim.delete(owner);
      }
    });
  }
}
