import { sql } from 'drizzle-orm';
import type { Deps } from '../../core/deps.js';
import { type QueueStatusCount, queueCollector } from '../../core/metrics/queue-metrics.js';
import { queryRows } from '../../db/raw.js';

/** The notification delivery queue on /metrics; the status index answers the count without reading delivered rows. */
export function registerNotificationMetrics(deps: Pick<Deps, 'db' | 'metrics'>): void {
  deps.metrics.collect(
    queueCollector('notifications', 'infragate_notification', 'Notification', () =>
      queryRows<QueueStatusCount>(
        deps.db,
        sql`select status, count(*) as count, min(created_at) as oldest from notification_deliveries
            where status in ('queued', 'delivering', 'retrying', 'failed') group by status`,
      ),
    ),
  );
}
