import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

interface SavedState {
  uploadId: string;
  size: number;
  mtimeMs: number;
}

/** The local file as it was when its session was created; a change means the session is stale. */
export interface LocalFileStamp {
  size: number;
  mtimeMs: number;
}

/**
 * The remembered upload session for one (gateway, node, local file, remote path), in
 * `~/.infragate/uploads/<key>.json`, so an interrupted run resumes the same session.
 */
export class ResumeState {
  private readonly dir = path.join(os.homedir(), '.infragate', 'uploads');
  private readonly file: string;

  constructor(identity: { baseUrl: string; nodeId: string; localFile: string; remotePath: string }) {
    const key = crypto
      .createHash('sha256')
      .update(JSON.stringify([identity.baseUrl, identity.nodeId, identity.localFile, identity.remotePath]))
      .digest('hex')
      .slice(0, 32);
    this.file = path.join(this.dir, `${key}.json`);
  }

  /** The remembered session, if any, and whether the local file is unchanged since. */
  async read(stamp: LocalFileStamp): Promise<{ uploadId: string; current: boolean } | undefined> {
    const saved = await fsp
      .readFile(this.file, 'utf8')
      .then((text) => JSON.parse(text) as SavedState)
      .catch(() => undefined);
    if (!saved) return undefined;
    return {
      uploadId: saved.uploadId,
      current: saved.size === stamp.size && saved.mtimeMs === stamp.mtimeMs,
    };
  }

  async save(uploadId: string, stamp: LocalFileStamp): Promise<void> {
    await fsp.mkdir(this.dir, { recursive: true, mode: 0o700 });
    await fsp.writeFile(
      this.file,
      JSON.stringify({ uploadId, size: stamp.size, mtimeMs: stamp.mtimeMs } satisfies SavedState),
      { mode: 0o600 },
    );
  }

  async forget(): Promise<void> {
    await fsp.rm(this.file, { force: true });
  }
}
