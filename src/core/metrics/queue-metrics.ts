import { count, inArray, min } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import type { MetricFamily } from './exposition.js';
import { type Collector, gauge } from './registry.js';

/** A delivery table (the owning module passes it), named for its metrics: `infragate_<name>_…`. */
export interface DeliveryQueue {
  name: string;
  /** What the deliveries are, in the HELP texts. */
  what: string;
  table: PgTable & { status: PgColumn; createdAt: PgColumn };
  /** The statuses not done with; delivered and discarded ones are never counted, so the count does not grow with history. */
  open: readonly string[];
}

/** Statuses still to be sent: the backlog. */
const PENDING = new Set(['queued', 'delivering', 'retrying']);

/**
 * A delivery queue drained by a worker (SIEM export, notifications), read at scrape time: its
 * deliveries per open status (`failed` are the delivery failures an operator must look at), and
 * the age of the oldest pending one, which grows when the worker falls behind or a destination is down.
 */
export function queueCollector(db: Db, queue: DeliveryQueue): Collector {
  const { name, what, table } = queue;
  const prefix = `infragate_${name}`;
  return {
    name,
    async collect(): Promise<MetricFamily[]> {
      // The status index answers it.
      const rows = await db
        .select({ status: table.status, count: count(), oldest: min(table.createdAt) })
        .from(table)
        .where(inArray(table.status, [...queue.open]))
        .groupBy(table.status);
      const pending = rows.filter((row) => PENDING.has(String(row.status)));
      const oldest = Math.min(
        ...pending.map((row) => (row.oldest as Date | null)?.getTime() ?? Number.POSITIVE_INFINITY),
      );
      return [
        gauge(
          `${prefix}_deliveries`,
          `${what} deliveries by status (delivered and discarded ones are not counted)`,
          rows.map((row) => ({ labels: { status: String(row.status) }, value: row.count })),
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
