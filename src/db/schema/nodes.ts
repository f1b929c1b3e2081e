import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
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

export const NODE_KINDS = ['directory', 'agent'] as const;
export type NodeKind = (typeof NODE_KINDS)[number];

/**
 * A storage target: a directory on the gateway's host (`directory`, its root stored here), or the
 * host of an agent that dials out to the gateway (`agent`, its root the agent's own --root).
 */
export const nodes = pgTable(
  'nodes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull().unique(),
    kind: text('kind', { enum: NODE_KINDS }).notNull().default('directory'),
    rootPath: text('root_path'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    check(
      'nodes_root_path_by_kind_check',
      sql`(${table.kind} = 'directory') = (${table.rootPath} is not null)`,
    ),
  ],
);

/** `pending` until the agent exchanged its enrolment token; `revoked` for good (its credential is gone). */
export const AGENT_STATUSES = ['pending', 'online', 'offline', 'revoked'] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

/** What an agent says it can do on its host. */
export interface AgentCapabilities {
  files: boolean;
  docker: boolean;
  metrics: boolean;
}

/** What an agent reports about its host when its tunnel opens. */
export interface AgentHostFacts {
  hostname: string;
  os: string;
  arch: string;
  cpus: number;
  memoryBytes: number;
}

/**
 * The agent of an agent node. Its enrolment token and credential are kept as SHA-256 hashes only;
 * `connectionId` names the tunnel that is current, so the end of an older one changes nothing.
 */
export const nodeAgents = pgTable(
  'node_agents',
  {
    nodeId: uuid('node_id')
      .primaryKey()
      .references(() => nodes.id, { onDelete: 'cascade' }),
    status: text('status', { enum: AGENT_STATUSES }).notNull().default('pending'),
    enrollmentTokenHash: text('enrollment_token_hash').unique(),
    enrollmentExpiresAt: timestamp('enrollment_expires_at', { withTimezone: true }),
    credentialHash: text('credential_hash').unique(),
    enrolledAt: timestamp('enrolled_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    connectionId: uuid('connection_id'),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    agentVersion: text('agent_version'),
    root: text('root'),
    facts: jsonb('facts').$type<AgentHostFacts>(),
    capabilities: jsonb('capabilities').$type<AgentCapabilities>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index('node_agents_online_seen_idx').on(table.lastSeenAt).where(sql`status = 'online'`)],
);

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
