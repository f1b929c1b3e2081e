import { bigint, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const AUDIT_OUTCOMES = ['success', 'failure'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** Hash-chained audit trail: `hash = sha256(prevHash + canonical event)`, ordered by `seq`. */
export const auditEvents = pgTable(
  'audit_events',
  {
    seq: bigint('seq', { mode: 'number' }).primaryKey(),
    id: uuid('id').notNull().unique(),
    occurredAt: timestamp('occurred_at', { withTimezone: true, precision: 3 }).notNull(),
    actorId: uuid('actor_id'),
    actorEmail: text('actor_email'),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    outcome: text('outcome', { enum: AUDIT_OUTCOMES }).notNull(),
    requestId: text('request_id'),
    clientIp: text('client_ip'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull(),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (table) => [
    index('audit_events_occurred_at_idx').on(table.occurredAt),
    index('audit_events_action_idx').on(table.action),
    index('audit_events_action_time_idx').on(table.action, table.occurredAt),
    index('audit_events_target_idx').on(table.targetType, table.targetId),
  ],
);
