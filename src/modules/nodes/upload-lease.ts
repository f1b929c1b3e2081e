import crypto from 'node:crypto';
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Deps } from '../../core/deps.js';
import { conflict } from '../../core/errors.js';
import type { Db } from '../../db/client.js';
import { nodeUploads } from '../../db/schema/index.js';
import { findUploadRow, idleExpiry, type UploadClaim, type UploadRow } from './upload-rows.js';

/** Sessions no writer holds right now: never leased, released, or left by a writer that died. */
export function leaseFree(now: Date) {
  return or(isNull(nodeUploads.leaseToken), lt(nodeUploads.leaseExpiresAt, now))!;
}

/**
 * The chunk lease protocol: one writer (a chunk or a completion) owns a session at a time, through a
 * token and an expiry in the row. A writer renews its lease while its chunk streams, so a writer that
 * crashed frees the session once the lease runs out.
 */
export class UploadLeases {
  private readonly db: Db;
  private readonly config: Config;
  private readonly log: FastifyBaseLogger;

  constructor(deps: Pick<Deps, 'db' | 'config' | 'log'>) {
    this.db = deps.db;
    this.config = deps.config;
    this.log = deps.log;
  }

  /** A writer owns a session this long; renewed while a chunk streams. */
  private get leaseMs(): number {
    return this.config.uploadLeaseSeconds * 1000;
  }

  /**
   * Takes the session's lease with one conditional update (open, not leased, offset matching), so
   * of two concurrent writers exactly one wins. The loser learns why: gone, ended, busy or offset.
   */
  async claim(nodeId: string, uploadId: string, offset: number | null): Promise<UploadClaim> {
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

    const current = await findUploadRow(this.db, nodeId, uploadId);
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

  /**
   * Renews the lease every third of its length until the returned function is called (when the
   * write ends, before any release gives the lease up).
   */
  renewWhileWriting(claim: UploadClaim): () => void {
    const { id } = claim.row;
    const renew = setInterval(() => {
      this.db
        .update(nodeUploads)
        .set({ leaseExpiresAt: new Date(Date.now() + this.leaseMs) })
        .where(and(eq(nodeUploads.id, id), eq(nodeUploads.leaseToken, claim.token)))
        .catch((error: unknown) =>
          this.log.warn({ err: error, uploadId: id }, 'upload lease renewal failed'),
        );
    }, this.leaseMs / 3);
    renew.unref();
    return () => clearInterval(renew);
  }

  /**
   * Ends a write: records receivedBytes (when given) and refreshes the session's expiry; gives the
   * lease up unless `keep` (a completion follows under the same lease).
   */
  async release(
    claim: UploadClaim,
    changes: { receivedBytes?: number } = {},
    keep = false,
  ): Promise<UploadRow> {
    const [row] = await this.db
      .update(nodeUploads)
      .set({
        ...changes,
        ...(keep ? {} : { leaseToken: null, leaseExpiresAt: null }),
        updatedAt: new Date(),
        expiresAt: idleExpiry(this.config),
      })
      .where(and(eq(nodeUploads.id, claim.row.id), eq(nodeUploads.leaseToken, claim.token)))
      .returning();
    if (!row)
      throw conflict('UPLOAD_LEASE_LOST', {
        explanation:
          'this write took longer than its lease and another writer took over; check the upload status',
      });
    return row;
  }
}
