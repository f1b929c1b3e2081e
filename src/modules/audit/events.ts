import { and, asc, count, desc, eq, gt, gte, lte, type SQL } from 'drizzle-orm';
import { chainHash, GENESIS_HASH } from '../../core/audit-recorder.js';
import type { Deps } from '../../core/deps.js';
import { invalidField, notFound } from '../../core/errors.js';
import { isUuid } from '../../core/ids.js';
import { fetchPage } from '../../core/pagination.js';
import { startsWithText } from '../../core/text-filters.js';
import { auditEvents } from '../../db/schema/index.js';
import type { AuditEvent, ChainBreak, ChainReport, EventListQuery } from './schemas.js';

type EventRow = typeof auditEvents.$inferSelect;

/** The wire and export form of a stored event. */
export function toAuditEvent(row: EventRow): AuditEvent {
  return {
    id: row.id,
    seq: row.seq,
    occurredAt: row.occurredAt.toISOString(),
    actorId: row.actorId,
    actorEmail: row.actorEmail,
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    outcome: row.outcome,
    requestId: row.requestId,
    clientIp: row.clientIp,
    metadata: row.metadata,
    prevHash: row.prevHash,
    hash: row.hash,
  };
}

const VERIFY_CHUNK = 5000;

/** Reading and verifying the hash-chained audit trail (the recorder in src/core writes it). */
export class AuditEventService {
  constructor(private readonly deps: Pick<Deps, 'db'>) {}

  async list(filter: EventListQuery) {
    const conditions: SQL[] = [];
    if (filter.actor) {
      conditions.push(
        isUuid(filter.actor)
          ? eq(auditEvents.actorId, filter.actor)
          : eq(auditEvents.actorEmail, filter.actor.trim().toLowerCase()),
      );
    }
    if (filter.action) {
      conditions.push(
        filter.action.endsWith('.*')
          ? startsWithText(auditEvents.action, filter.action.slice(0, -1))
          : eq(auditEvents.action, filter.action),
      );
    }
    if (filter.targetType) conditions.push(eq(auditEvents.targetType, filter.targetType));
    if (filter.targetId) conditions.push(eq(auditEvents.targetId, filter.targetId));
    if (filter.outcome) conditions.push(eq(auditEvents.outcome, filter.outcome));
    const from = filter.from ? new Date(filter.from) : undefined;
    const to = filter.to ? new Date(filter.to) : undefined;
    if (from && to && from > to) throw invalidField(['from'], 'must not be after to');
    if (from) conditions.push(gte(auditEvents.occurredAt, from));
    if (to) conditions.push(lte(auditEvents.occurredAt, to));
    const where = and(...conditions);
    return fetchPage(
      filter,
      ({ limit, offset }) =>
        this.deps.db
          .select()
          .from(auditEvents)
          .where(where)
          .orderBy(desc(auditEvents.seq))
          .limit(limit)
          .offset(offset),
      this.deps.db.select({ value: count() }).from(auditEvents).where(where),
      toAuditEvent,
    );
  }

  async get(id: string): Promise<AuditEvent> {
    const [row] = isUuid(id)
      ? await this.deps.db.select().from(auditEvents).where(eq(auditEvents.id, id))
      : [];
    if (!row) throw notFound({ eventId: id });
    return toAuditEvent(row);
  }

  /** Walks the whole chain in seq order and reports the first link that does not hold. */
  async verify(): Promise<ChainReport> {
    let prevHash = GENESIS_HASH;
    let expectedSeq = 1;
    let checked = 0;
    let head: EventRow | undefined;
    for (;;) {
      const rows = await this.deps.db
        .select()
        .from(auditEvents)
        .where(gt(auditEvents.seq, expectedSeq - 1))
        .orderBy(asc(auditEvents.seq))
        .limit(VERIFY_CHUNK);
      for (const row of rows) {
        const broken = checkLink(row, expectedSeq, prevHash);
        if (broken) return report(checked, head, broken);
        prevHash = row.hash;
        expectedSeq = row.seq + 1;
        checked += 1;
        head = row;
      }
      if (rows.length < VERIFY_CHUNK) return report(checked, head, null);
    }
  }
}

function checkLink(row: EventRow, expectedSeq: number, prevHash: string): ChainBreak | null {
  if (row.seq !== expectedSeq) {
    return {
      seq: expectedSeq,
      id: null,
      reason: 'SEQ_GAP',
      explanation: `event ${expectedSeq} is missing: the next stored event is ${row.seq}`,
      expected: String(expectedSeq),
      actual: String(row.seq),
    };
  }
  if (row.prevHash !== prevHash) {
    return {
      seq: row.seq,
      id: row.id,
      reason: 'PREV_HASH_MISMATCH',
      explanation: `event ${row.seq} does not link to the hash of event ${row.seq - 1}`,
      expected: prevHash,
      actual: row.prevHash,
    };
  }
  const { prevHash: _prev, hash, ...fields } = row;
  const recomputed = chainHash(prevHash, fields);
  if (recomputed !== hash) {
    return {
      seq: row.seq,
      id: row.id,
      reason: 'HASH_MISMATCH',
      explanation: `event ${row.seq} was changed after it was written: its content no longer gives its hash`,
      expected: recomputed,
      actual: hash,
    };
  }
  return null;
}

function report(checked: number, head: EventRow | undefined, broken: ChainBreak | null): ChainReport {
  return {
    valid: broken === null,
    checkedEvents: checked,
    headSeq: head?.seq ?? null,
    headHash: head?.hash ?? null,
    firstBrokenLink: broken,
    verifiedAt: new Date(),
  };
}
