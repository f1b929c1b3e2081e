import { and, desc, eq, inArray } from 'drizzle-orm';
import type { PagesConfig } from '../../config.js';
import type { AuditActor } from '../../core/actor.js';
import type { AuditRecorder } from '../../core/audit-recorder.js';
import type { Deps } from '../../core/deps.js';
import type { Db } from '../../db/client.js';
import { pagesDeploymentFiles, pagesDeployments, pagesProjects } from '../../db/schema/index.js';
import type { BlobCollector } from './blob-gc.js';
import type { BlobStore } from './blob-store.js';
import { lockProject } from './project-rows.js';

/** Staging directories older than this belong to uploads that died (crash, kill -9). */
const STALE_STAGING_MS = 60 * 60 * 1000;

/** Keeps the newest deployments of each project and removes what nothing needs any more. */
export class RetentionService {
  private readonly db: Db;
  private readonly audit: AuditRecorder;
  private readonly config: PagesConfig;
  private readonly blobs: BlobStore;
  private readonly gc: BlobCollector;

  constructor(deps: Pick<Deps, 'db' | 'audit' | 'config'> & { blobs: BlobStore; gc: BlobCollector }) {
    this.db = deps.db;
    this.audit = deps.audit;
    this.config = deps.config.pages;
    this.blobs = deps.blobs;
    this.gc = deps.gc;
  }

  /**
   * Keeps the newest `retainDeployments` unpinned deployments of a project and deletes older
   * unpinned ones; pinned deployments and the production deployment are never removed.
   * Answers the ids removed.
   */
  async apply(actor: AuditActor, projectId: string): Promise<string[]> {
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
    await this.gc.collect(removed.blobs);
    return removed.ids;
  }

  /** Retention for every project, orphaned blobs and stale upload directories (the maintenance job). */
  async maintain(actor: AuditActor): Promise<{ expired: number; blobsRemoved: number }> {
    const projects = await this.db.select({ id: pagesProjects.id }).from(pagesProjects);
    let expired = 0;
    for (const project of projects) expired += (await this.apply(actor, project.id)).length;
    const blobsRemoved = await this.gc.collect();
    await this.blobs.sweepStaging(STALE_STAGING_MS);
    return { expired, blobsRemoved };
  }
}
