import { and, count, desc, eq, gte, lte, type SQL } from 'drizzle-orm';
import type { Deps } from '../../core/deps.js';
import { invalidField, notFound } from '../../core/errors.js';
import { isUuid } from '../../core/ids.js';
import { fetchPage } from '../../core/pagination.js';
import { startsWithText } from '../../core/text-filters.js';
import { auditEvents } from '../../db/schema/index.js';
import type { AuditEvent, EventListQuery } from './schemas.js';

export type EventRow = typeof auditEvents.$inferSelect;

/** The wire and export form of a stored event; `seq`, `prevHash` and `hash` are null until it is sequenced. */
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

/** Reading the audit trail (the recorder in src/core writes it, the sequencer chains it). */
export class AuditEventService {
  constructor(private readonly deps: Pick<Deps, 'db'>) {}

  /** Newest recorded first, sequenced or not: an event is listed as soon as its change committed. */
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
          .orderBy(desc(auditEvents.entry))
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
}
