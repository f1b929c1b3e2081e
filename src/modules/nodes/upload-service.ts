import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import { and, count, eq, inArray, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import { type AuditActor, systemActor } from '../../core/actor.js';
import type { AuditRecorder } from '../../core/audit-recorder.js';
import { isUniqueViolation } from '../../core/db-errors.js';
import { conflict, invalidField, notFound, unprocessable, validationError } from '../../core/errors.js';
import { fetchPage, type PageRequest } from '../../core/pagination.js';
import type { Db } from '../../db/client.js';
import { nodes, nodeUploads, type UploadStatus } from '../../db/schema/index.js';
import {
  createTempFile,
  fileExists,
  freeBytes,
  hashTempFile,
  listTempUploads,
  normaliseRelativePath,
  publishedFileMatches,
  publishTempFile,
  realRoot,
  removeTempFile,
  resolveTarget,
  TempDataLostError,
  tempFileSize,
  writeChunk,
} from './node-fs.js';

export interface UploadView {
  uploadId: string;
  id: string;
  nodeId: string;
  path: string;
  totalBytes: number;
  receivedBytes: number;
  chunkSize: number;
  maxChunkBytes: number;
  sha256: string | null;
  overwrite: boolean;
  status: UploadStatus;
  /** A chunk (or the completion) is being written right now. */
  writing: boolean;
  failureReason: string | null;
  createdAt: Date;
  updatedAt: Date;
  expiresAt: Date;
  completedAt: Date | null;
}

export interface NewUpload {
  path: string;
  totalBytes: number;
  sha256?: string | undefined;
  overwrite?: boolean | undefined;
}

export interface UploadFilter extends PageRequest {
  status?: UploadStatus | undefined;
}

export interface ChunkInput {
  /** Where the chunk starts; null means "at receivedBytes". */
  offset: number | null;
  body: Readable | undefined;
  /** The declared length of the body, when the client sent one. */
  contentLength: number | undefined;
}

type UploadRow = typeof nodeUploads.$inferSelect;

export const UPLOAD_SWEEP_JOB = 'nodes.uploads.sweep';

/**
 * Resumable uploads into a node root. Bytes land in a temp file under the root; `receivedBytes`
 * advances only after they were fsynced; at `totalBytes` the checksum is verified and the file is
 * renamed into place. One writer at a time per session (a lease in the row), everyone else gets 409.
 */
export class UploadService {
  /**
   * SHA-256 state of sessions written by this process, fed as bytes are written, so completion need
   * not read the file again. A session resumed elsewhere (position differs) falls back to a re-read.
   */
  private readonly digests = new Map<string, { hash: crypto.Hash; position: number }>();

  /** A writer owns a session this long; renewed while a chunk streams, so a crashed writer frees it. */
  private get leaseMs(): number {
    return this.config.uploadLeaseSeconds * 1000;
  }

  constructor(
    private readonly db: Db,
    private readonly audit: AuditRecorder,
    private readonly config: Config,
    private readonly log: FastifyBaseLogger,
  ) {}

  async createUpload(actor: AuditActor & { userId: string | null }, nodeId: string, input: NewUpload) {
    const relative = normaliseRelativePath(input.path);
    if (input.totalBytes > this.config.uploadMaxFileBytes)
      throw invalidField(['totalBytes'], `must be at most ${this.config.uploadMaxFileBytes} bytes`);
    const node = await this.node(nodeId);
    const root = await realRoot(node.rootPath);
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
            expiresAt: this.expiry(),
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
    return this.view(row);
  }

  async listUploads(nodeId: string, filter: UploadFilter) {
    await this.node(nodeId);
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
      (row) => this.view(row),
    );
  }

  async getUpload(nodeId: string, uploadId: string): Promise<UploadView> {
    return this.view(await this.row(nodeId, uploadId));
  }

  /**
   * Appends one chunk. The offset must equal receivedBytes (409 with `expectedOffset` otherwise);
   * the bytes are streamed to the temp file and fsynced before receivedBytes moves; reaching
   * totalBytes completes the upload. A client that disconnects keeps what arrived before.
   */
  async writeChunk(actor: AuditActor, nodeId: string, uploadId: string, input: ChunkInput) {
    const current = await this.row(nodeId, uploadId);
    if (input.offset !== null && input.offset > current.totalBytes)
      throw invalidField(['offset'], `must be at most totalBytes (${current.totalBytes})`);
    const start = input.offset ?? current.receivedBytes;
    if (input.contentLength !== undefined && start + input.contentLength > current.totalBytes)
      throw pastTotal(start, input.contentLength, current.totalBytes);

    const { row, token } = await this.claim(nodeId, uploadId, input.offset);
    const offset = row.receivedBytes;
    if (input.contentLength !== undefined && offset + input.contentLength > row.totalBytes) {
      await this.release(row.id, token, {});
      throw pastTotal(offset, input.contentLength, row.totalBytes);
    }
    const root = await this.rootOf(row, token);
    const remaining = row.totalBytes - offset;
    const maxBytes = Math.min(this.config.uploadMaxChunkBytes, remaining);

    const renew = setInterval(() => {
      this.db
        .update(nodeUploads)
        .set({ leaseExpiresAt: new Date(Date.now() + this.leaseMs) })
        .where(and(eq(nodeUploads.id, row.id), eq(nodeUploads.leaseToken, token)))
        .catch((error: unknown) => this.log.warn({ err: error, uploadId }, 'upload lease renewal failed'));
    }, this.leaseMs / 3);
    renew.unref();
    const digest = this.digestFor(row, offset);
    let result: Awaited<ReturnType<typeof writeChunk>>;
    try {
      // Renewal stops when the write ends, before any release below gives up the lease.
      result = await writeChunk(
        root,
        row.id,
        offset,
        input.body,
        maxBytes,
        digest &&
          ((buffers) => {
            for (const buffer of buffers) {
              digest.hash.update(buffer);
              digest.position += buffer.length;
            }
          }),
      ).finally(() => clearInterval(renew));
    } catch (error) {
      if (error instanceof TempDataLostError) return this.fail(actor, row, token, root, 'TEMP_DATA_LOST');
      await this.release(row.id, token, {});
      throw error;
    }

    if (result.overflow) {
      this.digests.delete(row.id);
      await this.release(row.id, token, {});
      if (maxBytes < this.config.uploadMaxChunkBytes) throw pastTotal(offset, undefined, row.totalBytes);
      throw chunkTooLarge(this.config.uploadMaxChunkBytes);
    }
    const receivedBytes = offset + result.written;
    const done = receivedBytes === row.totalBytes && !result.interrupted;
    const updated = await this.release(row.id, token, { receivedBytes }, done);
    if (result.interrupted) {
      this.log.info({ uploadId, receivedBytes }, 'upload chunk interrupted; the durable part is kept');
      return this.view(updated);
    }
    if (done) return this.finish(actor, updated, token, root);
    return this.view(updated);
  }

  /** Completes an upload whose bytes are all in (idempotent: a complete one is answered as is). */
  async complete(actor: AuditActor, nodeId: string, uploadId: string): Promise<UploadView> {
    const current = await this.row(nodeId, uploadId);
    if (current.status === 'complete') return this.view(current);
    if (current.status === 'open' && current.receivedBytes < current.totalBytes) throw incomplete(current);
    const { row, token } = await this.claim(nodeId, uploadId, null);
    if (row.receivedBytes < row.totalBytes) {
      await this.release(row.id, token, {});
      throw incomplete(row);
    }
    const root = await this.rootOf(row, token);
    return this.finish(actor, row, token, root);
  }

  /** Aborts an open session and removes its temp data; a session already ended is answered as is. */
  async abort(actor: AuditActor, nodeId: string, uploadId: string): Promise<UploadView> {
    const current = await this.row(nodeId, uploadId);
    if (current.status === 'complete')
      throw conflict('UPLOAD_NOT_OPEN', {
        status: current.status,
        explanation: 'the upload is complete; its file is in place and is not removed by an abort',
      });
    if (current.status !== 'open') return this.view(current);
    const { row, token } = await this.claim(nodeId, uploadId, null);
    const ended = await this.end(actor, row, token, 'aborted', null, 'nodes.upload.aborted');
    const root = await realRoot((await this.node(nodeId)).rootPath).catch(() => undefined);
    if (root) await removeTempFile(root, row.id);
    return this.view(ended);
  }

  /**
   * The background sweep: expires open sessions idle past `expiresAt` (and not being written),
   * removes their temp files, and removes temp files no open session owns (left by a crash).
   */
  async sweep(): Promise<{ expired: number; orphansRemoved: number }> {
    const now = new Date();
    const stale = await this.db
      .select({ id: nodeUploads.id, nodeId: nodeUploads.nodeId, rootPath: nodes.rootPath })
      .from(nodeUploads)
      .innerJoin(nodes, eq(nodes.id, nodeUploads.nodeId))
      .where(and(eq(nodeUploads.status, 'open'), lt(nodeUploads.expiresAt, now), leaseFree(now)));
    let expired = 0;
    for (const candidate of stale) {
      const ended = await this.db.transaction(async (tx) => {
        const [row] = await tx
          .update(nodeUploads)
          .set({
            status: 'expired',
            failureReason: 'EXPIRED',
            updatedAt: now,
            leaseToken: null,
            leaseExpiresAt: null,
          })
          .where(
            and(
              eq(nodeUploads.id, candidate.id),
              eq(nodeUploads.status, 'open'),
              lt(nodeUploads.expiresAt, now),
              leaseFree(now),
            ),
          )
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
      this.digests.delete(candidate.id);
      expired += 1;
      const root = await realRoot(candidate.rootPath).catch(() => undefined);
      if (root) await removeTempFile(root, candidate.id);
    }

    let orphansRemoved = 0;
    for (const node of await this.db.select({ id: nodes.id, rootPath: nodes.rootPath }).from(nodes)) {
      const root = await realRoot(node.rootPath).catch(() => undefined);
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
        orphansRemoved += 1;
      }
    }
    if (expired > 0 || orphansRemoved > 0) this.log.info({ expired, orphansRemoved }, 'upload sweep');
    return { expired, orphansRemoved };
  }

  // --- internals -------------------------------------------------------------------------------

  /** The running hash for a chunk at `offset`, when this process saw every byte before it. */
  private digestFor(row: UploadRow, offset: number) {
    if (!row.sha256) return undefined;
    let digest = this.digests.get(row.id);
    if (digest && digest.position !== offset) {
      this.digests.delete(row.id);
      digest = undefined;
    }
    if (!digest && offset === 0) {
      if (this.digests.size >= 10_000) this.digests.clear();
      digest = { hash: crypto.createHash('sha256'), position: 0 };
      this.digests.set(row.id, digest);
    }
    return digest;
  }

  private expiry(): Date {
    return new Date(Date.now() + this.config.uploadTtlSeconds * 1000);
  }

  private async node(nodeId: string) {
    const [node] = await this.db.select().from(nodes).where(eq(nodes.id, nodeId));
    if (!node) throw notFound({ nodeId });
    return node;
  }

  private async row(nodeId: string, uploadId: string): Promise<UploadRow> {
    const [row] = await this.db
      .select()
      .from(nodeUploads)
      .where(and(eq(nodeUploads.id, uploadId), eq(nodeUploads.nodeId, nodeId)));
    if (!row) {
      await this.node(nodeId);
      throw notFound({ uploadId });
    }
    return row;
  }

  /** The node root of a claimed session; a vanished root releases the lease and answers 422. */
  private async rootOf(row: UploadRow, token: string): Promise<string> {
    try {
      return await realRoot((await this.node(row.nodeId)).rootPath);
    } catch (error) {
      await this.release(row.id, token, {});
      throw error;
    }
  }

  /**
   * Takes the session's lease with one conditional update (open, not leased, offset matching), so
   * of two concurrent writers exactly one wins. The loser learns why: gone, ended, busy or offset.
   */
  private async claim(
    nodeId: string,
    uploadId: string,
    offset: number | null,
  ): Promise<{ row: UploadRow; token: string }> {
    const token = crypto.randomUUID();
    const now = new Date();
    const conditions = [
      eq(nodeUploads.id, uploadId),
      eq(nodeUploads.nodeId, nodeId),
      eq(nodeUploads.status, 'open'),
      leaseFree(now),
    ];
    if (offset !== null) conditions.push(eq(nodeUploads.receivedBytes, offset));
    const [row] = await this.db
      .update(nodeUploads)
      .set({ leaseToken: token, leaseExpiresAt: new Date(now.getTime() + this.leaseMs) })
      .where(and(...conditions))
      .returning();
    if (row) return { row, token };

    const current = await this.row(nodeId, uploadId);
    if (current.status !== 'open')
      throw conflict('UPLOAD_NOT_OPEN', {
        status: current.status,
        failureReason: current.failureReason,
        explanation: `the upload is ${current.status}; create a new session to upload again`,
      });
    if (offset !== null && current.receivedBytes !== offset)
      throw conflict('UPLOAD_OFFSET_MISMATCH', {
        expectedOffset: current.receivedBytes,
        offset,
        explanation: `the next chunk must start at byte ${current.receivedBytes}`,
      });
    throw conflict('UPLOAD_IN_PROGRESS', {
      expectedOffset: current.receivedBytes,
      explanation: 'another request is writing to this upload right now; retry when it has finished',
    });
  }

  /** Ends a write: records receivedBytes and refreshes the expiry; keeps the lease when `keep`. */
  private async release(
    id: string,
    token: string,
    changes: { receivedBytes?: number },
    keep = false,
  ): Promise<UploadRow> {
    const [row] = await this.db
      .update(nodeUploads)
      .set({
        ...changes,
        ...(keep ? {} : { leaseToken: null, leaseExpiresAt: null }),
        updatedAt: new Date(),
        expiresAt: this.expiry(),
      })
      .where(and(eq(nodeUploads.id, id), eq(nodeUploads.leaseToken, token)))
      .returning();
    if (!row)
      throw conflict('UPLOAD_LEASE_LOST', {
        explanation:
          'this write took longer than its lease and another writer took over; check the upload status',
      });
    return row;
  }

  /** Verifies size and checksum of the full temp file and renames it into place atomically. */
  private async finish(actor: AuditActor, row: UploadRow, token: string, root: string): Promise<UploadView> {
    const size = await tempFileSize(root, row.id);
    if (size === -1 && (await publishedFileMatches(root, row.path, row.totalBytes, row.sha256))) {
      // A crash came between the rename and the status change: the file is in place already.
      return this.view(await this.end(actor, row, token, 'complete', null, 'nodes.upload.completed'));
    }
    if (size !== row.totalBytes) return this.fail(actor, row, token, root, 'TEMP_DATA_LOST');
    let actual: string | undefined;
    if (row.sha256) {
      const digest = this.digests.get(row.id);
      this.digests.delete(row.id);
      actual =
        digest?.position === row.totalBytes ? digest.hash.digest('hex') : await hashTempFile(root, row.id);
      if (actual !== row.sha256)
        return this.fail(actor, row, token, root, 'CHECKSUM_MISMATCH', { actualSha256: actual });
    }
    try {
      await publishTempFile(root, row.id, row.path, row.overwrite);
    } catch (error) {
      // e.g. FILE_EXISTS: the data stays; remove the file in the way and call complete again.
      await this.release(row.id, token, {});
      throw error;
    }
    return this.view(await this.end(actor, row, token, 'complete', null, 'nodes.upload.completed'));
  }

  private async fail(
    actor: AuditActor,
    row: UploadRow,
    token: string,
    root: string,
    reason: 'CHECKSUM_MISMATCH' | 'TEMP_DATA_LOST',
    detail: Record<string, unknown> = {},
  ): Promise<never> {
    await this.end(actor, row, token, 'failed', reason, 'nodes.upload.failed', detail);
    await removeTempFile(root, row.id);
    if (reason === 'CHECKSUM_MISMATCH')
      throw unprocessable(
        reason,
        'the uploaded bytes do not match the sha256 given when the session was created; the session failed and its data was removed',
        { uploadId: row.id, expectedSha256: row.sha256, ...detail },
      );
    throw unprocessable(
      reason,
      'the temp data of this upload is missing or shorter than acknowledged; the session failed',
      { uploadId: row.id, ...detail },
    );
  }

  /** Moves a claimed session to a final status and audits it, in one transaction. */
  private async end(
    actor: AuditActor,
    row: UploadRow,
    token: string,
    status: 'complete' | 'failed' | 'aborted',
    failureReason: string | null,
    action: string,
    detail: Record<string, unknown> = {},
  ): Promise<UploadRow> {
    this.digests.delete(row.id);
    return this.db.transaction(async (tx) => {
      const now = new Date();
      const [ended] = await tx
        .update(nodeUploads)
        .set({
          status,
          failureReason,
          leaseToken: null,
          leaseExpiresAt: null,
          updatedAt: now,
          completedAt: status === 'complete' ? now : null,
        })
        .where(and(eq(nodeUploads.id, row.id), eq(nodeUploads.leaseToken, token)))
        .returning();
      if (!ended)
        throw conflict('UPLOAD_LEASE_LOST', { explanation: 'another writer took over this upload' });
      await this.audit.record(tx, actor, {
        action,
        targetType: 'node_upload',
        targetId: row.id,
        outcome: status === 'failed' ? 'failure' : 'success',
        metadata: {
          nodeId: row.nodeId,
          path: row.path,
          totalBytes: row.totalBytes,
          receivedBytes: ended.receivedBytes,
          ...(failureReason ? { reason: failureReason } : {}),
          ...detail,
        },
      });
      return ended;
    });
  }

  private view(row: UploadRow): UploadView {
    return {
      uploadId: row.id,
      id: row.id,
      nodeId: row.nodeId,
      path: row.path,
      totalBytes: row.totalBytes,
      receivedBytes: row.receivedBytes,
      chunkSize: row.chunkSize,
      maxChunkBytes: this.config.uploadMaxChunkBytes,
      sha256: row.sha256,
      overwrite: row.overwrite,
      status: row.status,
      writing: row.leaseToken !== null && row.leaseExpiresAt !== null && row.leaseExpiresAt > new Date(),
      failureReason: row.failureReason,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      expiresAt: row.expiresAt,
      completedAt: row.completedAt,
    };
  }
}

function leaseFree(now: Date) {
  return or(isNull(nodeUploads.leaseToken), lt(nodeUploads.leaseExpiresAt, now))!;
}

const pastTotal = (offset: number, length: number | undefined, total: number) =>
  validationError([
    {
      path: ['body'],
      message:
        length === undefined
          ? `the chunk goes past totalBytes (${total}) from offset ${offset}`
          : `a chunk of ${length} bytes at offset ${offset} goes past totalBytes (${total})`,
    },
  ]);

export const chunkTooLarge = (limit: number) =>
  validationError([{ path: ['body'], message: `a chunk may carry at most ${limit} bytes` }], 413);

const incomplete = (row: UploadRow) =>
  conflict('UPLOAD_INCOMPLETE', {
    receivedBytes: row.receivedBytes,
    totalBytes: row.totalBytes,
    expectedOffset: row.receivedBytes,
    explanation: `${row.totalBytes - row.receivedBytes} bytes are still missing`,
  });
