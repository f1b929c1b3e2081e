import {
  type AnyPgColumn,
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';
import { users } from './identity.js';

export const DEPLOYMENT_STATUSES = ['ready'] as const;
export type DeploymentStatus = (typeof DEPLOYMENT_STATUSES)[number];

/** The archive formats a deployment may be uploaded as (detected from the bytes). */
export const ARCHIVE_FORMATS = ['tar.gz', 'tar', 'zip'] as const;
export type ArchiveFormat = (typeof ARCHIVE_FORMATS)[number];

/** A static site: a unique slug and a pointer to the deployment served at `/sites/<slug>/`. */
export const pagesProjects = pgTable('pages_projects', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  slug: text('slug').notNull().unique(),
  spaFallback: boolean('spa_fallback').notNull().default(false),
  productionDeploymentId: uuid('production_deployment_id').references(
    (): AnyPgColumn => pagesDeployments.id,
    { onDelete: 'set null' },
  ),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** One uploaded version of a site; immutable once created except for its pinned flag. */
export const pagesDeployments = pgTable(
  'pages_deployments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => pagesProjects.id, { onDelete: 'cascade' }),
    status: text('status', { enum: DEPLOYMENT_STATUSES }).notNull().default('ready'),
    fileCount: integer('file_count').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    archiveFormat: text('archive_format', { enum: ARCHIVE_FORMATS }).notNull(),
    archiveBytes: bigint('archive_bytes', { mode: 'number' }).notNull(),
    archiveSha256: text('archive_sha256').notNull(),
    pinned: boolean('pinned').notNull().default(false),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdByEmail: text('created_by_email'),
    createdAt: createdAt(),
  },
  (table) => [index('pages_deployments_project_created_idx').on(table.projectId, table.createdAt)],
);

/** The files of a deployment; contents live once per SHA-256 in `<dataDir>/pages/blobs/`. */
export const pagesDeploymentFiles = pgTable(
  'pages_deployment_files',
  {
    deploymentId: uuid('deployment_id')
      .notNull()
      .references(() => pagesDeployments.id, { onDelete: 'cascade' }),
    path: text('path').notNull(),
    sha256: text('sha256').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    contentType: text('content_type').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.deploymentId, table.path] }),
    index('pages_deployment_files_sha256_idx').on(table.sha256),
  ],
);
