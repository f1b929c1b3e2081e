import type { MetricFamily } from './exposition.js';
import { type Collector, gauge } from './registry.js';

/**
 * Deliveries of a queue in one status that is not done with (queued, delivering, retrying, failed …),
 * as a `select status, count(*), min(created_at)` answers it (the drivers differ in types).
 */
export interface QueueStatusCount {
  status: string;
  count: number | string;
  /** When the oldest of them was queued. */
  oldest: Date | string | null;
}

/** Statuses still to be sent: the backlog. */
const PENDING = new Set(['queued', 'delivering', 'retrying']);

/**
 * A delivery queue drained by a worker (SIEM export, notifications), read at scrape time: its
 * deliveries per open status (`failed` are the delivery failures an operator must look at), and
 * the age of the oldest pending one, which grows when the worker falls behind or a destination is down.
 */
export function queueCollector(
  name: string,
  prefix: string,
  what: string,
  read: () => Promise<QueueStatusCount[]>,
): Collector {
  return {
    name,
    async collect(): Promise<MetricFamily[]> {
      const rows = (await read()).map((row) => ({
        status: row.status,
        count: Number(row.count),
        oldest: row.oldest === null ? null : new Date(row.oldest),
      }));
      const pending = rows.filter((row) => PENDING.has(row.status));
      const oldest = Math.min(...pending.map((row) => row.oldest?.getTime() ?? Number.POSITIVE_INFINITY));
      return [
        gauge(
          `${prefix}_deliveries`,
          `${what} deliveries by status (delivered and discarded ones are not counted)`,
          rows.map((row) => ({ labels: { status: row.status }, value: row.count })),
        ),
        gauge(`${prefix}_backlog`, `${what} deliveries still to be sent (queued, delivering or retrying)`, [
          { value: pending.reduce((sum, row) => sum + row.count, 0) },
        ]),
        gauge(
          `${prefix}_oldest_pending_age_seconds`,
          `Age of the oldest ${what} delivery still to be sent (0: none)`,
          [{ value: Number.isFinite(oldest) ? Math.max(0, Date.now() - oldest) / 1000 : 0 }],
        ),
      ];
    },
  };
}
