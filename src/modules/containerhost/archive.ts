import { PassThrough, type Readable } from 'node:stream';
import { extract, type Header, pack } from 'tar-stream';
import { notFound, unprocessable } from '../../core/errors.js';
import type { EnginePort } from './engine-port.js';
import type { DirectoryEntry, DirectoryListing, EntryType } from './schemas/files.js';

// Files in a container through the engine's archive API, which needs nothing inside the container (no
// shell, no tools): stat a path (HEAD), read a directory or a file out of a tar (GET), write a tar (PUT).
// The same code serves volumes, through a helper container that mounts the volume.

/** What the engine says about one path. */
export interface PathInfo {
  size: number;
  /** Permission bits (and setuid/setgid/sticky). */
  permissions: number;
  directory: boolean;
  symlink: boolean;
  linkTarget: string | null;
}

/** Where the operation happens: a container, and the directory inside it that paths are relative to. */
export interface ArchiveTarget {
  engine: EnginePort;
  containerId: string;
  /** `''` for a container's own root, `/volume` for a helper container's mounted volume. */
  root: string;
  /** What a 404 names (node, container or volume). */
  what: Record<string, unknown>;
}

const MAX_ENTRIES = 10_000;
/** The archive of a directory holds its whole tree; a listing reads at most this much of it. */
const LIST_SCAN_LIMIT_BYTES = 64 * 1024 * 1024;

const inRoot = (target: ArchiveTarget, path: string) =>
  path === '/' ? target.root || '/' : `${target.root}${path}`;

/** The engine's description of a path; undefined when nothing is there. */
export async function statPath(target: ArchiveTarget, path: string): Promise<PathInfo | undefined> {
  const stat = await target.engine.statPath(target.containerId, inRoot(target, path));
  if (!stat) return undefined;
  // Go's os.FileMode: bit 31 is a directory, bit 27 a symbolic link, the low 12 bits the permissions.
  const symlink = Math.floor(stat.mode / 2 ** 27) % 2 === 1;
  return {
    size: stat.size,
    permissions: stat.mode % 2 ** 12,
    directory: Math.floor(stat.mode / 2 ** 31) % 2 === 1,
    symlink,
    linkTarget: symlink ? stat.linkTarget || null : null,
  };
}

/** The path's description, refusing what is missing (404) or a symbolic link (422: name its target). */
export async function existingPath(target: ArchiveTarget, path: string): Promise<PathInfo> {
  const info = await statPath(target, path);
  if (!info) throw notFound({ ...target.what, path, reason: 'NO_SUCH_PATH' });
  if (info.symlink)
    throw unprocessable('TARGET_IS_SYMLINK', `${path} is a symbolic link; ask for its target`, {
      linkTarget: info.linkTarget,
    });
  return info;
}

const TYPES: Record<string, EntryType> = {
  file: 'file',
  'contiguous-file': 'file',
  directory: 'directory',
  symlink: 'symlink',
  link: 'hardlink',
};

/** Lists a directory's direct entries from the tar the engine streams of it. */
export async function listDirectory(target: ArchiveTarget, path: string): Promise<DirectoryListing> {
  const info = await existingPath(target, path);
  if (!info.directory) throw unprocessable('NOT_A_DIRECTORY', `${path} is a file, not a directory`);
  const controller = new AbortController();
  const stream = await target.engine.readArchive(target.containerId, inRoot(target, path), controller.signal);
  try {
    const listing = await target.engine.withinDeadline(readListing(stream), target.what);
    return { path, ...listing };
  } finally {
    controller.abort();
  }
}

function readListing(stream: Readable): Promise<Omit<DirectoryListing, 'path'>> {
  return new Promise((resolve, reject) => {
    const entries: DirectoryEntry[] = [];
    let rootDepth: number | undefined;
    let scanned = 0;
    const tar = extract();
    const stop = (truncated: boolean) => {
      stream.unpipe(tar);
      tar.destroy();
      resolve({ entries: entries.sort((a, b) => a.name.localeCompare(b.name)), truncated });
    };
    stream.on('data', (chunk: Buffer) => {
      scanned += chunk.length;
      if (scanned > LIST_SCAN_LIMIT_BYTES) stop(true);
    });
    tar.on('entry', (header: Header, body, next) => {
      // Engines name entries `dir/child` (or `/child` for the root); the first entry is the directory.
      const segments = header.name.split('/').filter((segment: string) => segment !== '' && segment !== '.');
      rootDepth ??= segments.length;
      const depth = rootDepth;
      if (segments.length === depth + 1) {
        if (entries.length === MAX_ENTRIES) return stop(true);
        entries.push(entryOf(segments.at(-1)!, header));
      }
      body.on('end', next);
      body.resume();
    });
    tar.on('finish', () => stop(false));
    tar.on('error', reject);
    stream.on('error', reject);
    stream.pipe(tar);
  });
}

