import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.js';
import { queryRows } from '../db/raw.js';

export interface JobSpec {
  name: string;
  intervalMs: number;
  run: () => Promise<void>;
  /**
   * By default a job runs in one gateway process at a time (a lease in the database decides which);
   * set this for work that each process must do for itself, or that shares safely (SKIP LOCKED).
   */
  everyInstance?: boolean;
  /**
   * How long a lease lasts without renewal, i.e. how soon another process takes over from a dead
   * holder. By default it outlives a few missed runs, so a slow holder is not replaced.
   */
  leaseMs?: number;
}

const leaseMs = (job: JobSpec) => job.leaseMs ?? job.intervalMs * 3 + 10_000;

/** What this process saw of a job's runs, for /metrics. */
export interface JobRunStats {
  name: string;
  intervalMs: number;
  /** Whether this process runs it: every instance does, or it held the lease at its last run. */
  runsHere: boolean;
  succeeded: number;
  failed: number;
  /** When this process's last run of it ended (ms since the epoch), or started while one is running. */
  lastRunAt: number | undefined;
  running: boolean;
}

/** What this process last learnt about a lease, trusted until `until` (its own clock). */
interface KnownLease {
  held: boolean;
  until: number;
}

/**
 * Periodic background work (exports, health checks, sweeps). A job never overlaps itself; a failing
 * run is logged and the next one goes on schedule. Jobs start when the server listens and stop
 * (waiting for a run in progress) when it closes. Across processes, a lease row per job names the
 * one process that runs it; another takes over when the lease expires.
 */
export class BackgroundJobs {
  private readonly jobs: JobSpec[] = [];
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly running = new Map<string, Promise<void>>();
  private readonly leases = new Map<string, KnownLease>();
  private readonly runs = new Map<string, { succeeded: number; failed: number; lastRunAt?: number }>();
  private started = false;
  private stopRequested = false;

  private readonly log: FastifyBaseLogger;
  private readonly db: Db;
  /** This process, as the holder of job leases. */
  readonly instanceId: string;

  constructor(deps: { log: FastifyBaseLogger; db: Db; instanceId: string }) {
    this.log = deps.log;
    this.db = deps.db;
    this.instanceId = deps.instanceId;
  }

  register(job: JobSpec): void {
    this.jobs.push(job);
    if (this.started) this.schedule(job);
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    for (const job of this.jobs) this.schedule(job);
  }

  /**
   * Runs a job now (if it is not already running here) and resolves when that run ends; once the
   * jobs were stopped (the server closes) nothing runs any more.
   */
  runNow(name: string): Promise<void> {
    const job = this.jobs.find((candidate) => candidate.name === name);
    if (!job) return Promise.reject(new Error(`no background job named ${name}`));
    if (this.stopRequested) return Promise.resolve();
    return this.runOnce(job);
  }

  /** The server is closing: no run starts any more, and work that goes round (DrainJob) stops going round. */
  get stopped(): boolean {
    return this.stopRequested;
  }

  async stop(): Promise<void> {
    this.started = false;
    this.stopRequested = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled(this.running.values());
    this.leases.clear();
    await this.db.execute(sql`delete from job_leases where holder = ${this.instanceId}`).catch(() => {});
  }

  /** Each registered job's runs in this process. */
  stats(): JobRunStats[] {
    return this.jobs.map((job) => {
      const runs = this.runs.get(job.name) ?? { succeeded: 0, failed: 0 };
      return {
        name: job.name,
        intervalMs: job.intervalMs,
        runsHere: job.everyInstance === true || this.leases.get(job.name)?.held === true,
        succeeded: runs.succeeded,
        failed: runs.failed,
        lastRunAt: runs.lastRunAt,
        running: this.running.has(job.name),
      };
    });
  }

  /** Whether this process holds the named job's lease (as far as it knows without asking). */
  holdsLease(name: string): boolean {
    const known = this.leases.get(name);
    return known?.held === true && known.until > Date.now();
  }

  /**
   * Takes or renews the job's lease; false when another live process holds it. A held lease is
   * renewed once a third of it has passed, not on every run (a frequently woken job would otherwise
   * write a row per run); a refusal is remembered for a quarter of the lease (at most a second).
   * The local deadline counts from before the query, so it ends before the lease in the database.
   */
  async acquireLease(job: JobSpec): Promise<boolean> {
    const asked = Date.now();
    const known = this.leases.get(job.name);
    if (known && known.until > asked) return known.held;
    const ms = leaseMs(job);
    const rows = await queryRows<{ holder: string }>(
      this.db,
      sql`insert into job_leases (name, holder, expires_at)
          values (${job.name}, ${this.instanceId}, now() + ${`${ms} milliseconds`}::interval)
          on conflict (name) do update set holder = excluded.holder, expires_at = excluded.expires_at
          where job_leases.holder = excluded.holder or job_leases.expires_at < now()
          returning holder`,
    );
    const held = rows.length === 1;
    this.leases.set(job.name, { held, until: asked + (held ? ms / 3 : Math.min(ms / 4, 1000)) });
    return held;
  }

  private schedule(job: JobSpec): void {
    const timer = setTimeout(async () => {
      await this.runOnce(job);
      if (this.started) this.schedule(job);
    }, job.intervalMs);
    timer.unref();
    this.timers.set(job.name, timer);
  }

  private runOnce(job: JobSpec): Promise<void> {
    const inFlight = this.running.get(job.name);
    if (inFlight) return inFlight;
    const runs = this.runs.get(job.name) ?? { succeeded: 0, failed: 0 };
    this.runs.set(job.name, runs);
    let ran = false;
    const run = (async () => {
      if (!job.everyInstance && !(await this.acquireLease(job))) return;
      ran = true;
      runs.lastRunAt = Date.now();
      await job.run();
      runs.succeeded += 1;
    })()
      .catch((error: unknown) => {
        runs.failed += 1;
        this.log.error({ err: error, job: job.name }, 'background job failed');
      })
      .finally(() => {
        if (ran) runs.lastRunAt = Date.now();
        this.running.delete(job.name);
      });
    this.running.set(job.name, run);
    return run;
  }
}
