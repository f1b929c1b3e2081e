import { setImmediate as nextTurn } from 'node:timers/promises';
import { asc, desc, isNotNull, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db } from '../db/client.js';
import { lockForTransaction } from '../db/locks.js';
import { queryRows } from '../db/raw.js';
import { auditEvents } from '../db/schema/index.js';
import { type AuditRecorder, chainHash, GENESIS_HASH } from './audit-recorder.js';
import type { BackgroundJobs } from './background-jobs.js';

/** The background job that gives committed audit events their place in the hash chain. */
export const SEQUENCER_JOB = 'audit.sequencer';
/** The backstop when no wake-up arrives (a commit by a process that cannot announce it). */
const INTERVAL_MS = 100;
/** Short, so another gateway takes over within seconds when the sequencing one dies. */
const LEASE_MS = 2_000;
/** Most events chained in one transaction. */
const BATCH = 1_000;
/**
 * A wake waits this long before a run, so commits arriving meanwhile are chained in the same batch:
 * a batch costs about seven statements whatever its size, which matters on the embedded database.
 */
const GATHER_MS = 10;
/** A run ends after this long (and starts again at once when work is left), so it renews its lease. */
const RUN_MS = LEASE_MS / 3;
/** Processes that commit events tell the sequencing process through this channel. */
const COMMITTED_CHANNEL = 'infragate_audit_committed';
/** `settle()` waits at most this long for another process to sequence what was committed. */
const SETTLE_TIMEOUT_MS = 5_000;

/**
 * Takes sequencing off the request path, as transparency logs do: a change inserts its event with no
 * lock and no read (`AuditRecorder`); this job, run by exactly one gateway process at a time (a short
 * lease), picks up committed events that have no seq yet, in the order they were recorded among
 * those it sees, and gives them consecutive seq numbers and chain hashes in one transaction per
 * batch. A process killed mid-batch leaves the batch unsequenced (its transaction never commits),
 * and the next holder of the lease sequences it. Two holders at once (a paused process whose lease
 * ran out) cannot fork the chain: each batch takes the chain's advisory lock and reads the head
 * after it, and seq is unique.
 *
 * It wakes when a transaction of this process that wrote events commits, when another process
 * announces one (NOTIFY), and every INTERVAL_MS.
 */
export class AuditSequencer {
  private dirty = false;
  private waking = false;
  private stopped = false;
  private notifying = false;
  private notifyAgain = false;

  // Its own list, not Pick<Deps>: Deps names the sequencer, and the two would import each other.
  constructor(
    private readonly deps: { db: Db; audit: AuditRecorder; jobs: BackgroundJobs; log: FastifyBaseLogger },
  ) {
    deps.jobs.register({
      name: SEQUENCER_JOB,
      intervalMs: INTERVAL_MS,
      leaseMs: LEASE_MS,
      run: () => this.runUntilIdle(),
    });
  }

  /** Hears of commits here and in other processes; answers the function that stops listening. */
  async listen(database: Database): Promise<() => Promise<void>> {
    // The embedded database belongs to this one process: nobody else to tell.
    const shared = database.kind === 'postgres';
    const stopCommits = this.deps.audit.onCommitted(() => this.announce(shared));
    const unsubscribe = await database.subscribe(COMMITTED_CHANNEL, () => this.wake());
    return async () => {
      this.stopped = true;
      stopCommits();
      await unsubscribe();
    };
  }

  /**
   * Events committed: sequence them here (a process without the lease finds that out from its
   * cached lease, without a query), and unless this process is known to hold the lease, tell the
   * others too.
   */
  private announce(shared: boolean): void {
    this.wake();
    if (shared && !this.deps.jobs.holdsLease(SEQUENCER_JOB)) this.notifyOthers();
  }

  /** One NOTIFY at a time; commits meanwhile are folded into one more. */
  private notifyOthers(): void {
    if (this.notifying) {
      this.notifyAgain = true;
      return;
    }
    this.notifying = true;
    this.notifyAgain = false;
    this.deps.db
      .execute(sql`select pg_notify(${COMMITTED_CHANNEL}, '')`)
      .catch(() => {
        // The holder then finds the events on its next interval run.
      })
      .finally(() => {
        this.notifying = false;
        if (this.notifyAgain && !this.stopped) this.notifyOthers();
      });
  }

