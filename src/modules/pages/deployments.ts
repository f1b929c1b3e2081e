import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { and, asc, count, desc, eq, type SQL } from 'drizzle-orm';
import mime from 'mime-types';
import type { PagesConfig } from '../../config.js';
import type { AuditActor } from '../../core/actor.js';
import type { AuditRecorder } from '../../core/audit-recorder.js';
import type { Deps } from '../../core/deps.js';
import { conflict, invalidField, notFound, validationError } from '../../core/errors.js';
import { fetchPage, type PageRequest } from '../../core/pagination.js';
import type { Db, DbOrTx } from '../../db/client.js';
import { lockForTransaction } from '../../db/locks.js';
import {
  type ArchiveFormat,
  pagesDeploymentFiles,
  pagesDeployments,
  pagesProjects,
} from '../../db/schema/index.js';
import { detectFormat, extractArchive, type SiteFile } from './archive.js';
import type { BlobCollector } from './blob-gc.js';
import type { BlobStaging, BlobStore } from './blob-store.js';
import { deploymentColumns, fileColumns } from './columns.js';
import { lockProject, requireProject, setProduction } from './project-rows.js';
import type { RetentionService } from './retention.js';
import type { Deployment, DeploymentListQuery, DeploymentUploadQuery } from './schemas.js';
import type { SiteInvalidation } from './site-lookup.js';
import { validateSiteRules } from './site-rules/site-rules.js';
import type { SiteUrls } from './site-urls.js';

/** File rows per insert statement. */
const INSERT_BATCH = 1000;

export interface DeploymentUpload extends DeploymentUploadQuery {
  /** The archive's bytes. */
  body: Readable;
  /** The declared length of the archive, when the client sent one. */
  contentLength?: number | undefined;
  /** The deploy token that sends it (CI), which may then read this deployment. */
  deployTokenId?: string | null;
}

interface ReceivedArchive {
  files: SiteFile[];
  format: ArchiveFormat;
  archiveBytes: number;
  archiveSha256: string;
  promote: boolean;
  deployTokenId: string | null;
}

/** Deployments of a project: archive uploads, the production pointer, pins and deletion. */
export class DeploymentService {
  private readonly db: Db;
  private readonly audit: AuditRecorder;
  private readonly config: PagesConfig;
  private readonly blobs: BlobStore;
  private readonly gc: BlobCollector;
  private readonly retention: RetentionService;
  private readonly sites: SiteInvalidation;
  private readonly urls: SiteUrls;

  constructor(
    deps: Pick<Deps, 'db' | 'audit' | 'config'> & {
      blobs: BlobStore;
      gc: BlobCollector;
      retention: RetentionService;
      sites: SiteInvalidation;
      urls: SiteUrls;
    },
  ) {
    this.db = deps.db;
    this.audit = deps.audit;
    this.config = deps.config.pages;
    this.blobs = deps.blobs;
    this.gc = deps.gc;
    this.retention = deps.retention;
    this.sites = deps.sites;
    this.urls = deps.urls;
  }

  async list(projectId: string, filter: DeploymentListQuery) {
    await requireProject(this.db, projectId);
    const conditions: SQL[] = [eq(pagesDeployments.projectId, projectId)];
    if (filter.pinned !== undefined) conditions.push(eq(pagesDeployments.pinned, filter.pinned));
    const where = and(...conditions);
    return fetchPage(
      filter,
      async ({ limit, offset }) => {
        const rows = await this.db
          .select(deploymentColumns)
          .from(pagesDeployments)
          .innerJoin(pagesProjects, eq(pagesProjects.id, pagesDeployments.projectId))
          .where(where)
          .orderBy(desc(pagesDeployments.createdAt), desc(pagesDeployments.id))
          .limit(limit)
          .offset(offset);
        return rows.map((row) => this.urls.deployment(row));
      },
      this.db.select({ value: count() }).from(pagesDeployments).where(where),
    );
  }

  /** A deployment of this project; 404 when the project is unknown or the deployment is another's. */
  async get(projectId: string, deploymentId: string, db: DbOrTx = this.db): Promise<Deployment> {
    const [row] = await db
      .select(deploymentColumns)
      .from(pagesDeployments)
      .innerJoin(pagesProjects, eq(pagesProjects.id, pagesDeployments.projectId))
      .where(and(eq(pagesDeployments.id, deploymentId), eq(pagesDeployments.projectId, projectId)));
    if (!row) {
      await requireProject(db, projectId);
      throw notFound({ projectId, deploymentId });
    }
    return this.urls.deployment(row);
  }

