import {
  type AnyPgColumn,
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { sslCertificates } from './certificates.js';
import { createdAt, updatedAt } from './columns.js';
import { users } from './identity.js';

export const DEPLOYMENT_STATUSES = ['ready'] as const;
export type DeploymentStatus = (typeof DEPLOYMENT_STATUSES)[number];

/** The archive formats a deployment may be uploaded as (detected from the bytes). */
export const ARCHIVE_FORMATS = ['tar.gz', 'tar', 'zip'] as const;
export type ArchiveFormat = (typeof ARCHIVE_FORMATS)[number];

/** A custom domain's ownership check: not yet tried, proven, or tried and failed (`last_error` says why). */
export const DOMAIN_STATUSES = ['pending', 'verified', 'failed'] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];

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
    /** The deploy token that uploaded it (CI), if one did; that token may read this deployment. */
    deployTokenId: uuid('deploy_token_id').references((): AnyPgColumn => pagesDeployTokens.id, {
      onDelete: 'set null',
    }),
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

/**
 * A host name that serves a project's production deployment once its ownership is verified (a DNS
 * TXT record or an HTTP token, both carrying `verification_token`). `certificate_id` names the
 * stored certificate that serves it over HTTPS.
 */
export const pagesDomains = pgTable(
  'pages_domains',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => pagesProjects.id, { onDelete: 'cascade' }),
    hostname: text('hostname').notNull().unique(),
    status: text('status', { enum: DOMAIN_STATUSES }).notNull().default('pending'),
    verificationToken: text('verification_token').notNull().unique(),
    lastError: text('last_error'),
    lastCheckedAt: timestamp('last_checked_at', { withTimezone: true }),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    certificateId: uuid('certificate_id').references(() => sslCertificates.id, { onDelete: 'set null' }),
    /** The certificate was ordered for this domain (not chosen): it goes when the domain stops using it. */
    certificateOrdered: boolean('certificate_ordered').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index('pages_domains_project_idx').on(table.projectId)],
);

/**
 * Tokens (`igp_…`, only the SHA-256 kept) that may upload deployments of one project and read the
 * deployments they uploaded; they act for the user who created them, while that user may.
 */
export const pagesDeployTokens = pgTable(
  'pages_deploy_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => pagesProjects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [index('pages_deploy_tokens_project_idx').on(table.projectId)],
);
