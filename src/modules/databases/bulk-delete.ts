import crypto from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Actor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { invalidField, notFound, unprocessable } from '../../core/errors.js';
import type { KeyValueConnections } from './connections.js';
import { fromBytesJson, toBytesJson } from './key-bytes.js';
import { type KeyValueHandle, keyValueFailure, openKeyValue } from './keyvalue-access.js';
import type { BulkDeleteBody, BulkDeleteJob, BulkDeletePlan } from './keyvalue-schemas.js';

/** Keys SCAN is asked for per call, and deleted per UNLINK. */
const BATCH = 1000;
/** How long a dry run's token may start the delete. */
const TOKEN_MS = 10 * 60_000;
/** Finished jobs kept for their progress to be read. */
const KEPT_JOBS = 200;
const KEPT_MS = 60 * 60_000;

interface Plan {
  databaseId: string;
  userId: string | null;
  pattern: string;
  count: number;
  expiresAt: Date;
}

interface Job extends BulkDeleteJob {
  stop: boolean;
}

export type BulkDeleterDeps = Pick<Deps, 'db' | 'audit' | 'log'> & { connections: KeyValueConnections };

/**
 * Deletes the keys matching a pattern in two steps: a dry run counts them and answers a token bound
 * to the database, the pattern and the caller; the token then starts a job that SCANs and UNLINKs in
 * batches (never KEYS, never one huge DEL), whose progress can be read. Plans and jobs live in this
 * process (see docs/api/databases.md).
 */
export class BulkDeleter {
  private readonly plans = new LRUCache<string, Plan>({ max: 1000, ttl: TOKEN_MS });
  private readonly jobs = new LRUCache<string, Job>({ max: KEPT_JOBS, ttl: KEPT_MS });
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly deps: BulkDeleterDeps) {}

  async dryRun(actor: Actor, id: string, body: BulkDeleteBody): Promise<BulkDeletePlan> {
    const pattern = fromBytesJson(body.pattern);
    const kv = await openKeyValue(this.deps.connections, id);
    let count = 0;
    await this.scan(kv, pattern, async (keys) => {
      count += keys.length;
      return true;
    });
    const confirmToken = crypto.randomBytes(24).toString('base64url');
    const expiresAt = new Date(Date.now() + TOKEN_MS);
    this.plans.set(confirmToken, {
      databaseId: id,
      userId: actor.userId,
      pattern: pattern.toString('hex'),
      count,
      expiresAt,
    });
    return { count, confirmToken, expiresAt };
  }

  /** Starts the delete a dry run planned; 422 for a token that is unknown, used, expired or another plan's. */
  async start(actor: Actor, id: string, body: BulkDeleteBody): Promise<BulkDeleteJob> {
    const pattern = fromBytesJson(body.pattern);
    const plan = this.plans.get(body.confirmToken!);
    if (
      !plan ||
      plan.databaseId !== id ||
      plan.userId !== actor.userId ||
      plan.pattern !== pattern.toString('hex')
    ) {
      throw unprocessable(
        'CONFIRM_TOKEN_INVALID',
        'the confirmToken is unknown, used, expired, or from a dry run of another pattern, database or caller; run the dry run again',
      );
    }
    this.plans.delete(body.confirmToken!);
    const kv = await openKeyValue(this.deps.connections, id);
    const job: Job = {
      id: crypto.randomUUID(),
      pattern: toBytesJson(pattern),
      status: 'running',
      expected: plan.count,
      scanned: 0,
      deleted: 0,
      error: null,
      startedAt: new Date(),
      finishedAt: null,
      stop: false,
    };
    this.jobs.set(this.jobKey(id, job.id), job);
    await this.deps.audit.recordAlone(this.deps.db, actor, {
      action: 'databases.keyvalue.bulk_delete_started',
      targetType: 'database',
      targetId: id,
      metadata: { jobId: job.id, pattern: job.pattern, expected: plan.count },
    });
    const run = this.run(actor, id, kv, pattern, job);
    this.running.add(run);
    run.finally(() => this.running.delete(run));
    return this.view(job);
  }

  progress(id: string, jobId: string): BulkDeleteJob {
    const job = this.jobs.get(this.jobKey(id, jobId));
    if (!job) throw notFound({ jobId });
    return this.view(job);
  }

  /** Stops the running jobs after their current batch (server shutdown) and waits for them. */
  async stopAll(): Promise<void> {
    for (const job of this.jobs.values()) job.stop = true;
    await Promise.allSettled([...this.running]);
  }

  /** Checks the body's shape beyond the schema: exactly one of dryRun and confirmToken. */
  static mode(body: BulkDeleteBody): 'dryRun' | 'start' {
    if (body.dryRun === true && body.confirmToken === undefined) return 'dryRun';
    if (body.dryRun !== true && body.confirmToken !== undefined) return 'start';
    throw invalidField(['confirmToken'], 'send either dryRun: true, or the confirmToken of a dry run');
  }

  private async run(actor: Actor, id: string, kv: KeyValueHandle, pattern: Buffer, job: Job): Promise<void> {
    try {
      await this.scan(kv, pattern, async (keys) => {
        if (job.stop) return false;
        job.scanned += keys.length;
        if (keys.length > 0) job.deleted += Number(await kv.run('UNLINK', ...keys));
        return true;
      });
      job.status = job.stop ? 'stopped' : 'done';
    } catch (error) {
      const failure = keyValueFailure(error);
      job.status = 'failed';
      job.error = failure instanceof Error ? failure.message : String(failure);
      const details = (failure as { details?: { explanation?: string } }).details;
      if (details?.explanation) job.error = details.explanation;
    }
    job.finishedAt = new Date();
    await this.deps.audit
      .recordAlone(this.deps.db, actor, {
        action: 'databases.keyvalue.bulk_delete_finished',
        targetType: 'database',
        targetId: id,
        outcome: job.status === 'done' ? 'success' : 'failure',
        metadata: {
          jobId: job.id,
          pattern: job.pattern,
          status: job.status,
          deleted: job.deleted,
          error: job.error,
        },
      })
      .catch((error) =>
        this.deps.log.error({ err: error, jobId: job.id }, 'bulk delete: audit event not written'),
      );
  }

  /** SCANs the whole keyspace for `pattern`, a batch at a time, until `each` answers false. */
  private async scan(
    kv: KeyValueHandle,
    pattern: Buffer,
    each: (keys: Buffer[]) => Promise<boolean>,
  ): Promise<void> {
    let cursor = '0';
    do {
      const [next, keys] = (await kv.run('SCAN', cursor, 'MATCH', pattern, 'COUNT', BATCH)) as [
        Buffer,
        Buffer[],
      ];
      cursor = String(next);
      if ((await each(keys)) === false) return;
    } while (cursor !== '0');
  }

  private jobKey(id: string, jobId: string): string {
    return `${id}/${jobId}`;
  }

  private view({ stop: _stop, ...job }: Job): BulkDeleteJob {
    return { ...job };
  }
}
