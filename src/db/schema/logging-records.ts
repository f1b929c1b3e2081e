import { sql } from 'drizzle-orm';
import { bigserial, index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { LOG_LEVELS } from './log-levels.js';
import { loggingEnvironments } from './logging.js';

/** One way a stored record departs from its environment's schema (kept with `onSchemaViolation: keep`). */
export interface LogViolation {
  path: (string | number)[];
  message: string;
}

/**
 * The log records of every environment. The migration creates it partitioned: by environment
 * (LIST), then by day of `occurred_at` (RANGE); partitions are made at run time
 * (`modules/logging/partitions.ts`). The primary key is the order of a search (newest first, `id`
 * breaking ties), BRIN serves range scans (histogram, facets), GIN the full text of the message and
 * containment (`@>`) on the fields. No foreign key: a per-row check would cost every insert, and
 * deleting an environment drops its partitions instead.
 */
export const logRecords = pgTable(
  'log_records',
  {
    environmentId: uuid('environment_id').notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true, precision: 3 }).notNull(),
    id: bigserial('id', { mode: 'number' }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    level: text('level', { enum: LOG_LEVELS }).notNull(),
    service: text('service'),
    message: text('message').notNull(),
    traceId: text('trace_id'),
    spanId: text('span_id'),
    fields: jsonb('fields').$type<Record<string, unknown>>().notNull(),
    violations: jsonb('violations').$type<LogViolation[]>(),
  },
  (table) => [
    primaryKey({ columns: [table.environmentId, table.occurredAt, table.id] }),
    index('log_records_occurred_at_brin').using('brin', table.occurredAt),
    index('log_records_message_fts').using('gin', sql`to_tsvector('simple', ${table.message})`),
    index('log_records_fields_gin').using('gin', table.fields.op('jsonb_path_ops')),
  ],
);

/** Write-only tokens that ingest into one environment; only the SHA-256 of the secret is stored. */
export const loggingIngestTokens = pgTable(
  'logging_ingest_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    environmentId: uuid('environment_id')
      .notNull()
      .references(() => loggingEnvironments.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [index('logging_ingest_tokens_environment_idx').on(table.environmentId)],
);
