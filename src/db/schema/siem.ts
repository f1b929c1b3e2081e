import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';

export const SIEM_KINDS = ['webhook', 'splunk_hec', 'syslog'] as const;
export type SiemKind = (typeof SIEM_KINDS)[number];

export const DELIVERY_STATUSES = [
  'queued',
  'delivering',
  'retrying',
  'delivered',
  'failed',
  'paused',
  'discarded',
] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Non-secret settings of a destination; which keys apply depends on the kind. */
export interface SiemSettings {
  url?: string;
  host?: string;
  port?: number;
  tls?: boolean;
  caPem?: string;
  index?: string;
  sourcetype?: string;
  source?: string;
  facility?: number;
  appName?: string;
}

/** Where audit events are exported. Deleted destinations stay (soft delete) so deliveries keep their parent. */
export const siemDestinations = pgTable(
  'siem_destinations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    kind: text('kind', { enum: SIEM_KINDS }).notNull(),
    enabled: boolean('enabled').notNull().default(true),
    settings: jsonb('settings').$type<SiemSettings>().notNull(),
    /** Webhook HMAC secret or HEC token, sealed with the master key. */
    secretSealed: text('secret_sealed'),
    batchSize: integer('batch_size').notNull(),
    flushIntervalMs: integer('flush_interval_ms').notNull(),
    maxAttempts: integer('max_attempts').notNull(),
    /** The last audit event seq already put into a delivery for this destination. */
    cursorSeq: bigint('cursor_seq', { mode: 'number' }).notNull(),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
    lastFailureAt: timestamp('last_failure_at', { withTimezone: true }),
    lastError: text('last_error'),
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    circuitOpenUntil: timestamp('circuit_open_until', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('siem_destinations_name_idx').on(table.name).where(sql`deleted_at is null`)],
);

/** One batch of consecutive audit events on its way to one destination. */
export const siemDeliveries = pgTable(
  'siem_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    destinationId: uuid('destination_id')
      .notNull()
      .references(() => siemDestinations.id),
    status: text('status', { enum: DELIVERY_STATUSES }).notNull(),
    eventCount: integer('event_count').notNull(),
    firstEventSeq: bigint('first_event_seq', { mode: 'number' }).notNull(),
    lastEventSeq: bigint('last_event_seq', { mode: 'number' }).notNull(),
    firstEventId: uuid('first_event_id').notNull(),
    lastEventId: uuid('last_event_id').notNull(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull(),
    lastError: text('last_error'),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set by the worker that claimed the delivery; its result only counts while the token matches. */
    claimToken: uuid('claim_token'),
    leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (table) => [
    index('siem_deliveries_due_idx').on(table.nextAttemptAt).where(sql`status in ('queued', 'retrying')`),
    index('siem_deliveries_leased_idx').on(table.leaseExpiresAt).where(sql`status = 'delivering'`),
    index('siem_deliveries_destination_idx').on(table.destinationId, table.createdAt),
    index('siem_deliveries_status_idx').on(table.status, table.createdAt),
  ],
);
