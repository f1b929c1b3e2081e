import type { Readable } from 'node:stream';
import { and, count, eq, type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { AuditActor } from '../../core/actor.js';
import type { AuditRecorder } from '../../core/audit-recorder.js';
import { isUniqueViolation } from '../../core/db-errors.js';
import type { Deps } from '../../core/deps.js';
import { conflict, invalidField, unprocessable } from '../../core/errors.js';
import { fetchPage } from '../../core/pagination.js';
import type { Db } from '../../db/client.js';
import { nodeUploads, type UploadFailureReason } from '../../db/schema/index.js';
import {
  createTempFile,
  fileExists,
  freeBytes,
  hashTempFile,
  normaliseRelativePath,
  publishedFileMatches,
  publishTempFile,
  removeTempFile,
  resolveTarget,
  TempDataLostError,
  tempFileSize,
  writeChunk,
} from './node-fs.js';
import type { NodeRoots } from './node-roots.js';
import type { NewUpload, Upload, UploadListQuery } from './schemas.js';
import type { UploadDigests } from './upload-digests.js';
import { chunkTooLarge, incomplete, pastTotal } from './upload-errors.js';
import type { UploadLeases } from './upload-lease.js';
import {
  findNodeRow,
  findUploadRow,
  idleExpiry,
  toUpload,
  type UploadClaim,
  type UploadRow,
} from './upload-rows.js';

export interface ChunkInput {
  /** Where the chunk starts; null means "at receivedBytes". */
  offset: number | null;
  body: Readable | undefined;
  /** The declared length of the body, when the client sent one. */
  contentLength: number | undefined;
}

/** How a claimed session ends; a failure names its reason and what else the audit event says. */
type Ending =
  | { status: 'complete' | 'aborted' }
  | { status: 'failed'; reason: UploadFailureReason; detail?: Record<string, unknown> };

const ENDING_ACTIONS = {
  complete: 'nodes.upload.completed',
  aborted: 'nodes.upload.aborted',
  failed: 'nodes.upload.failed',
} as const;

/**
 * Resumable uploads into a node root. Bytes land in a temp file under the root; `receivedBytes`
 * advances only after they were fsynced; at `totalBytes` the checksum is verified and the file is
 * renamed into place. One writer at a time per session (`UploadLeases`), everyone else gets 409.
 */
export class UploadService {
  private readonly db: Db;
  private readonly audit: AuditRecorder;
  private readonly config: Config;
  private readonly log: FastifyBaseLogger;
  private readonly leases: UploadLeases;
  private readonly digests: UploadDigests;
  private readonly roots: NodeRoots;

  constructor(
    deps: Pick<Deps, 'db' | 'audit' | 'config' | 'log'> & {
      leases: UploadLeases;
      digests: UploadDigests;
      roots: NodeRoots;
    },
  ) {
    this.db = deps.db;
    this.audit = deps.audit;
    this.config = deps.config;
    this.log = deps.log;
    this.leases = deps.leases;
    this.digests = deps.digests;
    this.roots = deps.roots;
  }

  async create(actor: AuditActor, nodeId: string, input: NewUpload): Promise<Upload> {
    const relative = normaliseRelativePath(input.path);
    if (input.totalBytes > this.config.uploadMaxFileBytes)
      throw invalidField(['totalBytes'], `must be at most ${this.config.uploadMaxFileBytes} bytes`);
    const node = await findNodeRow(this.db, nodeId);
    const root = await this.roots.real(node.rootPath);
    const overwrite = input.overwrite ?? false;
    const { exists } = await resolveTarget(root, relative);
    if (exists && !overwrite) throw fileExists(relative);
    const available = await freeBytes(root);
    if (input.totalBytes > available)
      throw unprocessable(
        'INSUFFICIENT_SPACE',
        `the node's filesystem has ${available} bytes free, the file needs ${input.totalBytes}`,
        { availableBytes: available, totalBytes: input.totalBytes },
      );

    let row: UploadRow;
    try {
      row = await this.db.transaction(async (tx) => {
        const [inserted] = (await tx
          .insert(nodeUploads)
          .values({
            nodeId,
            path: relative,
            totalBytes: input.totalBytes,
            chunkSize: this.config.uploadChunkBytes,
            sha256: input.sha256?.toLowerCase() ?? null,
            overwrite,
            createdBy: actor.userId,
            expiresAt: idleExpiry(this.config),
          })
          .returning()) as [UploadRow];
        await this.audit.record(tx, actor, {
          action: 'nodes.upload.created',
          targetType: 'node_upload',
          targetId: inserted.id,
          metadata: {
            nodeId,
            path: relative,
            totalBytes: input.totalBytes,
            overwrite,
            sha256: inserted.sha256,
          },
        });
        return inserted;
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const [open] = await this.db
        .select({ id: nodeUploads.id })
        .from(nodeUploads)
        .where(
          and(eq(nodeUploads.nodeId, nodeId), eq(nodeUploads.path, relative), eq(nodeUploads.status, 'open')),
        );
      throw conflict('UPLOAD_EXISTS', {
        path: relative,
        uploadId: open?.id,
        explanation: 'an open upload session already targets this path; resume it or abort it',
      });
    }
    try {
      await createTempFile(root, row.id);
    } catch (error) {
      await this.db.delete(nodeUploads).where(eq(nodeUploads.id, row.id));
      throw error;
    }
    return this.upload(row);
  }

  async list(nodeId: string, filter: UploadListQuery) {
    await findNodeRow(this.db, nodeId);
    const conditions: SQL[] = [eq(nodeUploads.nodeId, nodeId)];
    if (filter.status) conditions.push(eq(nodeUploads.status, filter.status));
    const where = and(...conditions);
    return fetchPage(
      filter,
      ({ limit, offset }) =>
        this.db
          .select()
          .from(nodeUploads)
          .where(where)
          .orderBy(sql`${nodeUploads.createdAt} desc`, nodeUploads.id)
          .limit(limit)
          .offset(offset),
      this.db.select({ value: count() }).from(nodeUploads).where(where),
      (row) => this.upload(row),
    );
  }

  async get(nodeId: string, uploadId: string): Promise<Upload> {
    return this.upload(await findUploadRow(this.db, nodeId, uploadId));
  }

  /**
   * Appends one chunk. The offset must equal receivedBytes (409 with `expectedOffset` otherwise);
   * the bytes are streamed to the temp file and fsynced before receivedBytes moves; reaching
   * totalBytes completes the upload. A client that disconnects keeps what arrived before.
   */
  async writeChunk(actor: AuditActor, nodeId: string, uploadId: string, input: ChunkInput): Promise<Upload> {
    const current = await findUploadRow(this.db, nodeId, uploadId);
    if (input.offset !== null && input.offset > current.totalBytes)
      throw invalidField(['offset'], `must be at most totalBytes (${current.totalBytes})`);
    const start = input.offset ?? current.receivedBytes;
    if (input.contentLength !== undefined && start + input.contentLength > current.totalBytes)
      throw pastTotal(start, input.contentLength, current.totalBytes);

    const claim = await this.leases.claim(nodeId, uploadId, input.offset);
    const { row } = claim;
    const offset = row.receivedBytes;
    if (input.contentLength !== undefined && offset + input.contentLength > row.totalBytes) {
      await this.leases.release(claim);
      throw pastTotal(offset, input.contentLength, row.totalBytes);
    }
    const root = await this.rootOf(claim);
    const remaining = row.totalBytes - offset;
    const maxBytes = Math.min(this.config.uploadMaxChunkBytes, remaining);

    const stopRenewing = this.leases.renewWhileWriting(claim);
    let result: Awaited<ReturnType<typeof writeChunk>>;
    try {
      // Renewal stops when the write ends, before any release below gives up the lease.
      result = await writeChunk({
        root,
        uploadId: row.id,
        offset,
        body: input.body,
        maxBytes,
        onWritten: this.digests.forChunk(row, offset),
      }).finally(stopRenewing);
    } catch (error) {
      if (error instanceof TempDataLostError)
        return this.fail(actor, claim, root, { status: 'failed', reason: 'TEMP_DATA_LOST' });
      await this.leases.release(claim);
      throw error;
    }

    if (result.overflow) {
      this.digests.forget(row.id);
      await this.leases.release(claim);
      if (maxBytes < this.config.uploadMaxChunkBytes) throw pastTotal(offset, undefined, row.totalBytes);
      throw chunkTooLarge(this.config.uploadMaxChunkBytes);
    }
    const receivedBytes = offset + result.written;
    const done = receivedBytes === row.totalBytes && !result.interrupted;
    const updated = await this.leases.release(claim, { receivedBytes }, done);
    if (result.interrupted) {
      this.log.info({ uploadId, receivedBytes }, 'upload chunk interrupted; the durable part is kept');
      return this.upload(updated);
    }
    if (done) return this.finish(actor, { row: updated, token: claim.token }, root);
    return this.upload(updated);
  }

  /** Completes an upload whose bytes are all in (idempotent: a complete one is answered as is). */
  async complete(actor: AuditActor, nodeId: string, uploadId: string): Promise<Upload> {
    const current = await findUploadRow(this.db, nodeId, uploadId);
    if (current.status === 'complete') return this.upload(current);
    if (current.status === 'open' && current.receivedBytes < current.totalBytes) throw incomplete(current);
    const claim = await this.leases.claim(nodeId, uploadId, null);
    if (claim.row.receivedBytes < claim.row.totalBytes) {
      await this.leases.release(claim);
      throw incomplete(claim.row);
    }
    const root = await this.rootOf(claim);
    return this.finish(actor, claim, root);
  }

  /** Aborts an open session and removes its temp data; a session already ended is answered as is. */
  async abort(actor: AuditActor, nodeId: string, uploadId: string): Promise<Upload> {
    const current = await findUploadRow(this.db, nodeId, uploadId);
    if (current.status === 'complete')
      throw conflict('UPLOAD_NOT_OPEN', {
        status: current.status,
        explanation: 'the upload is complete; its file is in place and is not removed by an abort',
      });
    if (current.status !== 'open') return this.upload(current);
    const claim = await this.leases.claim(nodeId, uploadId, null);
    const ended = await this.end(actor, claim, { status: 'aborted' });
    const root = await this.roots.real((await findNodeRow(this.db, nodeId)).rootPath).catch(() => undefined);
    if (root) await removeTempFile(root, claim.row.id);
    return this.upload(ended);
  }

  private upload(row: UploadRow): Upload {
    return toUpload(row, this.config.uploadMaxChunkBytes);
  }

  /** The node root of a claimed session; a vanished root releases the lease and answers 422. */
  private async rootOf(claim: UploadClaim): Promise<string> {
    try {
      return await this.roots.real((await findNodeRow(this.db, claim.row.nodeId)).rootPath);
    } catch (error) {
      await this.leases.release(claim);
      throw error;
    }
  }

  /** Verifies size and checksum of the full temp file and renames it into place atomically. */
  private async finish(actor: AuditActor, claim: UploadClaim, root: string): Promise<Upload> {
    const { row } = claim;
    const size = await tempFileSize(root, row.id);
    if (size === -1 && (await publishedFileMatches(root, row.path, row.totalBytes, row.sha256))) {
      // A crash came between the rename and the status change: the file is in place already.
      return this.upload(await this.end(actor, claim, { status: 'complete' }));
    }
    if (size !== row.totalBytes)
      return this.fail(actor, claim, root, { status: 'failed', reason: 'TEMP_DATA_LOST' });
    if (row.sha256) {
      const actual = this.digests.take(row.id, row.totalBytes) ?? (await hashTempFile(root, row.id));
      if (actual !== row.sha256)
        return this.fail(actor, claim, root, {
          status: 'failed',
          reason: 'CHECKSUM_MISMATCH',
          detail: { actualSha256: actual },
        });
    }
    try {
      await publishTempFile(root, row.id, row.path, row.overwrite);
    } catch (error) {
      // e.g. FILE_EXISTS: the data stays; remove the file in the way and call complete again.
      await this.leases.release(claim);
      throw error;
    }
    return this.upload(await this.end(actor, claim, { status: 'complete' }));
  }

  /** Fails the session, removes its temp data and answers 422 with the reason. */
  private async fail(
    actor: AuditActor,
    claim: UploadClaim,
    root: string,
    failure: Extract<Ending, { status: 'failed' }>,
  ): Promise<never> {
    const { row } = claim;
    await this.end(actor, claim, failure);
    await removeTempFile(root, row.id);
    if (failure.reason === 'CHECKSUM_MISMATCH')
      throw unprocessable(
        failure.reason,
        'the uploaded bytes do not match the sha256 given when the session was created; the session failed and its data was removed',
        { uploadId: row.id, expectedSha256: row.sha256, ...failure.detail },
      );
    throw unprocessable(
      failure.reason,
      'the temp data of this upload is missing or shorter than acknowledged; the session failed',
      { uploadId: row.id, ...failure.detail },
    );
  }

  /** Moves a claimed session to a final status and audits it, in one transaction. */
  private async end(actor: AuditActor, claim: UploadClaim, ending: Ending): Promise<UploadRow> {
    const { row, token } = claim;
    const failureReason = ending.status === 'failed' ? ending.reason : null;
    this.digests.forget(row.id);
    return this.db.transaction(async (tx) => {
      const now = new Date();
      const [ended] = await tx
        .update(nodeUploads)
        .set({
          status: ending.status,
          failureReason,
          leaseToken: null,
          leaseExpiresAt: null,
          updatedAt: now,
          completedAt: ending.status === 'complete' ? now : null,
        })
        .where(and(eq(nodeUploads.id, row.id), eq(nodeUploads.leaseToken, token)))
        .returning();
      if (!ended)
        throw conflict('UPLOAD_LEASE_LOST', { explanation: 'another writer took over this upload' });
      await this.audit.record(tx, actor, {
        action: ENDING_ACTIONS[ending.status],
        targetType: 'node_upload',
        targetId: row.id,
        outcome: ending.status === 'failed' ? 'failure' : 'success',
        metadata: {
          nodeId: row.nodeId,
          path: row.path,
          totalBytes: row.totalBytes,
          receivedBytes: ended.receivedBytes,
          ...(failureReason ? { reason: failureReason } : {}),
          ...(ending.status === 'failed' ? ending.detail : {}),
        },
      });
      return ended;
    });
  }
}
