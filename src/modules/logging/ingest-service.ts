import type { ValidationIssue } from '../../core/errors.js';
import type { Counter, Metrics } from '../../core/metrics/registry.js';
import { KeyedRateLimiter } from '../../core/token-bucket.js';
import { TooManyRequests } from '../../core/too-many-requests.js';
import type { IncomingRecord, RecordParse } from './record-input.js';
import type { IngestIssue, IngestResult, IngestTarget } from './record-schemas.js';
import type { RecordStore, StoredRecord } from './record-store.js';
import type { RecordTail } from './record-tail.js';
import { checkAgainstSchema } from './schema-check.js';

const DAY_MS = 86_400_000;
const MAX_ERRORS = 1000;

/** A record older than the environment keeps, or more than a day ahead of the clock, is refused. */
function outsideKeptTime(record: IncomingRecord, target: IngestTarget, now: Date): ValidationIssue[] {
  const time = record.occurredAt.getTime();
  if (time < now.getTime() - target.retentionDays * DAY_MS)
    return [
      { path: ['timestamp'], message: `is older than this environment keeps (${target.retentionDays} days)` },
    ];
  if (time > now.getTime() + DAY_MS)
    return [{ path: ['timestamp'], message: 'is more than a day in the future' }];
  return [];
}

/** What becomes of one record: stored (flagged with its violations under `keep`) or refused. */
export function judge(
  item: RecordParse,
  target: IngestTarget,
  now: Date,
): { record: StoredRecord } | { issues: ValidationIssue[] } {
  if ('issues' in item) return item;
  const late = outsideKeptTime(item.record, target, now);
  if (late.length > 0) return { issues: late };
  const { violations, fields } = checkAgainstSchema(item.record, target.schema);
  if (violations.length > 0 && target.onSchemaViolation === 'reject') return { issues: violations };
  return { record: { ...item.record, fields, violations: violations.length > 0 ? violations : null } };
}

/**
 * Takes parsed records into an environment: the ingest token's rate limit, the time window the
 * environment keeps (no older than its retention, at most a day ahead of the clock), its schema
 * (`onSchemaViolation`: reject the record, or keep it flagged), then one write for the whole
 * request, committed before the answer, and the announcement to live tails.
 */
export class IngestService {
  private readonly limiter = new KeyedRateLimiter();
  private readonly records: Counter<'outcome'>;

  constructor(private readonly deps: { store: RecordStore; tail: RecordTail; metrics: Metrics }) {
    this.records = deps.metrics.counter(
      'infragate_ingest_records_total',
      'Log records offered to ingest, by outcome: stored (flagged ones included), rejected (invalid, outside the kept time, or against the schema), rate_limited (in a request refused with 429)',
      ['outcome'],
    );
  }

  async accept(
    target: IngestTarget,
    parsed: RecordParse[],
    bodyBytes: number,
    now = new Date(),
  ): Promise<IngestResult> {
    try {
      this.admit(target, parsed.length, bodyBytes, now);
    } catch (error) {
      this.records.inc({ outcome: 'rate_limited' }, parsed.length);
      throw error;
    }
    const stored: StoredRecord[] = [];
    const errors: IngestIssue[] = [];
    let rejected = 0;
    let flagged = 0;
    for (const [index, item] of parsed.entries()) {
      const outcome = judge(item, target, now);
      if ('issues' in outcome) {
        rejected += 1;
        for (const issue of outcome.issues) if (errors.length < MAX_ERRORS) errors.push({ index, ...issue });
        continue;
      }
      if (outcome.record.violations) flagged += 1;
      stored.push(outcome.record);
    }
    if (stored.length > 0)
      this.deps.tail.announce(await this.deps.store.insert(target.environmentId, stored));
    this.records.inc({ outcome: 'stored' }, stored.length);
    this.records.inc({ outcome: 'rejected' }, rejected);
    return { accepted: stored.length, rejected, flagged, errors };
  }

  /** 429 when the token is over records/s or bytes/s; a bucket always holds at least one full request. */
  private admit(target: IngestTarget, records: number, bytes: number, now: Date): void {
    const wait = this.limiter.admit(
      target.tokenId,
      [
        {
          perSecond: target.recordsPerSecond,
          burst: Math.max(target.recordsPerSecond * target.burstSeconds, target.maxRecords),
        },
        {
          perSecond: target.bytesPerSecond,
          burst: Math.max(target.bytesPerSecond * target.burstSeconds, target.maxBodyBytes),
        },
      ],
      [records, bytes],
      now.getTime(),
    );
    if (wait > 0)
      throw new TooManyRequests(
        Math.ceil(wait),
        `this ingest token is over its rate (${target.recordsPerSecond} records/s, ${target.bytesPerSecond} bytes/s)`,
      );
  }
}
