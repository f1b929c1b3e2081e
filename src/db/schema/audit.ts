import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const AUDIT_OUTCOMES = ['success', 'failure'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/**
 * Hash-chained audit trail: `hash = sha256(prevHash + canonical event)`, ordered by `seq`. A change
 * inserts its event with `seq`, `prevHash` and `hash` null (no lock); the sequencer
 * (src/core/audit-sequencer.ts) sets the three together, in batches, in the order it sees commits.
 * `entry` is the order of recording.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    entry: bigserial('entry', { mode: 'number' }).primaryKey(),
    seq: bigint('seq', { mode: 'number' }).unique(),
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
    prevHash: text('prev_hash'),
    hash: text('hash'),
  },
  (table) => [
    index('audit_events_occurred_at_idx').on(table.occurredAt),
    index('audit_events_action_time_idx').on(table.action, table.occurredAt),
    index('audit_events_target_idx').on(table.targetType, table.targetId),
    index('audit_events_unsequenced_idx').on(table.entry).where(sql`${table.seq} is null`),
    check(
      'audit_events_sequenced_check',
      sql`(${table.seq} is null and ${table.prevHash} is null and ${table.hash} is null) or (${table.seq} is not null and ${table.prevHash} is not null and ${table.hash} is not null)`,
    ),
  ],
);
