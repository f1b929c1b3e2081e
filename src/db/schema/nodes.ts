import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';

/** A storage target: a directory on the gateway's host that uploads write into. */
export const nodes = pgTable('nodes', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  rootPath: text('root_path').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const UPLOAD_STATUSES = ['open', 'complete', 'failed', 'aborted', 'expired'] as const;
export type UploadStatus = (typeof UPLOAD_STATUSES)[number];

/** Why a session ended without its file: a checksum that did not match, lost temp data, idleness. */
export const UPLOAD_FAILURE_REASONS = ['CHECKSUM_MISMATCH', 'TEMP_DATA_LOST', 'EXPIRED'] as const;
export type UploadFailureReason = (typeof UPLOAD_FAILURE_REASONS)[number];

/**
 * A resumable upload into a node. `receivedBytes` only moves after the bytes were fsynced to the
 * temp file; the lease columns make one writer (a chunk or a completion) own the session at a time.
 */
export const nodeUploads = pgTable(
  'node_uploads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    nodeId: uuid('node_id')
      .notNull()
      .references(() => nodes.id, { onDelete: 'cascade' }),
    path: text('path').notNull(),
    totalBytes: bigint('total_bytes', { mode: 'number' }).notNull(),
    receivedBytes: bigint('received_bytes', { mode: 'number' }).notNull().default(0),
    chunkSize: integer('chunk_size').notNull(),
    sha256: text('sha256'),
    overwrite: boolean('overwrite').notNull().default(false),
    status: text('status', { enum: UPLOAD_STATUSES }).notNull().default('open'),
    failureReason: text('failure_reason', { enum: UPLOAD_FAILURE_REASONS }),
    leaseToken: uuid('lease_token'),
    leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true }),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (table) => [
    index('node_uploads_node_status_idx').on(table.nodeId, table.status),
    index('node_uploads_status_expires_idx').on(table.status, table.expiresAt),
    uniqueIndex('node_uploads_open_path_idx').on(table.nodeId, table.path).where(sql`status = 'open'`),
  ],
);
