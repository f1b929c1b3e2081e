import crypto from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { UploadRow } from './upload-rows.js';

/** Sessions whose running hash one process keeps at most (the least recently written go first). */
const MAX_SESSIONS = 10_000;

interface RunningDigest {
  hash: crypto.Hash;
  /** Bytes hashed so far: the offset the next chunk must start at for the hash to stay whole. */
  position: number;
}

/**
 * SHA-256 state of sessions written by this process, fed as bytes are written, so completion need
 * not read the file again. A session resumed elsewhere (position differs) or dropped from the cache
 * falls back to a re-read of the temp file.
 */
export class UploadDigests {
  private readonly digests = new LRUCache<string, RunningDigest>({ max: MAX_SESSIONS });

  /**
   * Where the bytes of a chunk at `offset` are to be hashed, when this process saw every byte
   * before it (or it is the first chunk); undefined when the session has no checksum to verify.
   */
  forChunk(row: UploadRow, offset: number): ((buffers: Buffer[]) => void) | undefined {
    if (!row.sha256) return undefined;
    let digest = this.digests.get(row.id);
    if (digest && digest.position !== offset) {
      this.digests.delete(row.id);
      digest = undefined;
    }
    if (!digest && offset === 0) {
      digest = { hash: crypto.createHash('sha256'), position: 0 };
      this.digests.set(row.id, digest);
    }
    if (!digest) return undefined;
    const running = digest;
    return (buffers) => {
      for (const buffer of buffers) {
        running.hash.update(buffer);
        running.position += buffer.length;
      }
    };
  }

  /** The hex digest of the whole file when it was hashed here up to `totalBytes`; forgets the session. */
  take(uploadId: string, totalBytes: number): string | undefined {
    const digest = this.digests.get(uploadId);
    this.digests.delete(uploadId);
    return digest?.position === totalBytes ? digest.hash.digest('hex') : undefined;
  }

  forget(uploadId: string): void {
    this.digests.delete(uploadId);
  }
}
