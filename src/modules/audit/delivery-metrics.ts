import { sql } from 'drizzle-orm';
import type { Deps } from '../../core/deps.js';
import { type QueueStatusCount, queueCollector } from '../../core/metrics/queue-metrics.js';
import { queryRows } from '../../db/raw.js';

/** The SIEM export queue on /metrics; the status index answers the count without reading delivered rows. */
export function registerSiemMetrics(deps: Pick<Deps, 'db' | 'metrics'>): void {
  deps.metrics.collect(
    queueCollector('siem', 'infragate_siem', 'SIEM export', () =>
      queryRows<QueueStatusCount>(
        deps.db,
        sql`select status, count(*) as count, min(created_at) as oldest from siem_deliveries
            where status in ('queued', 'delivering', 'retrying', 'failed', 'paused') group by status`,
      ),
    ),
  );
}
