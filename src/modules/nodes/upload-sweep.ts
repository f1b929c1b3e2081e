import { and, eq, inArray, lt } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { systemActor } from '../../core/actor.js';
import type { AuditRecorder } from '../../core/audit-recorder.js';
import type { Deps } from '../../core/deps.js';
import type { Db } from '../../db/client.js';
import { nodes, nodeUploads } from '../../db/schema/index.js';
import { listTempUploads, removeTempFile } from './node-fs.js';
import type { NodeRoots } from './node-roots.js';
import type { UploadDigests } from './upload-digests.js';
import { leaseFree } from './upload-lease.js';

export const UPLOAD_SWEEP_JOB = 'nodes.uploads.sweep';

/**
 * The background sweep: expires open sessions idle past `expiresAt` (and not being written),
 * removes their temp files, and removes temp files no open session owns (left by a crash).
 */
export class UploadSweep {
  private readonly db: Db;
  private readonly audit: AuditRecorder;
  private readonly log: FastifyBaseLogger;
  private readonly digests: UploadDigests;
  private readonly roots: NodeRoots;

  constructor(deps: Pick<Deps, 'db' | 'audit' | 'log'> & { digests: UploadDigests; roots: NodeRoots }) {
    this.db = deps.db;
    this.audit = deps.audit;
    this.log = deps.log;
    this.digests = deps.digests;
    this.roots = deps.roots;
  }

  async run(): Promise<{ expired: number; orphansRemoved: number }> {
    const expired = await this.expireIdleSessions();
    const orphansRemoved = await this.removeOrphanedTempFiles();
    if (expired > 0 || orphansRemoved > 0) this.log.info({ expired, orphansRemoved }, 'upload sweep');
    return { expired, orphansRemoved };
  }

  private async expireIdleSessions(): Promise<number> {
    const now = new Date();
    const idle = and(eq(nodeUploads.status, 'open'), lt(nodeUploads.expiresAt, now), leaseFree(now));
    const stale = await this.db
      .select({ id: nodeUploads.id, rootPath: nodes.rootPath })
      .from(nodeUploads)
      .innerJoin(nodes, eq(nodes.id, nodeUploads.nodeId))
      .where(idle);
    let expired = 0;
    for (const candidate of stale) {
      const ended = await this.db.transaction(async (tx) => {
        // Checked again in the update: a writer may have claimed the session since the select.
        const [row] = await tx
          .update(nodeUploads)
          .set({
            status: 'expired',
            failureReason: 'EXPIRED',
            updatedAt: now,
            leaseToken: null,
            leaseExpiresAt: null,
          })
          .where(and(eq(nodeUploads.id, candidate.id), idle))
          .returning();
        if (!row) return undefined;
        await this.audit.record(tx, systemActor(), {
          action: 'nodes.upload.expired',
          targetType: 'node_upload',
          targetId: row.id,
          metadata: {
            nodeId: row.nodeId,
            path: row.path,
            receivedBytes: row.receivedBytes,
            totalBytes: row.totalBytes,
          },
        });
        return row;
      });
      if (!ended) continue;
      this.digests.forget(candidate.id);
      expired += 1;
      const root = await this.roots.real(candidate.rootPath).catch(() => undefined);
      if (root) await removeTempFile(root, candidate.id);
    }
    return expired;
  }

  private async removeOrphanedTempFiles(): Promise<number> {
    let removed = 0;
    for (const node of await this.db.select({ id: nodes.id, rootPath: nodes.rootPath }).from(nodes)) {
      const root = await this.roots.real(node.rootPath).catch(() => undefined);
      if (!root) continue;
      const ids = await listTempUploads(root);
      if (ids.length === 0) continue;
      const open = await this.db
        .select({ id: nodeUploads.id })
        .from(nodeUploads)
        .where(and(inArray(nodeUploads.id, ids), eq(nodeUploads.status, 'open')));
      const keep = new Set(open.map((row) => row.id));
      for (const id of ids.filter((candidate) => !keep.has(candidate))) {
        await removeTempFile(root, id);
        removed += 1;
      }
    }
    return removed;
  }
}
