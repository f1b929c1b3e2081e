import { type AnyPgColumn, index, integer, jsonb, pgTable, text, unique, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';
import type { LogLevel } from './log-levels.js';

/** The value types a field of a logging schema can declare. */
export const LOG_FIELD_TYPES = ['string', 'number', 'boolean', 'timestamp', 'object'] as const;
export type LogFieldType = (typeof LOG_FIELD_TYPES)[number];

/** What ingest does with a record that does not follow the environment's schema. */
export const SCHEMA_VIOLATION_POLICIES = ['reject', 'keep'] as const;
export type SchemaViolationPolicy = (typeof SCHEMA_VIOLATION_POLICIES)[number];

/**
 * A search as saved searches and alert rules keep it: the filters of a record search without its
 * time range (see modules/logging/saved-query.ts).
 */
export interface SavedQuery {
  q?: string;
  levels?: LogLevel[];
  services?: string[];
  excludedServices?: string[];
  fields?: Record<string, string>;
  excludedFields?: Record<string, string>;
  match?: string;
  mode?: 'substring' | 'regex';
}

/** One field of a logging schema, as stored. */
export interface LogFieldDefinition {
  name: string;
  type: LogFieldType;
  required: boolean;
}

/**
 * Schema folders and environment folders are two independent trees of the same shape: a folder has
 * at most one parent (null = root), a position among its siblings and a name unique among them.
 */
function folderTable<Name extends string>(name: Name) {
  const table = pgTable(
    name,
    {
      id: uuid('id').primaryKey().defaultRandom(),
      name: text('name').notNull(),
      parentId: uuid('parent_id').references((): AnyPgColumn => table.id),
      sortOrder: integer('sort_order').notNull().default(0),
      createdAt: createdAt(),
      updatedAt: updatedAt(),
    },
    (columns) => [
      unique(`${name}_sibling_name_key`).on(columns.parentId, columns.name).nullsNotDistinct(),
      index(`${name}_parent_idx`).on(columns.parentId, columns.sortOrder),
    ],
  );
  return table;
}

export const loggingSchemaFolders = folderTable('logging_schema_folders');
export const loggingEnvironmentFolders = folderTable('logging_environment_folders');

/** The shape of the log records of an environment; names are unique within a folder. */
export const loggingSchemas = pgTable(
  'logging_schemas',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    folderId: uuid('folder_id').references(() => loggingSchemaFolders.id),
    description: text('description').notNull().default(''),
    fields: jsonb('fields').$type<LogFieldDefinition[]>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    unique('logging_schemas_folder_name_key').on(table.folderId, table.name).nullsNotDistinct(),
    index('logging_schemas_folder_idx').on(table.folderId),
  ],
);

/** A logging environment (e.g. production logs of one system); names are unique within a folder. */
export const loggingEnvironments = pgTable(
  'logging_environments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    folderId: uuid('folder_id').references(() => loggingEnvironmentFolders.id),
    description: text('description').notNull().default(''),
    schemaId: uuid('schema_id').references(() => loggingSchemas.id),
    retentionDays: integer('retention_days').notNull(),
    onSchemaViolation: text('on_schema_violation', { enum: SCHEMA_VIOLATION_POLICIES })
      .notNull()
      .default('reject'),
    // Ingest limits: one request's size, and each ingest token's rate (token buckets).
    ingestMaxBodyBytes: integer('ingest_max_body_bytes').notNull().default(5_242_880),
    ingestMaxRecords: integer('ingest_max_records').notNull().default(10_000),
    ingestRecordsPerSecond: integer('ingest_records_per_second').notNull().default(10_000),
    ingestBytesPerSecond: integer('ingest_bytes_per_second').notNull().default(10_485_760),
    ingestBurstSeconds: integer('ingest_burst_seconds').notNull().default(10),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    unique('logging_environments_folder_name_key').on(table.folderId, table.name).nullsNotDistinct(),
    index('logging_environments_folder_idx').on(table.folderId),
    index('logging_environments_schema_idx').on(table.schemaId),
  ],
);

/** Either folder table, for code that serves both trees. */
export type LoggingFolderTable = ReturnType<typeof folderTable<string>>;

/**
 * A search of one environment kept under a name (unique in the environment), for people to open
 * again and for alert rules (`logging.query.threshold`) to count; it goes with its environment.
 */
export const loggingSavedSearches = pgTable(
  'logging_saved_searches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    environmentId: uuid('environment_id')
      .notNull()
      .references(() => loggingEnvironments.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    query: jsonb('query').$type<SavedQuery>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [unique('logging_saved_searches_name_key').on(table.environmentId, table.name)],
);
