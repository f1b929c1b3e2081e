import { and, desc, type SQL, sql } from 'drizzle-orm';
import type { Actor } from '../../core/actor.js';
import { hasScope } from '../../core/auth/scopes.js';
import { hasSqlState } from '../../core/db-errors.js';
import type { Deps } from '../../core/deps.js';
import { invalidField, notFound, unprocessable } from '../../core/errors.js';
import type { DbOrTx } from '../../db/client.js';
import { queryRows } from '../../db/raw.js';
import { logRecords } from '../../db/schema/index.js';
import type { LogEnvironmentService } from './environments.js';
import { filterConditions, type RecordFilter, readFilter } from './record-filters.js';
import type {
  FacetQuery,
  HistogramQuery,
  LogRecordView,
  MultiSearchQuery,
  RecordSearchQuery,
  TailQuery,
} from './record-schemas.js';
import { recordColumns, recordView } from './record-store.js';

const DEFAULT_PAGE = 100;
const MAX_ENVIRONMENTS = 50;
const DEFAULT_FACETS = 20;
const DEFAULT_HISTOGRAM_SPAN_MS = 24 * 3_600_000;
const MAX_BUCKETS = 1000;
/** Bucket widths the histogram picks from when none is asked for: the first giving ≤ 100 buckets. */
const AUTO_INTERVALS_S = [1, 5, 10, 30, 60, 300, 600, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 86_400];
const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };
const HOUR_MS = 3_600_000;
const INVALID_REGULAR_EXPRESSION = '2201B';
const QUERY_CANCELED = '57014';

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
    private readonly deps: Pick<Deps, 'db' | 'dbKind' | 'config'> & {
      environments: Pick<LogEnvironmentService, 'getEnvironment'>;
    },
  ) {}

  /**
   * Newest first, `(timestamp, id)` descending. The cursor names the last record answered, so
   * records that arrive meanwhile neither shift nor repeat the pages that follow.
   */
  async search(environmentId: string, query: RecordSearchQuery) {
    const filter = await this.filterFor([environmentId], query);
    return this.page([environmentId], filter, query);
  }

  /**
   * The same search over several environments, merged newest first. Every id must name an
   * environment the caller may view; one it may not is answered as one that does not exist.
   */
  async searchMany(actor: Pick<Actor, 'scopes'>, query: MultiSearchQuery) {
    const ids = [...new Set(query.environmentIds.split(',').map((id) => id.trim()))];
    if (ids.some((id) => id === ''))
      throw invalidField(['environmentIds'], 'lists environment ids, comma-separated');
    if (ids.length > MAX_ENVIRONMENTS)
      throw invalidField(['environmentIds'], `names at most ${MAX_ENVIRONMENTS} environments`);
    for (const id of ids)
      if (!hasScope(actor.scopes, 'logging:view', id)) throw notFound({ environmentId: id });
    const filter = await this.filterFor(ids, query);
    return this.page(ids, filter, query);
  }

  /** Records per value of `level`, `service` or a field, most frequent first; absent values are not counted. */
  async facets(environmentId: string, query: FacetQuery) {
    const filter = await this.filterFor([environmentId], query);
    const value = facetExpression(query.field);
    const values = await this.bounded(filter, (db) =>
      queryRows<{ value: unknown; count: number }>(
        db,
        sql`select ${value} as value, count(*)::int as count from ${logRecords}
            where ${filterConditions(environmentId, filter)} and ${value} is not null
            group by 1 order by 2 desc, 1 limit ${query.limit ?? DEFAULT_FACETS}`,
      ),
    );
    return { field: query.field, values };
  }

  /** How many records of the environment match the filter (its range included). */
  async count(environmentId: string, filter: RecordFilter, db: DbOrTx = this.deps.db): Promise<number> {
    const [row] = await queryRows<{ count: number }>(
      db,
      sql`select count(*)::int as count from ${logRecords} where ${filterConditions(environmentId, filter)}`,
    );
    return row!.count;
  }

  /**
   * The filter of a query on these environments, once the query, the environments and a `match`
   * are checked: a match reads every record of its range (no index serves a substring or a regular
   * expression), so the range must be given and at most INFRAGATE_LOG_MATCH_MAX_HOURS long, and a
   * regular expression must compile (asked of the database, whose dialect it is).
   */
  filterFor(environmentIds: string[], query: Record<string, unknown>): Promise<RecordFilter> {
    return this.checked(environmentIds, readFilter(query));
  }

  /** A filter, once its environments exist and its `match` is within bounds (see filterFor). */
  async checked(environmentIds: string[], filter: RecordFilter, now = new Date()): Promise<RecordFilter> {
    for (const id of environmentIds) await this.deps.environments.getEnvironment(id);
    if (!filter.match) return filter;
    const maxHours = this.deps.config.logSearch.matchMaxHours;
    const span = (filter.to ?? now).getTime() - (filter.from?.getTime() ?? Number.NEGATIVE_INFINITY);
    if (span > maxHours * HOUR_MS)
      throw invalidField(
        ['from'],
        `a \`match\` searches at most ${maxHours} hours: give \`from\` within that of \`to\` (or of now)`,
      );
    await this.checkRegex(filter);
    return filter;
  }

  private async checkRegex({ match }: RecordFilter): Promise<void> {
    if (match?.mode !== 'regex') return;
    try {
      await this.deps.db.execute(sql`select '' ~ ${match.text}`);
    } catch (error) {
      if (!hasSqlState(error, INVALID_REGULAR_EXPRESSION)) throw error;
      // Drizzle wraps the database's error, whose message says what is wrong with the pattern.
      const cause = (error as Error).cause;
      const reason = cause instanceof Error ? cause.message : 'PostgreSQL does not accept it';
      throw invalidField(['match'], `is not a regular expression: ${reason}`);
    }
  }

  /**
   * Runs a query of the filter; with a `match` on PostgreSQL, under a statement timeout
   * (INFRAGATE_LOG_MATCH_TIMEOUT_MS), answering 422 MATCH_TIMED_OUT when it is reached.
   */
  async bounded<T>(filter: RecordFilter, run: (db: DbOrTx) => Promise<T>): Promise<T> {
    if (!filter.match || this.deps.dbKind !== 'postgres') return run(this.deps.db);
    const timeoutMs = this.deps.config.logSearch.matchTimeoutMs;
    try {
      return await this.deps.db.transaction(async (tx) => {
        await tx.execute(sql.raw(`set local statement_timeout = ${Math.trunc(timeoutMs)}`));
        return run(tx);
      });
    } catch (error) {
      if (!hasSqlState(error, QUERY_CANCELED)) throw error;
      throw unprocessable(
        'MATCH_TIMED_OUT',
        `the match ran longer than ${timeoutMs} ms: narrow the time range or add q, level, service or field filters`,
      );
    }
  }

  /** One page of the environments' records matching the filter, after the cursor's record. */
  private async page(
    environmentIds: string[],
    filter: RecordFilter,
    query: { cursor?: string | undefined; limit?: number | undefined },
  ) {
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    const limit = query.limit ?? DEFAULT_PAGE;
    const rows = await this.bounded(filter, (db) =>
      db
        .select(recordColumns)
        .from(logRecords)
        .where(
          and(
            filterConditions(environmentIds.length === 1 ? environmentIds[0]! : environmentIds, filter),
            after
              ? sql`(${logRecords.occurredAt}, ${logRecords.id}) <
                    (${after.timestamp.toISOString()}::timestamptz, ${after.id}::bigint)`
              : undefined,
          ),
        )
        .orderBy(desc(logRecords.occurredAt), desc(logRecords.id))
        .limit(limit + 1),
    );
    const data = rows.slice(0, limit).map(recordView);
    return { data, nextCursor: rows.length > limit ? encodeCursor(data[data.length - 1]!) : null };
  }

  /**
   * Records per time bucket from `from` (default: a day before `to`) to `to` (default: now), empty
   * buckets included; buckets are aligned to the epoch, so the same width always cuts the same way.
   */
  async histogram(environmentId: string, query: HistogramQuery, now = new Date()) {
    const asked = readFilter(query);
    const to = asked.to ?? now;
    const from = asked.from ?? new Date(to.getTime() - DEFAULT_HISTOGRAM_SPAN_MS);
    if (from >= to) throw invalidField(['from'], 'must be before `to`');
    const intervalSeconds = this.interval(query.interval, to.getTime() - from.getTime());
    const filter = await this.checked([environmentId], { ...asked, from, to }, now);
    const width = intervalSeconds * 1000;
    // Grouped by the bucket's timestamp and level (a chart stacks the levels: at most six rows a
    // bucket); only the few groups are turned into epoch milliseconds.
    const counted = await this.bounded(filter, (db) =>
      queryRows<{ bucket: string; level: string; count: number }>(
        db,
        sql`select (extract(epoch from bucket) * 1000)::bigint::text as bucket, level, count from (
            select date_bin(${`${intervalSeconds} seconds`}::interval, ${logRecords.occurredAt}, timestamptz 'epoch')
                     as bucket, ${logRecords.level} as level, count(*)::int as count
            from ${logRecords} where ${filterConditions(environmentId, filter)}
            group by 1, 2) as counted`,
      ),
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
    // Each read of a tail covers one ingested batch, so a match there needs no range bound.
    const filter = readFilter(query);
    await this.deps.environments.getEnvironment(environmentId);
    await this.checkRegex(filter);
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
