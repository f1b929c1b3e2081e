import { inArray } from 'drizzle-orm';
import type { Deps } from '../../core/deps.js';
import type { Db } from '../../db/client.js';
import { lockForTransaction } from '../../db/locks.js';
import { pagesDeploymentFiles } from '../../db/schema/index.js';
import type { BlobStore } from './blob-store.js';

/** Hashes looked up per query. */
const LOOKUP_BATCH = 1000;

/** Removes site file blobs that no deployment references any more. */
export class BlobCollector {
  private readonly db: Db;
  private readonly blobs: BlobStore;

  constructor(deps: Pick<Deps, 'db'> & { blobs: BlobStore }) {
    this.db = deps.db;
    this.blobs = deps.blobs;
  }

  /**
   * Deletes blobs that no deployment references: the given candidates, or every blob on disk.
   * Runs under the blob lock, so a deployment being committed cannot lose a blob it just stored.
   * Answers how many were removed.
   */
  async collect(candidates?: string[]): Promise<number> {
    return this.db.transaction(async (tx) => {
      await lockForTransaction(tx, 'pagesBlobs');
      const shas = [...new Set(candidates ?? (await this.blobs.listBlobs()))];
      const unreferenced: string[] = [];
      for (let start = 0; start < shas.length; start += LOOKUP_BATCH) {
        const chunk = shas.slice(start, start + LOOKUP_BATCH);
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
}
