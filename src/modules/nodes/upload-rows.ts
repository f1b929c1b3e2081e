import { and, eq } from 'drizzle-orm';
import type { Config } from '../../config.js';
import { notFound } from '../../core/errors.js';
import type { Db } from '../../db/client.js';
import { nodes, nodeUploads } from '../../db/schema/index.js';
import type { Upload } from './schemas.js';

/** An upload session as stored. */
export type UploadRow = typeof nodeUploads.$inferSelect;

/** A writer's hold on a session: the row as claimed and the lease token that proves it. */
export interface UploadClaim {
  row: UploadRow;
  token: string;
}

/** The node row (with its root path); 404 when it is unknown. */
export async function findNodeRow(db: Db, nodeId: string) {
  const [node] = await db.select().from(nodes).where(eq(nodes.id, nodeId));
  if (!node) throw notFound({ nodeId });
  return node;
}

/** An upload session of this node; 404 when the node is unknown or the session is another's. */
export async function findUploadRow(db: Db, nodeId: string, uploadId: string): Promise<UploadRow> {
  const [row] = await db
    .select()
    .from(nodeUploads)
    .where(and(eq(nodeUploads.id, uploadId), eq(nodeUploads.nodeId, nodeId)));
  if (!row) {
    await findNodeRow(db, nodeId);
    throw notFound({ uploadId });
  }
  return row;
}

/** When a session idle from now on expires. */
export function idleExpiry(config: Pick<Config, 'uploadTtlSeconds'>): Date {
  return new Date(Date.now() + config.uploadTtlSeconds * 1000);
}

/** A session as the API answers it. */
export function toUpload(row: UploadRow, maxChunkBytes: number): Upload {
  return {
    uploadId: row.id,
    id: row.id,
    nodeId: row.nodeId,
    path: row.path,
    totalBytes: row.totalBytes,
    receivedBytes: row.receivedBytes,
    chunkSize: row.chunkSize,
    maxChunkBytes,
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