  /** Runs the job soon; a wake during a run makes it run again, so no commit waits for the interval. */
  wake(): void {
    this.dirty = true;
    if (this.waking || this.stopped) return;
    this.waking = true;
    void (async () => {
      try {
        while (this.dirty && !this.stopped) {
          await new Promise((resolve) => setTimeout(resolve, GATHER_MS));
          this.dirty = false;
          await this.deps.jobs.runNow(SEQUENCER_JOB);
        }
      } finally {
        this.waking = false;
      }
    })();
  }

  /**
   * Waits until every event committed before the call is sequenced (by this process when it may,
   * else by the holder), for at most SETTLE_TIMEOUT_MS. For readers that start from the chain's
   * current head, such as a SIEM destination exporting "from now".
   */
  async settle(): Promise<void> {
    const [last] = await queryRows<{ entry: string | null }>(
      this.deps.db,
      sql`select max(entry) as entry from audit_events where seq is null`,
    );
    if (last?.entry == null) return;
    const deadline = Date.now() + SETTLE_TIMEOUT_MS;
    for (;;) {
      const [pending] = await queryRows<{ entry: string }>(
        this.deps.db,
        sql`select entry from audit_events where seq is null and entry <= ${last.entry} limit 1`,
      );
      if (!pending || Date.now() > deadline) return;
      await this.deps.jobs.runNow(SEQUENCER_JOB);
      if (!this.deps.jobs.holdsLease(SEQUENCER_JOB)) {
        this.notifyOthers();
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
  }

  /** Sequences batch after batch until none is full, for at most RUN_MS (then wakes itself again). */
  private async runUntilIdle(): Promise<void> {
    const until = Date.now() + RUN_MS;
    while (!this.stopped) {
      const sequenced = await this.sequenceBatch();
      if (sequenced > 0) this.deps.audit.chainExtended();
      if (sequenced < BATCH) return;
      // Requests get in between batches (on PGlite the database works in this thread).
      await nextTurn();
      if (Date.now() > until) {
        this.wake();
        return;
      }
    }
  }

  /** One batch in one transaction: all of it is sequenced, or (on any failure, or a kill) none. */
  async sequenceBatch(): Promise<number> {
    // Most interval runs find nothing: one indexed read then, not a transaction and the lock.
    const [waiting] = await queryRows<{ entry: string }>(
      this.deps.db,
      sql`select entry from audit_events where seq is null limit 1`,
    );
    if (!waiting) return 0;
    return this.deps.db.transaction(async (tx) => {
      await lockForTransaction(tx, 'auditChain');
      const pending = await tx
        .select()
        .from(auditEvents)
        .where(isNull(auditEvents.seq))
        .orderBy(asc(auditEvents.entry))
        .limit(BATCH);
      if (pending.length === 0) return 0;
      const [head] = await tx
        .select({ seq: auditEvents.seq, hash: auditEvents.hash })
        .from(auditEvents)
        .where(isNotNull(auditEvents.seq))
        .orderBy(desc(auditEvents.seq))
        .limit(1);
      let seq = head?.seq ?? 0;
      let prevHash = head?.hash ?? GENESIS_HASH;
      const links = pending.map((event) => {
        seq += 1;
        const hash = chainHash(prevHash, { ...event, seq });
        const link = { entry: event.entry, seq, prev_hash: prevHash, hash };
        prevHash = hash;
        return link;
      });
      const updated = await queryRows<{ entry: string }>(
        tx,
        sql`update audit_events as e set seq = v.seq, prev_hash = v.prev_hash, hash = v.hash
            from jsonb_to_recordset(${JSON.stringify(links)}::jsonb)
              as v(entry bigint, seq bigint, prev_hash text, hash text)
            where e.entry = v.entry and e.seq is null
            returning e.entry`,
      );
      if (updated.length !== links.length) {
        throw new Error(
          `sequenced ${updated.length} of ${links.length} audit events; the batch is rolled back`,
        );
      }
      return links.length;
    });
  }
}
