import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { conflict, invalidField, unprocessable } from '../../core/errors.js';
import { fsyncDirectory } from '../../core/fsync-directory.js';
import { isOnOrUnder } from '../../core/host-paths.js';

/**
 * The node's filesystem: the only code of this module that touches disk. Every path it is handed is
 * relative to a node root, and every directory it walks is checked to stay inside that root's real
 * path, so neither `..` nor a symlink leads out of it.
 */

/** Where temp data of open upload sessions lives, inside the node root (same filesystem: atomic rename). */
const TEMP_DIR_NAME = '.infragate-uploads';
const MAX_PATH_LENGTH = 4096;
const MAX_SEGMENT_BYTES = 255;
/** Writes are gathered into blocks of this size: few syscalls, bounded memory. */
const WRITE_BLOCK_BYTES = 1024 * 1024;
/**
 * While a chunk streams, a background fdatasync is started after every this many bytes, so the disk
 * writes back while the network delivers and the fsync that acknowledges the chunk has little left.
 */
const EARLY_SYNC_BYTES = 8 * 1024 * 1024;

/**
 * `/a/b.bin`, `a/b.bin` and `a//b.bin` all become `a/b.bin`. `.`/`..` segments, NUL bytes, the temp
 * directory and an empty path are refused (400 on `path`).
 */
export function normaliseRelativePath(raw: string, field: (string | number)[] = ['path']): string {
  if (raw.length > MAX_PATH_LENGTH)
    throw invalidField(field, `must be at most ${MAX_PATH_LENGTH} characters`);
  if (raw.includes('\0')) throw invalidField(field, 'must not contain NUL bytes');
  const segments = raw.split('/').filter((segment) => segment.length > 0);
  if (segments.length === 0) throw invalidField(field, 'must name a file inside the node root');
  for (const segment of segments) {
    if (segment === '.' || segment === '..')
      throw invalidField(field, 'must not contain . or .. segments (paths stay inside the node root)');
    if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES)
      throw invalidField(field, `each segment must be at most ${MAX_SEGMENT_BYTES} bytes`);
  }
  if (segments[0] === TEMP_DIR_NAME)
    throw invalidField(field, `${TEMP_DIR_NAME} is reserved for upload data`);
  return segments.join('/');
}