  async listFiles(projectId: string, deploymentId: string, request: PageRequest) {
    await this.get(projectId, deploymentId);
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
  async create(actor: AuditActor, projectId: string, upload: DeploymentUpload): Promise<Deployment> {
    await requireProject(this.db, projectId);
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
      await validateSiteRules(new Map(files.map((file) => [file.path, file])), (sha256) =>
        fs.promises.readFile(staging.fileFor(sha256)),
      );
      const deployment = await this.commit(actor, projectId, staging, {
        files,
        format,
        archiveBytes: archive.sizeBytes,
        archiveSha256: archive.sha256,
        promote: upload.promote ?? true,
        deployTokenId: upload.deployTokenId ?? null,
      });
      // Retention may remove this very deployment at once when concurrent uploads outnumber the
      // retained count; the answer describes it as committed.
      await this.retention.apply(actor, projectId);
      return deployment;
    } finally {
      await staging.dispose();
    }
  }

  /** Makes a deployment production; promoting an older one is the rollback. */
  async promote(actor: AuditActor, projectId: string, deploymentId: string): Promise<Deployment> {
    const { deployment, slug } = await this.db.transaction(async (tx) => {
      const project = await lockProject(tx, projectId);
      if (!project) throw notFound({ projectId });
      await this.get(projectId, deploymentId, tx);
      if (project.production !== deploymentId) {
        await setProduction(tx, projectId, deploymentId);
        await this.audit.record(tx, actor, {
          action: 'pages.deployment.promoted',
          targetType: 'pages_deployment',
          targetId: deploymentId,
          metadata: { projectId, previousProductionDeploymentId: project.production },
        });
      }
      return { deployment: await this.get(projectId, deploymentId, tx), slug: project.slug };
    });
    this.sites.forgetSite(projectId, slug);
    return deployment;
  }

  async setPinned(
    actor: AuditActor,
    projectId: string,
    deploymentId: string,
    pinned: boolean,
  ): Promise<Deployment> {
    return this.db.transaction(async (tx) => {
      const before = await this.get(projectId, deploymentId, tx);
      if (before.pinned === pinned) return before;
      await tx.update(pagesDeployments).set({ pinned }).where(eq(pagesDeployments.id, deploymentId));
      await this.audit.record(tx, actor, {
        action: pinned ? 'pages.deployment.pinned' : 'pages.deployment.unpinned',
        targetType: 'pages_deployment',
        targetId: deploymentId,
        metadata: { projectId },
      });
      return this.get(projectId, deploymentId, tx);
    });
  }

  /** Deletes a deployment; the production deployment and pinned ones are refused with 409. */
  async remove(actor: AuditActor, projectId: string, deploymentId: string): Promise<void> {
    const blobs = await this.db.transaction(async (tx) => {
      await lockProject(tx, projectId);
      const deployment = await this.get(projectId, deploymentId, tx);
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
    this.sites.forgetDeployment(deploymentId);
    await this.gc.collect(blobs);
  }

  /** Records the deployment and its files and publishes the staged blobs, in one transaction. */
  private async commit(
    actor: AuditActor,
    projectId: string,
    staging: BlobStaging,
    input: ReceivedArchive,
  ): Promise<Deployment> {
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
          deployTokenId: input.deployTokenId,
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
          ...(input.deployTokenId ? { deployTokenId: input.deployTokenId } : {}),
          ...(input.promote ? { previousProductionDeploymentId: project.production } : {}),
        },
      });
      // Last step before commit, under the blob lock: a concurrent sweep cannot remove these blobs
      // between their rename and the commit of the rows that reference them.
      await this.blobs.publish(
        staging,
        input.files.map((file) => file.sha256),
      );
      return { slug: project.slug, deployment: await this.get(projectId, deploymentId, tx) };
    });
    this.sites.forgetSite(projectId, committed.slug);
    return committed.deployment;
  }
}

function contentTypeFor(filePath: string): string {
  return mime.contentType(path.posix.extname(filePath)) || 'application/octet-stream';
}

function archiveTooLarge(limit: number) {
  return validationError(
    [{ path: [], message: `the archive is larger than the limit of ${limit} bytes` }],
    413,
  );
}
