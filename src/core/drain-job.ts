import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import type { BackgroundJobs } from './background-jobs.js';

export interface DrainJobSpec {
  /** Where it runs; it stops with the jobs (the server closing), so no module stops it itself. */
  jobs: BackgroundJobs;
  name: string;
  /** How often the job looks for work when nothing wakes it. */
  intervalMs: number;
  /** True when rounds share safely between processes (`FOR UPDATE SKIP LOCKED` claims). */
  everyInstance?: boolean;
  /** One round of work; answers how much it did (0 when nothing was due). */
  round: () => Promise<number>;
  /** Runs once, before the first round (e.g. releasing the claims a killed process left behind). */
  prepare?: () => Promise<void>;
}

/** Rounds of one run before it yields to the scheduler (a wake starts it again). */
const MAX_ROUNDS = 1000;

/**
 * A background job that drains a queue: it runs on its interval and also soon after `wake()` (work was
 * just queued), and each run goes round until a round finds nothing to do and no wake arrived meanwhile.
 * The delivery workers of the outbox-style queues (notification deliveries, the SIEM export) use it.
 */
export class DrainJob {
  private prepared = false;
  private dirty = false;
  private wakeTimer: NodeJS.Timeout | undefined;

  constructor(private readonly spec: DrainJobSpec) {}

  register(): void {
    const { jobs, name, intervalMs, everyInstance } = this.spec;
    jobs.register({
      name,
      intervalMs,
      everyInstance: everyInstance ?? false,
      run: () => this.runUntilIdle(),
    });
  }

  /** Work arrived (its transaction commits about now): run soon. */
  wake(delayMs = 20): void {
    this.dirty = true;
    const { jobs, name } = this.spec;
    if (jobs.stopped || this.wakeTimer) return;
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = undefined;
      // Once the jobs stopped this does nothing (the server closes).
      jobs.runNow(name).catch(() => {});
    }, delayMs);
    this.wakeTimer.unref();
  }

  async runUntilIdle(): Promise<void> {
    if (!this.prepared) {
      this.prepared = true;
      await this.spec.prepare?.();
    }
    for (let round = 0; round < MAX_ROUNDS && !this.spec.jobs.stopped; round++) {
      this.dirty = false;
      if ((await this.spec.round()) === 0 && !this.dirty) return;
    }
  }
}

/**
 * PGlite is one process's private database: rows of a claim table (`status`, `lease_expires_at`) still
 * `delivering` when a process starts were being sent when the previous one died, so their leases are
 * expired at once (on PostgreSQL other processes may hold them; their leases run out instead).
 */
export async function releaseClaimsAfterRestart(
  db: Db,
  dbKind: 'pglite' | 'postgres',
  table: string,
): Promise<void> {
  if (dbKind !== 'pglite') return;
  await db.execute(
    sql`update ${sql.identifier(table)} set lease_expires_at = now() - interval '1 second' where status = 'delivering'`,
  );
}
