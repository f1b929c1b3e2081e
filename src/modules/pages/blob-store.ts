import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fsyncDirectory } from '../../core/fsync-directory.js';

const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * Content-addressed file storage for site files: `<root>/blobs/<sha256>`, each written to a staging
 * directory first (`<root>/tmp/…`), fsynced, then renamed into place, so a blob is either absent or
 * complete. Identical content has one name, so every deployment that holds a file shares one copy.
 */
export class BlobStore {
  readonly blobsDir: string;
  readonly tmpDir: string;

  constructor(root: string) {
    this.blobsDir = path.join(root, 'blobs');
    this.tmpDir = path.join(root, 'tmp');
  }

  async ensureDirs(): Promise<void> {
    await fs.promises.mkdir(this.blobsDir, { recursive: true, mode: 0o750 });
    await fs.promises.mkdir(this.tmpDir, { recursive: true, mode: 0o750 });
  }

  blobPath(sha256: string): string {
    if (!SHA256_HEX.test(sha256)) throw new Error(`not a sha256: ${sha256}`);
    return path.join(this.blobsDir, sha256);
  }

  async openStaging(): Promise<BlobStaging> {
    await this.ensureDirs();
    return new BlobStaging(await fs.promises.mkdtemp(path.join(this.tmpDir, 'upload-')));
  }

  /**
   * Moves staged blobs into place (an existing blob of the same hash has the same bytes, so the
   * rename may replace it) and makes the renames durable. Call it under the blob lock.
   */
  async publish(staging: BlobStaging, sha256s: Iterable<string>): Promise<void> {
    for (const sha256 of new Set(sha256s)) {
      await fs.promises.rename(staging.fileFor(sha256), this.blobPath(sha256));
    }
    await fsyncDirectory(this.blobsDir);
  }

  /** Deletes blobs; call it under the blob lock after checking nothing references them. */
  async remove(sha256s: Iterable<string>): Promise<number> {
    let removed = 0;
    for (const sha256 of sha256s) {
      try {
        await fs.promises.unlink(this.blobPath(sha256));
        removed += 1;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    return removed;
  }

  async listBlobs(): Promise<string[]> {
    try {
      return (await fs.promises.readdir(this.blobsDir)).filter((name) => SHA256_HEX.test(name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  /** Removes staging directories left by uploads that died (crash, kill -9) longer ago than `ageMs`. */
  async sweepStaging(ageMs: number): Promise<number> {
    let names: string[];
    try {
      names = await fs.promises.readdir(this.tmpDir);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names) {
      const dir = path.join(this.tmpDir, name);
      const stat = await fs.promises.stat(dir).catch(() => undefined);
      if (!stat || Date.now() - stat.mtimeMs < ageMs) continue;
      await fs.promises.rm(dir, { recursive: true, force: true });
      removed += 1;
    }
    return removed;
  }
}

/** One upload's staging directory: the raw archive and the files read from it, named by hash. */
export class BlobStaging {
  private counter = 0;
  private readonly staged = new Set<string>();

  constructor(readonly dir: string) {}

  fileFor(sha256: string): string {
    return path.join(this.dir, `${sha256}.blob`);
  }

  /**
   * Writes a stream to a staging file while hashing it; `onBytes` sees every chunk's size first and
   * may throw to stop (a size limit). Answers the path, size and SHA-256.
   */
  async write(
    content: AsyncIterable<Buffer | string>,
    onBytes: (bytes: number) => void,
  ): Promise<{ file: string; sizeBytes: number; sha256: string }> {
    this.counter += 1;
    const file = path.join(this.dir, `part-${this.counter}`);
    const hash = crypto.createHash('sha256');
    const handle = await fs.promises.open(file, 'wx', 0o640);
    let sizeBytes = 0;
    try {
      for await (const raw of content) {
        const chunk = typeof raw === 'string' ? Buffer.from(raw) : raw;
        onBytes(chunk.length);
        sizeBytes += chunk.length;
        hash.update(chunk);
        await handle.write(chunk);
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
    return { file, sizeBytes, sha256: hash.digest('hex') };
  }

  /** Stages one site file under its hash (a second copy of the same content is dropped at once). */
  async stage(
    content: AsyncIterable<Buffer>,
    onBytes: (bytes: number) => void,
  ): Promise<{ sha256: string; sizeBytes: number }> {
    const written = await this.write(content, onBytes);
    if (this.staged.has(written.sha256)) await fs.promises.unlink(written.file);
    else {
      await fs.promises.rename(written.file, this.fileFor(written.sha256));
      this.staged.add(written.sha256);
    }
    return { sha256: written.sha256, sizeBytes: written.sizeBytes };
  }

  async dispose(): Promise<void> {
    await fs.promises.rm(this.dir, { recursive: true, force: true });
  }
}