function errno(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

/** A root path as given by an operator, checked to be absolute (400) and normalised. */
export function absoluteRootPath(rootPath: string): string {
  if (!path.isAbsolute(rootPath)) throw invalidField(['rootPath'], 'must be an absolute path');
  if (rootPath.includes('\0')) throw invalidField(['rootPath'], 'must not contain NUL bytes');
  return path.resolve(rootPath);
}

/** Checks a normalised root directory (absoluteRootPath): existing, a directory, writable. */
export async function checkRootDirectory(resolved: string): Promise<void> {
  let stat: fs.Stats;
  try {
    stat = await fsp.stat(resolved);
  } catch {
    throw unprocessable('ROOT_NOT_FOUND', `${resolved} does not exist on the gateway host`, {
      rootPath: resolved,
    });
  }
  if (!stat.isDirectory())
    throw unprocessable('ROOT_NOT_A_DIRECTORY', `${resolved} is not a directory`, { rootPath: resolved });
  try {
    await fsp.access(resolved, fs.constants.W_OK | fs.constants.X_OK);
  } catch {
    throw unprocessable('ROOT_NOT_WRITABLE', `the gateway cannot write into ${resolved}`, {
      rootPath: resolved,
    });
  }
}

/** The real path of a node root; a root that vanished since it was registered is a 422. */
export async function realRoot(rootPath: string): Promise<string> {
  try {
    const real = await fsp.realpath(rootPath);
    if ((await fsp.stat(real)).isDirectory()) return real;
  } catch {
    // reported below
  }
  throw unprocessable('ROOT_NOT_FOUND', `the node root ${rootPath} no longer exists on the gateway host`, {
    rootPath,
  });
}

export interface TargetInfo {
  /** Absolute path the file will have (parent directories resolved to their real paths). */
  target: string;
  /** Whether something already exists there. */
  exists: boolean;
}

/**
 * Resolves `relative` under the real root, walking existing directories: a symlinked directory is
 * followed only when its real path stays inside the root; a non-directory in the middle is refused.
 * With `create`, missing directories are made one at a time (each under a checked real directory).
 */
export async function resolveTarget(root: string, relative: string, create = false): Promise<TargetInfo> {
  const segments = relative.split('/');
  const fileName = segments.pop()!;
  let current = root;
  let missing = false;
  for (const segment of segments) {
    const candidate = path.join(current, segment);
    if (missing) {
      if (create) await makeDirectory(candidate, relative);
      current = candidate;
      continue;
    }
    let stat: fs.Stats;
    try {
      stat = await fsp.lstat(candidate);
    } catch (error) {
      if (errno(error) !== 'ENOENT') throw error;
      missing = true;
      if (create) await makeDirectory(candidate, relative);
      current = candidate;
      continue;
    }
    if (stat.isSymbolicLink()) {
      const real = await fsp.realpath(candidate).catch(() => undefined);
      if (!real || !isOnOrUnder(root, real)) throw outsideRoot(relative);
      stat = await fsp.stat(real);
      current = real;
    } else {
      current = candidate;
    }
    if (!stat.isDirectory())
      throw unprocessable('PARENT_NOT_A_DIRECTORY', `${segment} in ${relative} is not a directory`, {
        path: relative,
      });
  }
  const target = path.join(current, fileName);
  if (missing) return { target, exists: false };
  try {
    const stat = await fsp.lstat(target);
    if (stat.isDirectory())
      throw unprocessable('TARGET_IS_A_DIRECTORY', `${relative} is a directory in the node root`, {
        path: relative,
      });
    return { target, exists: true };
  } catch (error) {
    if (errno(error) === 'ENOENT') return { target, exists: false };
    throw error;
  }
}

async function makeDirectory(directory: string, relative: string): Promise<void> {
  try {
    await fsp.mkdir(directory, { mode: 0o755 });
  } catch (error) {
    if (errno(error) !== 'EEXIST') throw error;
    // Created meanwhile by someone else: it must be a real directory, not a symlink planted in the race.
    const stat = await fsp.lstat(directory);
    if (!stat.isDirectory()) throw outsideRoot(relative);
  }
}

const outsideRoot = (relative: string) =>
  unprocessable('PATH_OUTSIDE_ROOT', `${relative} leads out of the node root through a symbolic link`, {
    path: relative,
  });

/** The temp file of a session: `<root>/.infragate-uploads/<uploadId>.part`. */
function tempFilePath(root: string, uploadId: string): string {
  return path.join(root, TEMP_DIR_NAME, `${uploadId}.part`);
}

/** Creates the empty temp file of a new session (the temp directory too, mode 0700, never a symlink). */
export async function createTempFile(root: string, uploadId: string): Promise<void> {
  const directory = path.join(root, TEMP_DIR_NAME);
  await fsp.mkdir(directory, { mode: 0o700 }).catch((error) => {
    if (errno(error) !== 'EEXIST') throw error;
  });
  if (!(await fsp.lstat(directory)).isDirectory())
    throw unprocessable('TEMP_DIR_INVALID', `${directory} must be a directory, not a link`);
  const handle = await fsp.open(
    tempFilePath(root, uploadId),
    fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY | fs.constants.O_NOFOLLOW,
    0o600,
  );
  await handle.close();
}

export async function removeTempFile(root: string, uploadId: string): Promise<void> {
  await fsp.rm(tempFilePath(root, uploadId), { force: true });
}

/** Ids of the sessions that have temp files under a root (for the orphan sweep). */
export async function listTempUploads(root: string): Promise<string[]> {
  try {
    const names = await fsp.readdir(path.join(root, TEMP_DIR_NAME));
    return names.filter((name) => /^[0-9a-f-]{36}\.part$/.test(name)).map((name) => name.slice(0, 36));
  } catch {
    return [];
  }
}

export interface ChunkTarget {
  root: string;
  uploadId: string;
  /** Where the chunk starts in the temp file (the session's receivedBytes). */
  offset: number;
  body: Readable | undefined;
  maxBytes: number;
  /** Sees every block once it is written, in order (e.g. to hash the file as it arrives). */
  onWritten?: ((buffers: Buffer[]) => void) | undefined;
}

export interface ChunkWrite {
  /** Bytes written at `offset` and fsynced (all of them, or those received before an interruption). */
  written: number;
  /** The body went past `maxBytes`: nothing was kept. */
  overflow: boolean;
  /** The body stream failed (client went away); `written` bytes are durable nonetheless. */
  interrupted?: unknown;
}

export class TempDataLostError extends Error {}

/**
 * Streams `body` into the temp file at `offset`, in blocks of at most 1 MiB (memory stays flat), and
 * fsyncs before answering. Bytes past `offset` left by an unacknowledged earlier attempt are dropped
 * first. When more than `maxBytes` arrive, reading stops and the file is cut back to `offset`.
 */
export async function writeChunk({
  root,
  uploadId,
  offset,
  body,
  maxBytes,
  onWritten,
}: ChunkTarget): Promise<ChunkWrite> {
  const handle = await fsp
    .open(tempFilePath(root, uploadId), fs.constants.O_RDWR | fs.constants.O_NOFOLLOW)
    .catch((error) => {
      if (errno(error) === 'ENOENT') throw new TempDataLostError('temp file is missing');
      throw error;
    });
  let background: Promise<void> | undefined;
  try {
    const { size } = await handle.stat();
    if (size < offset) throw new TempDataLostError(`temp file holds ${size} bytes, ${offset} acknowledged`);
    if (size > offset) await handle.truncate(offset);
    if (!body) return { written: 0, overflow: false };

    let position = offset;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let syncKickedAt = offset;
    const kickSync = () => {
      if (background || position - syncKickedAt < EARLY_SYNC_BYTES) return;
      syncKickedAt = position;
      // Errors surface in the final fsync below, which every path awaits.
      background = handle
        .datasync()
        .catch(() => undefined)
        .finally(() => {
          background = undefined;
        });
    };
    const settle = async () => {
      await background;
      await handle.sync();
    };
    const flush = async () => {
      if (pendingBytes === 0) return;
      const buffers = pending;
      const bytes = pendingBytes;
      pending = [];
      pendingBytes = 0;
      const { bytesWritten } = await handle.writev(buffers, position);
      if (bytesWritten !== bytes) throw new Error(`short write: ${bytesWritten} of ${bytes} bytes`);
      position += bytes;
      onWritten?.(buffers);
      kickSync();
    };
    try {
      // destroyOnReturn false: on overflow the request stays open so the 400/413 answer still reaches the client.
      for await (const data of body.iterator({ destroyOnReturn: false })) {
        const buffer = data as Buffer;
        if (position - offset + pendingBytes + buffer.length > maxBytes) {
          pending = [];
          pendingBytes = 0;
          await background;
          await handle.truncate(offset);
          await handle.sync();
          return { written: 0, overflow: true };
        }
        pending.push(buffer);
        pendingBytes += buffer.length;
        if (pendingBytes >= WRITE_BLOCK_BYTES) await flush();
      }
      await flush();
    } catch (interrupted) {
      // What arrived before the client went away is intact: keep it so the client can resume after it.
      await flush();
      await settle();
      return { written: position - offset, overflow: false, interrupted };
    }
    await settle();
    return { written: position - offset, overflow: false };
  } finally {
    await background;
    await handle.close();
  }
}

async function hashFile(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  const handle = await fsp.open(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  // The stream closes the handle when it ends or fails.
  for await (const data of handle.createReadStream({ highWaterMark: WRITE_BLOCK_BYTES }))
    hash.update(data as Buffer);
  return hash.digest('hex');
}

/** SHA-256 of the temp file, streamed. */
export const hashTempFile = (root: string, uploadId: string) => hashFile(tempFilePath(root, uploadId));

/**
 * Whether the file at `relative` is the finished upload (size, and checksum when one was given):
 * recognises a publish whose status change was lost to a crash.
 */
export async function publishedFileMatches(
  root: string,
  relative: string,
  size: number,
  sha256: string | null,
): Promise<boolean> {
  try {
    const { target, exists } = await resolveTarget(root, relative);
    if (!exists) return false;
    const stat = await fsp.lstat(target);
    if (!stat.isFile() || stat.size !== size) return false;
    return sha256 === null || (await hashFile(target)) === sha256;
  } catch {
    return false;
  }
}

/** Size of the temp file, or -1 when it is gone. */
export async function tempFileSize(root: string, uploadId: string): Promise<number> {
  try {
    return (await fsp.lstat(tempFilePath(root, uploadId))).size;
  } catch {
    return -1;
  }
}

/**
 * Moves the finished temp file to `relative` atomically: `rename` when replacing is allowed, else
 * `link` + `unlink` (which refuses an existing file atomically: 409 FILE_EXISTS). The parent
 * directory is fsynced so the new name survives a crash.
 */
export async function publishTempFile(
  root: string,
  uploadId: string,
  relative: string,
  overwrite: boolean,
): Promise<string> {
  const temp = tempFilePath(root, uploadId);
  const { target } = await resolveTarget(root, relative, true);
  if (overwrite) {
    await fsp.rename(temp, target);
  } else {
    try {
      await fsp.link(temp, target);
    } catch (error) {
      if (errno(error) === 'EEXIST') throw fileExists(relative);
      throw error;
    }
    await fsp.unlink(temp);
  }
  await fsyncDirectory(path.dirname(target));
  await fsyncDirectory(path.dirname(temp));
  return target;
}

export const fileExists = (relative: string) =>
  conflict('FILE_EXISTS', {
    path: relative,
    explanation: 'a file already exists at this path; create the session with overwrite: true to replace it',
  });

/** Free bytes for unprivileged writers on the filesystem holding `root`. */
export async function freeBytes(root: string): Promise<number> {
  const stats = await fsp.statfs(root);
  return stats.bavail * stats.bsize;
}
