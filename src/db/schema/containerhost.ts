import {
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';

export const RESOURCE_TYPES = ['container', 'image', 'network', 'volume', 'compose'] as const;
export const HEALTH_SCHEMES = ['http', 'https'] as const;
export const BODY_MATCH_MODES = ['includes', 'exact', 'starts_with', 'ends_with'] as const;
export const HEALTH_STATUSES = ['online', 'degraded', 'offline', 'disabled'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

/** An engine node: a Docker Engine API endpoint; TLS material and SSH keys are sealed with the master key. */
export const containerhostNodes = pgTable('containerhost_nodes', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  endpoint: text('endpoint').notNull(),
  tlsCaSealed: text('tls_ca_sealed'),
  tlsCertSealed: text('tls_cert_sealed'),
  tlsKeySealed: text('tls_key_sealed'),
  sshKeySealed: text('ssh_key_sealed'),
  helperImage: text('helper_image'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** A saved HTTP(S) health check of one container (by name, so it survives re-creation). */
export const containerhostHealthChecks = pgTable(
  'containerhost_health_checks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    nodeId: uuid('node_id')
      .notNull()
      .references(() => containerhostNodes.id, { onDelete: 'cascade' }),
    containerName: text('container_name').notNull(),
    enabled: boolean('enabled').notNull(),
    scheme: text('scheme', { enum: HEALTH_SCHEMES }).notNull(),
    hostPort: integer('host_port'),
    containerPort: integer('container_port'),
    path: text('path').notNull(),
    statusMin: integer('status_min').notNull(),
    statusMax: integer('status_max').notNull(),
    expectedBody: text('expected_body'),
    bodyMatchMode: text('body_match_mode', { enum: BODY_MATCH_MODES }).notNull(),
    intervalSeconds: integer('interval_seconds').notNull(),
    timeoutSeconds: integer('timeout_seconds').notNull(),
    slowThreshold: integer('slow_threshold').notNull(),
    nextRunAt: timestamp('next_run_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    unique('containerhost_health_checks_node_container_key').on(table.nodeId, table.containerName),
    index('containerhost_health_checks_due_idx').on(table.enabled, table.nextRunAt),
  ],
);

/** The last results of each saved health check (trimmed to INFRAGATE_HEALTHCHECK_HISTORY). */
export const containerhostHealthResults = pgTable(
  'containerhost_health_results',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    checkId: uuid('check_id')
      .notNull()
      .references(() => containerhostHealthChecks.id, { onDelete: 'cascade' }),
    ok: boolean('ok').notNull(),
    status: text('status', { enum: HEALTH_STATUSES }).notNull(),
    httpStatus: integer('http_status'),
    responseMs: integer('response_ms'),
    slow: boolean('slow').notNull(),
    bodyMatched: boolean('body_matched'),
    url: text('url'),
    error: text('error'),
    checkedAt: timestamp('checked_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [index('containerhost_health_results_check_idx').on(table.checkId, table.checkedAt)],
);

/** Operator-made folders grouping resources of one type across nodes. */
export const containerhostFolders = pgTable(
  'containerhost_folders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    resourceType: text('resource_type', { enum: RESOURCE_TYPES }).notNull(),
    sortOrder: integer('sort_order').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [unique('containerhost_folders_type_name_key').on(table.resourceType, table.name)],
);

/** Where a node's resource sits: its sort order and (optionally) its folder. */
export const containerhostResourcePlacements = pgTable(
  'containerhost_resource_placements',
  {
    nodeId: uuid('node_id')
      .notNull()
      .references(() => containerhostNodes.id, { onDelete: 'cascade' }),
    resourceType: text('resource_type', { enum: RESOURCE_TYPES }).notNull(),
    resourceKey: text('resource_key').notNull(),
    sortOrder: integer('sort_order').notNull(),
    folderId: uuid('folder_id').references(() => containerhostFolders.id, { onDelete: 'set null' }),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.nodeId, table.resourceType, table.resourceKey] }),
    index('containerhost_resource_placements_folder_idx').on(table.folderId),
  ],
);

/** Registry credentials stored for one node, by registry host; the password is sealed, never answered. */
export const containerhostRegistryCredentials = pgTable(
  'containerhost_registry_credentials',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    nodeId: uuid('node_id')
      .notNull()
      .references(() => containerhostNodes.id, { onDelete: 'cascade' }),
    registry: text('registry').notNull(),
    username: text('username').notNull(),
    passwordSealed: text('password_sealed').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    unique('containerhost_registry_credentials_node_registry_key').on(table.nodeId, table.registry),
  ],
);
