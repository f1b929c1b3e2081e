import path from 'node:path';
import type { Readable } from 'node:stream';
import { and, asc, count, desc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import mime from 'mime-types';
import type { PagesConfig } from '../../config.js';
import type { AuditActor } from '../../core/actor.js';
import type { AuditRecorder } from '../../core/audit-recorder.js';
import { conflictOnDuplicate } from '../../core/db-errors.js';
import { conflict, invalidField, notFound, validationError } from '../../core/errors.js';
import { trimmedName } from '../../core/names.js';
import { fetchPage, type PageRequest } from '../../core/pagination.js';
import { containsText } from '../../core/text-filters.js';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import { lockForTransaction } from '../../db/locks.js';
import { pagesDeploymentFiles, pagesDeployments, pagesProjects } from '../../db/schema/index.js';
import { type ArchiveFormat, detectFormat, extractArchive } from './archive.js';
import type { BlobStaging, BlobStore } from './blob-store.js';

/** Orders every change to which blobs exist on disk against every check of which are referenced. */
const INSERT_BATCH = 1000;

export const SLUG_PATTERN = '^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$';

export interface DeploymentView {
  id: string;
  projectId: string;
  status: 'ready';
  fileCount: number;
  sizeBytes: number;
  pinned: boolean;
  production: boolean;
  archiveFormat: ArchiveFormat;
  archiveBytes: number;
  archiveSha256: string;
  createdBy: string | null;
  createdAt: Date;
}

export interface ProjectView {
  id: string;
  name: string;
  slug: string;
  spaFallback: boolean;
  productionDeploymentId: string | null;
  deploymentCount: number;
  lastDeployment: DeploymentView | null;
  url: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface ProjectFilter extends PageRequest {
  q?: string | undefined;
}

export interface DeploymentFilter extends PageRequest {
  pinned?: boolean | undefined;
}

export interface NewProject {
  name: string;
  slug: string;
  spaFallback?: boolean | undefined;
}

export interface ProjectChanges {
  name?: string | undefined;
  slug?: string | undefined;
  spaFallback?: boolean | undefined;
}

export interface DeploymentUpload {
  body: Readable;
  /** The declared Content-Length, when the client sent one. */
  contentLength?: number | undefined;
  /** Make the new deployment production at once (default true). */
  promote?: boolean | undefined;
  stripComponents?: number | undefined;
}

/** Told when what a slug serves may have changed, so cached lookups are dropped. */
export interface SiteInvalidation {
  forgetSlug(slug: string): void;
}

const deploymentColumns = {
  id: pagesDeployments.id,
  projectId: pagesDeployments.projectId,
  status: pagesDeployments.status,
  fileCount: pagesDeployments.fileCount,
  sizeBytes: pagesDeployments.sizeBytes,
  pinned: pagesDeployments.pinned,
  production: sql<boolean>`coalesce(${pagesProjects.productionDeploymentId} = ${pagesDeployments.id}, false)`,
  archiveFormat: pagesDeployments.archiveFormat,
  archiveBytes: pagesDeployments.archiveBytes,
  archiveSha256: pagesDeployments.archiveSha256,
  createdBy: pagesDeployments.createdByEmail,
  createdAt: pagesDeployments.createdAt,
};

/** The columns of a deployment's file as the API and the site server see them. */
export const fileColumns = {
  path: pagesDeploymentFiles.path,
  sha256: pagesDeploymentFiles.sha256,
  sizeBytes: pagesDeploymentFiles.sizeBytes,
  contentType: pagesDeploymentFiles.contentType,
};

function contentTypeFor(filePath: string): string {
  return mime.contentType(path.posix.extname(filePath)) || 'application/octet-stream';
}

/** Static site projects, their deployments (archive uploads), the production pointer and retention. */
export class PagesService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditRecorder,
    private readonly blobs: BlobStore,
    private readonly config: PagesConfig,
    private readonly sites: SiteInvalidation,
  ) {}

  // ── projects ────────────────────────────────────────────────────────────────────────────────

  async listProjects(filter: ProjectFilter) {
    const where = filter.q
      ? or(containsText(pagesProjects.name, filter.q), containsText(pagesProjects.slug, filter.q))
      : undefined;
    return fetchPage(
      filter,
      async ({ limit, offset }) => {
        const rows = await this.db
          .select({ id: pagesProjects.id })
          .from(pagesProjects)
          .where(where)
          .orderBy(asc(pagesProjects.slug))
          .limit(limit)
          .offset(offset);
        return this.projectViews(
          this.db,
          rows.map((row) => row.id),
        );
      },
      this.db.select({ value: count() }).from(pagesProjects).where(where),
    );
  }

  async getProject(id: string, db: DbOrTx = this.db): Promise<ProjectView> {
    const [view] = await this.projectViews(db, [id]);
    if (!view) throw notFound({ projectId: id });
    return view;
  }

  async getProjectBySlug(slug: string): Promise<ProjectView> {
    const [row] = await this.db
      .select({ id: pagesProjects.id })
      .from(pagesProjects)
      .where(eq(pagesProjects.slug, slug));
    if (!row) throw notFound({ slug });
    return this.getProject(row.id);
  }

  async createProject(actor: AuditActor, input: NewProject): Promise<ProjectView> {
    const name = trimmedName(input.name);
    return this.db.transaction(async (tx) => {
      const [{ id }] = (await conflictOnDuplicate(
        tx
          .insert(pagesProjects)
          .values({ name, slug: input.slug, spaFallback: input.spaFallback ?? false })
          .returning({ id: pagesProjects.id }),
        'SLUG_TAKEN',
        { slug: input.slug },
      )) as [{ id: string }];
      await this.audit.record(tx, actor, {
        action: 'pages.project.created',
        targetType: 'pages_project',
        targetId: id,
        metadata: { name, slug: input.slug, spaFallback: input.spaFallback ?? false },
      });
      return this.getProject(id, tx);
    });
  }

  async updateProject(actor: AuditActor, id: string, changes: ProjectChanges): Promise<ProjectView> {
    const values: Partial<typeof pagesProjects.$inferInsert> = {};
    if (changes.name !== undefined) values.name = trimmedName(changes.name);
    if (changes.slug !== undefined) values.slug = changes.slug;
    if (changes.spaFallback !== undefined) values.spaFallback = changes.spaFallback;
    if (Object.keys(values).length === 0)
      throw invalidField([], 'send at least one of name, slug, spaFallback');
    const { view, oldSlug } = await this.db.transaction(async (tx) => {
      const before = await lockProject(tx, id);
      if (!before) throw notFound({ projectId: id });
      await conflictOnDuplicate(
        tx
          .update(pagesProjects)
          .set({ ...values, updatedAt: new Date() })
          .where(eq(pagesProjects.id, id)),
        'SLUG_TAKEN',
        { slug: changes.slug },
      );
      await this.audit.record(tx, actor, {
        action: 'pages.project.updated',
        targetType: 'pages_project',
        targetId: id,
        metadata: { ...values, ...(values.slug ? { previousSlug: before.slug } : {}) },
      });
      return { view: await this.getProject(id, tx), oldSlug: before.slug };
    });
    this.sites.forgetSlug(oldSlug);
    this.sites.forgetSlug(view.slug);
    return view;
  }

  async deleteProject(actor: AuditActor, id: string): Promise<void> {
    const { slug, blobs } = await this.db.transaction(async (tx) => {
      const project = await lockProject(tx, id);
      if (!project) throw notFound({ projectId: id });
      const files = await tx
        .selectDistinct({ sha256: pagesDeploymentFiles.sha256 })
        .from(pagesDeploymentFiles)
        .innerJoin(pagesDeployments, eq(pagesDeployments.id, pagesDeploymentFiles.deploymentId))
        .where(eq(pagesDeployments.projectId, id));
      const [deployments] = await tx
        .select({ value: count() })
        .from(pagesDeployments)
        .where(eq(pagesDeployments.projectId, id));
      await tx.update(pagesProjects).set({ productionDeploymentId: null }).where(eq(pagesProjects.id, id));
      await tx.delete(pagesProjects).where(eq(pagesProjects.id, id));
      await this.audit.record(tx, actor, {
        action: 'pages.project.deleted',
        targetType: 'pages_project',
        targetId: id,
        metadata: { slug: project.slug, deployments: deployments?.value ?? 0 },
      });
      return { slug: project.slug, blobs: files.map((file) => file.sha256) };
    });
    this.sites.forgetSlug(slug);
    await this.collectGarbage(blobs);
  }

  private async projectViews(db: DbOrTx, ids: string[]): Promise<ProjectView[]> {
    if (ids.length === 0) return [];
    const projects = await db
      .select({
        id: pagesProjects.id,
        name: pagesProjects.name,
        slug: pagesProjects.slug,
        spaFallback: pagesProjects.spaFallback,
        productionDeploymentId: pagesProjects.productionDeploymentId,
        createdAt: pagesProjects.createdAt,
        updatedAt: pagesProjects.updatedAt,
        // Written out in full: inside a subquery Drizzle would leave the outer column unqualified.
        deploymentCount: sql<number>`(select count(*)::int from pages_deployments d where d.project_id = pages_projects.id)`,
      })
      .from(pagesProjects)
      .where(inArray(pagesProjects.id, ids));
    const latest = await db
      .selectDistinctOn([pagesDeployments.projectId], deploymentColumns)
      .from(pagesDeployments)
      .innerJoin(pagesProjects, eq(pagesProjects.id, pagesDeployments.projectId))
      .where(inArray(pagesDeployments.projectId, ids))
      .orderBy(pagesDeployments.projectId, desc(pagesDeployments.createdAt), desc(pagesDeployments.id));
    const latestByProject = new Map(latest.map((row) => [row.projectId, row]));
    const byId = new Map(
      projects.map((project) => [
        project.id,
        {
          ...project,
          deploymentCount: Number(project.deploymentCount),
          lastDeployment: latestByProject.get(project.id) ?? null,
          url: `/sites/${project.slug}/`,
        },
      ]),
    );
    return ids.flatMap((id) => {
      const view = byId.get(id);
      return view ? [view] : [];
    });
  }

  // ── deployments ─────────────────────────────────────────────────────────────────────────────

  async listDeployments(projectId: string, filter: DeploymentFilter) {
    await this.requireProject(projectId);
    const conditions: SQL[] = [eq(pagesDeployments.projectId, projectId)];
    if (filter.pinned !== undefined) conditions.push(eq(pagesDeployments.pinned, filter.pinned));
    const where = and(...conditions);
    return fetchPage(
      filter,
      ({ limit, offset }) =>
        this.db
          .select(deploymentColumns)
          .from(pagesDeployments)
          .innerJoin(pagesProjects, eq(pagesProjects.id, pagesDeployments.projectId))
          .where(where)
          .orderBy(desc(pagesDeployments.createdAt), desc(pagesDeployments.id))
          .limit(limit)
          .offset(offset),
      this.db.select({ value: count() }).from(pagesDeployments).where(where),
    );
  }

  /** A deployment of this project; 404 when the project is unknown or the deployment is another's. */
  async getDeployment(
    projectId: string,
    deploymentId: string,
    db: DbOrTx = this.db,
  ): Promise<DeploymentView> {
    const [row] = await db
      .select(deploymentColumns)
      .from(pagesDeployments)
      .innerJoin(pagesProjects, eq(pagesProjects.id, pagesDeployments.projectId))
      .where(and(eq(pagesDeployments.id, deploymentId), eq(pagesDeployments.projectId, projectId)));
    if (!row) {
      await this.requireProject(projectId, db);
      throw notFound({ projectId, deploymentId });
    }
    return row;
  }

  async listFiles(projectId: string, deploymentId: string, request: PageRequest) {
    await this.getDeployment(projectId, deploymentId);
    const where = eq(pagesDeploymentFiles.deploymentId, deploymentId);
    return fetchPage(
      request,
      ({ limit, offset }) =>
        this.db
          .select(fileColumns)
          .from(pagesDeploymentFiles)
          .where(where)
          .orderBy(asc(pagesDeploymentFiles.path))
          .limit(limit)
          .offset(offset),
      this.db.select({ value: count() }).from(pagesDeploymentFiles).where(where),
    );
  }

  /**
   * Receives an archive (streamed to disk within the size limit), reads its files into
   * content-addressed storage, and records the deployment with its file list in one transaction.
   */
  async createDeployment(
    actor: AuditActor,
    projectId: string,
    upload: DeploymentUpload,
  ): Promise<DeploymentView> {
    await this.requireProject(projectId);
    const limit = this.config.maxArchiveBytes;
    if (upload.contentLength !== undefined && upload.contentLength > limit) throw archiveTooLarge(limit);
    const staging = await this.blobs.openStaging();
    try {
      let received = 0;
      const archive = await staging.write(upload.body, (bytes) => {
        received += bytes;
        if (received > limit) throw archiveTooLarge(limit);
      });
      if (archive.sizeBytes === 0)
        throw invalidField([], 'body is empty: send a .tar.gz, .tar or .zip archive');
      const format = await detectFormat(archive.file);
      if (!format) throw invalidField([], 'body is not a .tar.gz, .tar or .zip archive');
      const files = await extractArchive(archive.file, format, staging, {
        maxFiles: this.config.maxFiles,
        maxSiteBytes: this.config.maxSiteBytes,
        stripComponents: upload.stripComponents ?? 0,
      });
      if (files.length === 0)
        throw validationError([{ path: [], message: 'the archive holds no files' }], 400);
      const deployment = await this.commitDeployment(actor, projectId, staging, {
        files,
        format,
        archiveBytes: archive.sizeBytes,
        archiveSha256: archive.sha256,
        promote: upload.promote ?? true,
      });
      // Retention may remove this very deployment at once when concurrent uploads outnumber the
      // retained count; the answer describes it as committed.
      await this.applyRetention(actor, projectId);
      return deployment;
    } finally {
      await staging.dispose();
    }
  }

  private async commitDeployment(
    actor: AuditActor,
    projectId: string,
    staging: BlobStaging,
    input: {
      files: { path: string; sha256: string; sizeBytes: number }[];
      format: ArchiveFormat;
      archiveBytes: number;
      archiveSha256: string;
      promote: boolean;
    },
  ): Promise<DeploymentView> {
    const sizeBytes = input.files.reduce((sum, file) => sum + file.sizeBytes, 0);
    const committed = await this.db.transaction(async (tx) => {
      await lockForTransaction(tx, 'pagesBlobs');
      const project = await lockProject(tx, projectId);
      if (!project) throw notFound({ projectId });
      const [deployment] = await tx
        .insert(pagesDeployments)
        .values({
          projectId,
          fileCount: input.files.length,
          sizeBytes,
          archiveFormat: input.format,
          archiveBytes: input.archiveBytes,
          archiveSha256: input.archiveSha256,
          createdBy: actor.userId,
          createdByEmail: actor.email,
        })
        .returning({ id: pagesDeployments.id });
      const deploymentId = deployment!.id;
      for (let start = 0; start < input.files.length; start += INSERT_BATCH) {
        await tx.insert(pagesDeploymentFiles).values(
          input.files.slice(start, start + INSERT_BATCH).map((file) => ({
            deploymentId,
            path: file.path,
            sha256: file.sha256,
            sizeBytes: file.sizeBytes,
            contentType: contentTypeFor(file.path),
          })),
        );
      }
      if (input.promote) {
        await setProduction(tx, projectId, deploymentId);
      }
      await this.audit.record(tx, actor, {
        action: 'pages.deployment.created',
        targetType: 'pages_deployment',
        targetId: deploymentId,
        metadata: {
          projectId,
          fileCount: input.files.length,
          sizeBytes,
          archiveFormat: input.format,
          archiveSha256: input.archiveSha256,
          promoted: input.promote,
          ...(input.promote ? { previousProductionDeploymentId: project.production } : {}),
        },
      });
      // Last step before commit, under the blob lock: a concurrent sweep cannot remove these blobs
      // between their rename and the commit of the rows that reference them.
      await this.blobs.publish(
        staging,
        input.files.map((file) => file.sha256),
      );
      return { slug: project.slug, view: await this.getDeployment(projectId, deploymentId, tx) };
    });
    this.sites.forgetSlug(committed.slug);
    return committed.view;
  }

  /** Makes a deployment production; promoting an older one is the rollback. */
  async promote(actor: AuditActor, projectId: string, deploymentId: string): Promise<DeploymentView> {
    const { view, slug } = await this.db.transaction(async (tx) => {
      const project = await lockProject(tx, projectId);
      if (!project) throw notFound({ projectId });
      await this.getDeployment(projectId, deploymentId, tx);
      if (project.production !== deploymentId) {
        await setProduction(tx, projectId, deploymentId);
        await this.audit.record(tx, actor, {
          action: 'pages.deployment.promoted',
          targetType: 'pages_deployment',
          targetId: deploymentId,
          metadata: { projectId, previousProductionDeploymentId: project.production },
        });
      }
      return { view: await this.getDeployment(projectId, deploymentId, tx), slug: project.slug };
    });
    this.sites.forgetSlug(slug);
    return view;
  }

  async setPinned(
    actor: AuditActor,
    projectId: string,
    deploymentId: string,
    pinned: boolean,
  ): Promise<DeploymentView> {
    return this.db.transaction(async (tx) => {
      const before = await this.getDeployment(projectId, deploymentId, tx);
      if (before.pinned === pinned) return before;
      await tx.update(pagesDeployments).set({ pinned }).where(eq(pagesDeployments.id, deploymentId));
      await this.audit.record(tx, actor, {
        action: pinned ? 'pages.deployment.pinned' : 'pages.deployment.unpinned',
        targetType: 'pages_deployment',
        targetId: deploymentId,
        metadata: { projectId },
      });
      return this.getDeployment(projectId, deploymentId, tx);
    });
  }

  /** Deletes a deployment; the production deployment and pinned ones are refused with 409. */
  async deleteDeployment(actor: AuditActor, projectId: string, deploymentId: string): Promise<void> {
    const blobs = await this.db.transaction(async (tx) => {
      await lockProject(tx, projectId);
      const deployment = await this.getDeployment(projectId, deploymentId, tx);
      if (deployment.production)
        throw conflict('DEPLOYMENT_IS_PRODUCTION', {
          explanation: 'promote another deployment first; the production deployment is never deleted',
          deploymentId,
        });
      if (deployment.pinned)
        throw conflict('DEPLOYMENT_PINNED', { explanation: 'unpin the deployment first', deploymentId });
      const files = await tx
        .select({ sha256: pagesDeploymentFiles.sha256 })
        .from(pagesDeploymentFiles)
        .where(eq(pagesDeploymentFiles.deploymentId, deploymentId));
      await tx.delete(pagesDeployments).where(eq(pagesDeployments.id, deploymentId));
      await this.audit.record(tx, actor, {
        action: 'pages.deployment.deleted',
        targetType: 'pages_deployment',
        targetId: deploymentId,
        metadata: { projectId, fileCount: deployment.fileCount, sizeBytes: deployment.sizeBytes },
      });
      return files.map((file) => file.sha256);
    });
    await this.collectGarbage(blobs);
  }

  // ── retention and storage ───────────────────────────────────────────────────────────────────

  /**
   * Keeps the newest `retainDeployments` unpinned deployments of a project and deletes older
   * unpinned ones; pinned deployments and the production deployment are never removed.
   * Answers the ids removed.
   */
  async applyRetention(actor: AuditActor, projectId: string): Promise<string[]> {
    const keep = this.config.retainDeployments;
    const removed = await this.db.transaction(async (tx) => {
      const project = await lockProject(tx, projectId);
      if (!project) return null;
      const expired = await tx
        .select({ id: pagesDeployments.id })
        .from(pagesDeployments)
        .where(and(eq(pagesDeployments.projectId, projectId), eq(pagesDeployments.pinned, false)))
        .orderBy(desc(pagesDeployments.createdAt), desc(pagesDeployments.id))
        .offset(keep);
      const ids = expired.map((row) => row.id).filter((id) => id !== project.production);
      if (ids.length === 0) return null;
      const files = await tx
        .selectDistinct({ sha256: pagesDeploymentFiles.sha256 })
        .from(pagesDeploymentFiles)
        .where(inArray(pagesDeploymentFiles.deploymentId, ids));
      const deleted = await tx
        .delete(pagesDeployments)
        .where(inArray(pagesDeployments.id, ids))
        .returning({ id: pagesDeployments.id });
      for (const { id } of deleted) {
        await this.audit.record(tx, actor, {
          action: 'pages.deployment.expired',
          targetType: 'pages_deployment',
          targetId: id,
          metadata: { projectId, reason: 'retention', retainDeployments: keep },
        });
      }
      return { ids: deleted.map((row) => row.id), blobs: files.map((file) => file.sha256) };
    });
    if (!removed) return [];
    await this.collectGarbage(removed.blobs);
    return removed.ids;
  }

  /** Retention for every project, orphaned blobs and stale upload directories (the maintenance job). */
  async maintain(actor: AuditActor): Promise<{ expired: number; blobsRemoved: number }> {
    const projects = await this.db.select({ id: pagesProjects.id }).from(pagesProjects);
    let expired = 0;
    for (const project of projects) expired += (await this.applyRetention(actor, project.id)).length;
    const blobsRemoved = await this.collectGarbage();
    await this.blobs.sweepStaging(60 * 60 * 1000);
    return { expired, blobsRemoved };
  }

  /**
   * Deletes blobs that no deployment references: the given candidates, or every blob on disk.
   * Runs under the blob lock, so a deployment being committed cannot lose a blob it just stored.
   */
  async collectGarbage(candidates?: string[]): Promise<number> {
    return this.db.transaction(async (tx) => {
      await lockForTransaction(tx, 'pagesBlobs');
      const shas = [...new Set(candidates ?? (await this.blobs.listBlobs()))];
      const unreferenced: string[] = [];
      for (let start = 0; start < shas.length; start += INSERT_BATCH) {
        const chunk = shas.slice(start, start + INSERT_BATCH);
        const referenced = await tx
          .selectDistinct({ sha256: pagesDeploymentFiles.sha256 })
          .from(pagesDeploymentFiles)
          .where(inArray(pagesDeploymentFiles.sha256, chunk));
        const live = new Set(referenced.map((row) => row.sha256));
        unreferenced.push(...chunk.filter((sha) => !live.has(sha)));
      }
      return this.blobs.remove(unreferenced);
    });
  }

  private async requireProject(projectId: string, db: DbOrTx = this.db): Promise<void> {
    const [row] = await db
      .select({ id: pagesProjects.id })
      .from(pagesProjects)
      .where(eq(pagesProjects.id, projectId));
    if (!row) throw notFound({ projectId });
  }
}

/** Locks a project row for the rest of the transaction (changes of one project take turns). */
async function lockProject(tx: Tx, projectId: string) {
  const [project] = await tx
    .select({ slug: pagesProjects.slug, production: pagesProjects.productionDeploymentId })
    .from(pagesProjects)
    .where(eq(pagesProjects.id, projectId))
    .for('update');
  return project;
}

async function setProduction(tx: Tx, projectId: string, deploymentId: string): Promise<void> {
  await tx
    .update(pagesProjects)
    .set({ productionDeploymentId: deploymentId, updatedAt: new Date() })
    .where(eq(pagesProjects.id, projectId));
}

function archiveTooLarge(limit: number) {
  return validationError(
    [{ path: [], message: `the archive is larger than the limit of ${limit} bytes` }],
    413,
  );
}