function entryOf(name: string, header: Header): DirectoryEntry {
  const type = TYPES[header.type ?? 'file'] ?? 'other';
  return {
    name,
    type,
    size: type === 'file' ? (header.size ?? 0) : 0,
    mode: `0${((header.mode ?? 0) % 2 ** 12).toString(8).padStart(3, '0')}`,
    mtime: header.mtime ?? null,
    linkTarget: header.linkname || null,
  };
}

/** A file's bytes as a stream, with its size; destroying the stream ends the engine's. */
export interface FileRead {
  size: number;
  stream: Readable;
}

/** Opens one regular file for reading (a directory or symbolic link is 422, nothing there 404). */
export async function readFile(target: ArchiveTarget, path: string, signal: AbortSignal): Promise<FileRead> {
  const info = await existingPath(target, path);
  if (info.directory) throw unprocessable('TARGET_IS_DIRECTORY', `${path} is a directory, not a file`);
  const stream = await target.engine.readArchive(target.containerId, inRoot(target, path), signal);
  const opened = new Promise<FileRead>((resolve, reject) => {
    const tar = extract();
    const out = new PassThrough();
    out.once('close', () => stream.destroy());
    tar.once('entry', (header: Header, body) => {
      resolve({ size: header.size ?? 0, stream: out });
      body.pipe(out);
      // Only the first entry matters; the rest of the tar (padding, end blocks) is not read.
      body.once('end', () => stream.destroy());
    });
    tar.once('finish', () => reject(unprocessable('EMPTY_ARCHIVE', `the engine sent no file for ${path}`)));
    tar.on('error', reject);
    stream.on('error', (error) => out.destroy(error));
    stream.pipe(tar);
  });
  try {
    return await target.engine.withinDeadline(opened, target.what);
  } catch (error) {
    stream.destroy();
    throw error;
  }
}

/**
 * Tar extraction replaces whatever is in the way (a directory by the file, a file by a directory), so
 * the target's parents are checked first: existing parents must be real directories (no symbolic
 * links), and only missing parents are created. Answers the missing parents, outermost first.
 */
export async function missingParents(target: ArchiveTarget, path: string): Promise<string[]> {
  const segments = path.split('/').filter(Boolean);
  const missing: string[] = [];
  for (let depth = segments.length - 1; depth > 0; depth--) {
    const parent = `/${segments.slice(0, depth).join('/')}`;
    const found = await statPath(target, parent);
    if (!found) {
      missing.unshift(parent);
      continue;
    }
    if (!found.directory || found.symlink)
      throw unprocessable(
        'PARENT_NOT_DIRECTORY',
        `${parent} exists and is not a directory, so ${path} cannot be written`,
      );
    break;
  }
  return missing;
}

/**
 * Checks that a file may be written at `path` (nothing there, or a regular file, which is replaced and
 * keeps its permissions) and answers what the write must hold: the missing parents and the file's mode
 * (0644 for a new file).
 */
export async function prepareFileWrite(
  target: ArchiveTarget,
  path: string,
): Promise<{ parents: string[]; permissions: number; replaces: boolean }> {
  const existing = await statPath(target, path);
  if (existing && (existing.directory || existing.symlink))
    throw unprocessable(
      existing.directory ? 'TARGET_IS_DIRECTORY' : 'TARGET_IS_SYMLINK',
      `${path} is a ${existing.directory ? 'directory' : 'symbolic link'}; it is left as it is`,
    );
  return {
    parents: await missingParents(target, path),
    permissions: existing?.permissions ?? 0o644,
    replaces: existing !== undefined,
  };
}

/** What a write extracts: directories (mode 0755) and at most one file. */
export interface ArchiveContent {
  directories: string[];
  file?: { path: string; content: Buffer; permissions: number };
}

/**
 * Writes directories and a file in one tar through the archive API. tar-stream writes a PAX header for
 * names too long for the ustar fields.
 */
export async function writeArchive(target: ArchiveTarget, content: ArchiveContent): Promise<void> {
  const archive = pack();
  const relative = (path: string) => path.replace(/^\/+/, '');
  for (const dir of content.directories)
    archive.entry({ name: relative(dir), type: 'directory', mode: 0o755 });
  if (content.file)
    archive.entry(
      { name: relative(content.file.path), mode: content.file.permissions },
      content.file.content,
    );
  archive.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of archive) chunks.push(chunk as Buffer);
  await target.engine.writeArchive(target.containerId, target.root || '/', Buffer.concat(chunks));
}
