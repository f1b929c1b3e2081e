import type { Deps } from '../../core/deps.js';
import { loggingEnvironments } from '../../db/schema/index.js';
import { dayOf, type LogPartitions, nextDay } from './partitions.js';

const DAY_MS = 86_400_000;
export const RETENTION_JOB = 'logging.partitions';
const RUN_EVERY_MS = 10 * 60_000;

/**
 * The partition job, run by one gateway at a time (a lease): drops the day partitions every record
 * of which is older than its environment's `retentionDays` (read on each run, so a change applies on
 * the next one), drops the partitions of deleted environments, and creates today's and tomorrow's
 * partitions for environments that received records lately, so midnight needs no DDL on the ingest
 * path. A drop that cannot get its lock within seconds waits for the next run.
 */
export class LogRetention {
  constructor(private readonly deps: Pick<Deps, 'db' | 'log' | 'jobs'> & { partitions: LogPartitions }) {}

  register(): void {
    this.deps.jobs.register({ name: RETENTION_JOB, intervalMs: RUN_EVERY_MS, run: () => this.run() });
  }

  async run(now = new Date()): Promise<void> {
    const environments = await this.deps.db
      .select({ id: loggingEnvironments.id, retentionDays: loggingEnvironments.retentionDays })
      .from(loggingEnvironments);
    const retention = new Map(environments.map((row) => [row.id, row.retentionDays]));
    const today = dayOf(now);
    const recent = new Set([today, dayOf(new Date(now.getTime() - DAY_MS))]);
    const active = new Set<string>();
    for (const partition of await this.deps.partitions.list()) {
      const days = retention.get(partition.environmentId);
      // A deleted environment: its partition goes whole, its days with it.
      if (days === undefined) {
        if (partition.day === null) await this.dropLogged(partition.table);
        continue;
      }
      if (partition.day === null) continue;
      const keptSince = now.getTime() - days * DAY_MS;
      if (Date.parse(`${nextDay(partition.day)}T00:00:00Z`) <= keptSince)
        await this.dropLogged(partition.table);
      else if (recent.has(partition.day)) active.add(partition.environmentId);
    }
    for (const environmentId of active)
      await this.deps.partitions.ensure(environmentId, [today, nextDay(today)]);
  }

  private async dropLogged(table: string): Promise<void> {
    if (!(await this.deps.partitions.drop(table)))
      this.deps.log.warn({ table }, 'log partition still in use; it is dropped on the next run');
  }
}
