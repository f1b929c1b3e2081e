import { and, desc, type SQL, sql } from 'drizzle-orm';
import type { Deps } from '../../core/deps.js';
import { invalidField } from '../../core/errors.js';
import { queryRows } from '../../db/raw.js';
import { logRecords } from '../../db/schema/index.js';
import type { LogEnvironmentService } from './environments.js';
import { filterConditions, type RecordFilter, readFilter } from './record-filters.js';
import type {
  FacetQuery,
  HistogramQuery,
  LogRecordView,
  RecordSearchQuery,
  TailQuery,
} from './record-schemas.js';
import { recordColumns, recordView } from './record-store.js';

const DEFAULT_PAGE = 100;
const DEFAULT_FACETS = 20;
const DEFAULT_HISTOGRAM_SPAN_MS = 24 * 3_600_000;
const MAX_BUCKETS = 1000;
/** Bucket widths the histogram picks from when none is asked for: the first giving ≤ 100 buckets. */
const AUTO_INTERVALS_S = [1, 5, 10, 30, 60, 300, 600, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 86_400];
const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** The cursor is the last record of a page, `<timestamp>|<id>`, base64url: opaque to clients. */
const encodeCursor = (record: LogRecordView) =>
  Buffer.from(`${record.timestamp.toISOString()}|${record.id}`).toString('base64url');

function decodeCursor(cursor: string): { timestamp: Date; id: number } {
  const [time, id, extra] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const timestamp = new Date(time ?? '');
  if (extra !== undefined || !/^\d{1,15}$/.test(id ?? '') || Number.isNaN(timestamp.getTime()))
    throw invalidField(['cursor'], 'is not a cursor this search answered');
  return { timestamp, id: Number(id) };
}

/** The expression a facet counts: the level or service column, or one field's JSON value. */
function facetExpression(field: string): SQL {
  if (field === 'level') return sql`${logRecords.level}`;
  if (field === 'service') return sql`${logRecords.service}`;
  return sql`${logRecords.fields} -> ${field}`;
}

/**
 * Reads the records of an environment: pages newest first, facet counts and a histogram, all with
 * the same filter. Every query names the environment and, where given, the time range, so
 * PostgreSQL prunes to that environment's partitions of those days.
 */
export class RecordSearch {
  constructor(
    private readonly deps: Pick<Deps, 'db'> & { environments: Pick<LogEnvironmentService, 'getEnvironment'> },
  ) {}

  /**
   * Newest first, `(timestamp, id)` descending. The cursor names the last record answered, so
   * records that arrive meanwhile neither shift nor repeat the pages that follow.
   */
  async search(environmentId: string, query: RecordSearchQuery) {
    const filter = readFilter(query);
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    await this.deps.environments.getEnvironment(environmentId);
    const limit = query.limit ?? DEFAULT_PAGE;
    const rows = await this.deps.db
      .select(recordColumns)
      .from(logRecords)
      .where(
        and(
          filterConditions(environmentId, filter),
          after
            ? sql`(${logRecords.environmentId}, ${logRecords.occurredAt}, ${logRecords.id}) <
                  (${environmentId}::uuid, ${after.timestamp.toISOString()}::timestamptz, ${after.id}::bigint)`
            : undefined,
        ),
      )
      .orderBy(desc(logRecords.occurredAt), desc(logRecords.id))
      .limit(limit + 1);
    const data = rows.slice(0, limit).map(recordView);
    return { data, nextCursor: rows.length > limit ? encodeCursor(data[data.length - 1]!) : null };
  }

  /** Records per value of `level`, `service` or a field, most frequent first; absent values are not counted. */
  async facets(environmentId: string, query: FacetQuery) {
    const filter = readFilter(query);
    await this.deps.environments.getEnvironment(environmentId);
    const value = facetExpression(query.field);
    const values = await queryRows<{ value: unknown; count: number }>(
      this.deps.db,
      sql`select ${value} as value, count(*)::int as count from ${logRecords}
          where ${filterConditions(environmentId, filter)} and ${value} is not null
          group by 1 order by 2 desc, 1 limit ${query.limit ?? DEFAULT_FACETS}`,
    );
    return { field: query.field, values };
  }

  /**
   * Records per time bucket from `from` (default: a day before `to`) to `to` (default: now), empty
   * buckets included; buckets are aligned to the epoch, so the same width always cuts the same way.
   */
  async histogram(environmentId: string, query: HistogramQuery, now = new Date()) {
    const filter = readFilter(query);
    const to = filter.to ?? now;
    const from = filter.from ?? new Date(to.getTime() - DEFAULT_HISTOGRAM_SPAN_MS);
    if (from >= to) throw invalidField(['from'], 'must be before `to`');
    const intervalSeconds = this.interval(query.interval, to.getTime() - from.getTime());
    await this.deps.environments.getEnvironment(environmentId);
    const width = intervalSeconds * 1000;
    // Grouped by the bucket's timestamp; only the few groups are turned into epoch milliseconds.
    // Per bucket and level, so a chart can stack the levels; a bucket has at most six rows.
    const counted = await queryRows<{ bucket: string; level: string; count: number }>(
      this.deps.db,
      sql`select (extract(epoch from bucket) * 1000)::bigint::text as bucket, level, count from (
            select date_bin(${`${intervalSeconds} seconds`}::interval, ${logRecords.occurredAt}, timestamptz 'epoch')
                     as bucket, ${logRecords.level} as level, count(*)::int as count
            from ${logRecords} where ${filterConditions(environmentId, { ...filter, from, to } satisfies RecordFilter)}
            group by 1, 2) as counted`,
    );
    const levels = new Map<number, Record<string, number>>();
    for (const row of counted) {
      const start = Number(row.bucket);
      levels.set(start, { ...levels.get(start), [row.level]: row.count });
    }
    const buckets = [];
    for (let start = Math.floor(from.getTime() / width) * width; start < to.getTime(); start += width) {
      const perLevel = levels.get(start) ?? {};
      const count = Object.values(perLevel).reduce((sum, each) => sum + each, 0);
      buckets.push({ start: new Date(start), count, levels: perLevel });
    }
    return { from, to, intervalSeconds, buckets };
  }

  /** The filter of a live tail, once the query and the environment are checked. */
  async tailFilter(environmentId: string, query: TailQuery): Promise<RecordFilter> {
    const filter = readFilter(query);
    await this.deps.environments.getEnvironment(environmentId);
    return filter;
  }

  private interval(asked: string | undefined, spanMs: number): number {
    const fits = (seconds: number) => Math.ceil(spanMs / (seconds * 1000)) + 1 <= MAX_BUCKETS;
    if (asked === undefined) {
      const auto = AUTO_INTERVALS_S.find((seconds) => Math.ceil(spanMs / (seconds * 1000)) <= 100);
      return auto ?? Math.ceil(spanMs / 100 / (86_400 * 1000)) * 86_400;
    }
    const seconds = Number(asked.slice(0, -1)) * UNIT_SECONDS[asked.slice(-1)]!;
    if (!fits(seconds))
      throw invalidField(
        ['interval'],
        `gives more than ${MAX_BUCKETS} buckets for this range; choose a wider one`,
      );
    return seconds;
  }
}
