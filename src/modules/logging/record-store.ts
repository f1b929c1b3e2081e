import { sql } from 'drizzle-orm';
import { hasSqlState } from '../../core/db-errors.js';
import type { Deps } from '../../core/deps.js';
import { queryRows } from '../../db/raw.js';
import { type LogViolation, logRecords } from '../../db/schema/index.js';
import { dayOf, type LogPartitions } from './partitions.js';
import type { IncomingRecord } from './record-input.js';
import type { LogRecordView } from './record-schemas.js';

/** A record ready to be written, with the schema violations it is kept with (null: none). */
export interface StoredRecord extends IncomingRecord {
  violations: LogViolation[] | null;
}

/** Where a committed batch sits: enough for a tail to read exactly those rows back. */
export interface StoredBatch {
  environmentId: string;
  firstId: string;
  lastId: string;
  from: Date;
  to: Date;
}

/** The columns a record view is read from. */
export const recordColumns = {
  environmentId: logRecords.environmentId,
  id: logRecords.id,
  occurredAt: logRecords.occurredAt,
  receivedAt: logRecords.receivedAt,
  level: logRecords.level,
  service: logRecords.service,
  message: logRecords.message,
  traceId: logRecords.traceId,
  spanId: logRecords.spanId,
  fields: logRecords.fields,
  violations: logRecords.violations,
};

type RecordRow = Pick<typeof logRecords.$inferSelect, keyof typeof recordColumns>;

export const recordView = ({ id, occurredAt, ...rest }: RecordRow): LogRecordView => ({
  id: String(id),
  timestamp: occurredAt,
  ...rest,
  violations: rest.violations ?? null,
});

const NO_PARTITION = '23514';

/**
 * Writes records in one statement and one transaction: the whole batch travels as a single JSON
 * parameter that PostgreSQL unpacks (`jsonb_to_recordset`), which costs less than thousands of bind
 * parameters. A record is one row, so it is stored whole or not at all.
 */
export class RecordStore {
  constructor(private readonly deps: Pick<Deps, 'db'> & { partitions: LogPartitions }) {}

  async insert(environmentId: string, records: StoredRecord[]): Promise<StoredBatch> {
    const times = records.map((record) => record.occurredAt.getTime());
    const batch = {
      environmentId,
      from: new Date(times.reduce((a, b) => Math.min(a, b))),
      to: new Date(times.reduce((a, b) => Math.max(a, b))),
    };
    const days = new Set(records.map((record) => dayOf(record.occurredAt)));
    await this.deps.partitions.ensure(environmentId, days);
    try {
      return { ...batch, ...(await this.write(environmentId, records)) };
    } catch (error) {
      if (!hasSqlState(error, NO_PARTITION)) throw error;
      // A partition this process believed in was dropped meanwhile (retention, a deleted environment).
      this.deps.partitions.forget(environmentId);
      await this.deps.partitions.ensure(environmentId, days);
      return { ...batch, ...(await this.write(environmentId, records)) };
    }
  }

  private async write(environmentId: string, records: StoredRecord[]) {
    const rows = JSON.stringify(
      records.map((record) => ({
        occurred_at: record.occurredAt.toISOString(),
        level: record.level,
        service: record.service,
        message: record.message,
        trace_id: record.traceId,
        span_id: record.spanId,
        fields: record.fields,
        violations: record.violations,
      })),
    );
    const [ids] = await queryRows<{ first: string; last: string }>(
      this.deps.db,
      sql`with inserted as (
            insert into log_records
              (environment_id, occurred_at, level, service, message, trace_id, span_id, fields, violations)
            select ${environmentId}::uuid, r.occurred_at, r.level, r.service, r.message, r.trace_id, r.span_id,
                   r.fields, r.violations
            from jsonb_to_recordset(${rows}::jsonb) as r(occurred_at timestamptz, level text, service text,
              message text, trace_id text, span_id text, fields jsonb, violations jsonb)
            returning id
          )
          select min(id)::text as first, max(id)::text as last from inserted`,
    );
    return { firstId: ids!.first, lastId: ids!.last };
  }
}
