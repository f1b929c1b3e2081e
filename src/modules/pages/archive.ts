import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import tar from 'tar-stream';
import yauzl from 'yauzl';
import { AppError, invalidField, unprocessable, validationError } from '../../core/errors.js';
import type { ArchiveFormat } from '../../db/schema/index.js';
import type { BlobStaging } from './blob-store.js';

/**
 * Reads a deployment archive (.tar.gz, .tar or .zip) entry by entry and stages every regular file
 * into content-addressed storage. Nothing is extracted to a path taken from the archive: entry names
 * are sanitised into site paths (no absolute paths, no `..`, no control characters), and links are
 * resolved to the files they name inside the site or the archive is refused.
 */

export interface ExtractLimits {
  maxSiteBytes: number;
  maxFiles: number;
  /** Leading path segments dropped from every entry (like `tar --strip-components`). */
  stripComponents: number;
}

export interface SiteFile {
  path: string;
  sha256: string;
  sizeBytes: number;
}

const MAX_PATH_LENGTH = 1024;
const MAX_SEGMENT_LENGTH = 255;
const MAX_LINK_TARGET_BYTES = 4096;
const MAX_LINK_DEPTH = 16;

/** Detects the format from the first bytes, whatever the declared content type. */
export async function detectFormat(file: string): Promise<ArchiveFormat | undefined> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const head = Buffer.alloc(512);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    if (bytesRead >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'tar.gz';
    if (bytesRead >= 4 && head.readUInt32LE(0) === 0x04034b50) return 'zip';
    if (bytesRead >= 22 && head.readUInt32LE(0) === 0x06054b50) return 'zip';
    if (bytesRead >= 262 && head.subarray(257, 262).toString('latin1') === 'ustar') return 'tar';
    return undefined;
  } finally {
    await handle.close();
  }
}

function unsafePath(entry: string, explanation: string): AppError {
  return unprocessable('ARCHIVE_PATH_UNSAFE', explanation, { entry: entry.slice(0, 300) });
}

/**
 * Turns an archive entry name into a site path such as `assets/app.js`, or `undefined` when the
 * entry is the root itself or is stripped away. Throws 422 ARCHIVE_PATH_UNSAFE for anything that
 * could escape the site root.
 */
function sitePath(name: string, stripComponents = 0): string | undefined {
  if (name.includes('\\')) throw unsafePath(name, 'entry names must use / as the separator');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we refuse
  if (/[\u0000-\u001f\u007f]/.test(name))
    throw unsafePath(name, 'entry names must not contain control characters');
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name))
    throw unsafePath(name, 'entry names must be relative; absolute paths are refused');
  const segments = name.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) throw unsafePath(name, 'entry names must not contain .. segments');
  if (segments.some((segment) => Buffer.byteLength(segment) > MAX_SEGMENT_LENGTH))
    throw unsafePath(name, `a path segment is longer than ${MAX_SEGMENT_LENGTH} bytes`);
  const kept = segments.slice(stripComponents);
  if (kept.length === 0) return undefined;
  const result = kept.join('/');
  if (Buffer.byteLength(result) > MAX_PATH_LENGTH)
    throw unsafePath(name, `paths longer than ${MAX_PATH_LENGTH} bytes are refused`);
  return result;
}

interface PendingLink {
  path: string;
  /** Already resolved to a site path (hard links) or relative to the link (symbolic links). */
  target: string;
  kind: 'symlink' | 'hardlink';
  entry: string;
}

/** Collects staged files and links while an archive is read, enforcing the limits as bytes arrive. */
class SiteCollector {
  readonly files = new Map<string, SiteFile>();
  readonly links: PendingLink[] = [];
  private entries = 0;
  private totalBytes = 0;

  constructor(
    private readonly staging: BlobStaging,
    private readonly limits: ExtractLimits,
  ) {}

  countEntry(): void {
    this.entries += 1;
    // Directories and links count too, so an archive of a million empty entries stops early.
    if (this.entries > this.limits.maxFiles * 2 + 100) throw tooManyFiles(this.limits.maxFiles);
  }

  async addFile(name: string, content: AsyncIterable<Buffer>): Promise<void> {
    const site = sitePath(name, this.limits.stripComponents);
    if (site === undefined) {
      for await (const _chunk of content);
      return;
    }
    const staged = await this.staging.stage(content, (bytes) => {
      this.totalBytes += bytes;
      if (this.totalBytes > this.limits.maxSiteBytes) throw tooLarge(this.limits.maxSiteBytes);
    });
    this.files.set(site, { path: site, sha256: staged.sha256, sizeBytes: staged.sizeBytes });
    if (this.files.size > this.limits.maxFiles) throw tooManyFiles(this.limits.maxFiles);
  }

  addSymlink(name: string, target: string): void {
    const site = sitePath(name, this.limits.stripComponents);
    if (site === undefined) return;
    if (target.startsWith('/') || /^[A-Za-z]:/.test(target) || target.includes('\\'))
      throw linkOutside(name, target);
    this.links.push({ path: site, target, kind: 'symlink', entry: name });
  }

  addHardlink(name: string, target: string): void {
    const site = sitePath(name, this.limits.stripComponents);
    if (site === undefined) return;
    let resolved: string | undefined;
    try {
      resolved = sitePath(target, this.limits.stripComponents);
    } catch {
      throw linkOutside(name, target);
    }
    if (resolved === undefined) throw linkOutside(name, target);
    this.links.push({ path: site, target: resolved, kind: 'hardlink', entry: name });
  }

  /** Links become copies of the files they name (same blob); links outside the site are refused. */
  resolveLinks(): void {
    const byPath = new Map(this.links.map((link) => [link.path, link]));
    const resolveOne = (link: PendingLink, depth: number): SiteFile => {
      if (depth > MAX_LINK_DEPTH)
        throw unprocessable('ARCHIVE_LINK_UNRESOLVED', 'links nest too deeply or form a loop', {
          entry: link.entry,
        });
      let target = link.target;
      if (link.kind === 'symlink') {
        const joined = path.posix.normalize(path.posix.join(path.posix.dirname(link.path), link.target));
        if (joined === '..' || joined.startsWith('../')) throw linkOutside(link.entry, link.target);
        target = joined.replace(/\/+$/, '');
      }
      const file = this.files.get(target);
      if (file) return file;
      const next = byPath.get(target);
      if (next) return resolveOne(next, depth + 1);
      throw unprocessable(
        'ARCHIVE_LINK_UNRESOLVED',
        'a link names no regular file of the archive (links to directories are not supported)',
        { entry: link.entry, target: link.target },
      );
    };
    const resolved = this.links.map((link) => ({ link, file: resolveOne(link, 0) }));
    for (const { link, file } of resolved) {
      this.files.set(link.path, { ...file, path: link.path });
      this.totalBytes += file.sizeBytes;
    }
    if (this.totalBytes > this.limits.maxSiteBytes) throw tooLarge(this.limits.maxSiteBytes);
    if (this.files.size > this.limits.maxFiles) throw tooManyFiles(this.limits.maxFiles);
  }
}

function linkOutside(entry: string, target: string): AppError {
  return unprocessable('ARCHIVE_LINK_OUTSIDE', 'links must point to a file inside the site', {
    entry: entry.slice(0, 300),
    target: target.slice(0, 300),
  });
}

export function tooLarge(limit: number): AppError {
  return validationError(
    [{ path: [], message: `the extracted site is larger than the limit of ${limit} bytes` }],
    413,
  );
}

function tooManyFiles(limit: number): AppError {
  return validationError([{ path: [], message: `the archive holds more than ${limit} files` }], 413);
}

function corrupt(format: ArchiveFormat, error: unknown): AppError {
  const reason = error instanceof Error ? error.message : String(error);
  return invalidField([], `body is not a valid ${format} archive: ${reason.slice(0, 200)}`);
}

/** Reads the archive at `file` and stages its files; answers the site's files by path. */
export async function extractArchive(
  file: string,
  format: ArchiveFormat,
  staging: BlobStaging,
  limits: ExtractLimits,
): Promise<SiteFile[]> {
  const collector = new SiteCollector(staging, limits);
  try {
    if (format === 'zip') await readZip(file, collector);
    else await readTar(file, format === 'tar.gz', collector);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw corrupt(format, error);
  }
  collector.resolveLinks();
  return [...collector.files.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

async function readTar(file: string, gzipped: boolean, collector: SiteCollector): Promise<void> {
  const source = fs.createReadStream(file);
  const extract = tar.extract();
  const fail = (error: Error) => extract.destroy(error);
  source.on('error', fail);
  if (gzipped) {
    const gunzip = zlib.createGunzip();
    gunzip.on('error', fail);
    source.pipe(gunzip).pipe(extract);
  } else {
    source.pipe(extract);
  }
  try {
    for await (const entry of extract) {
      collector.countEntry();
      const { name, type, linkname } = entry.header;
      switch (type) {
        case 'file':
        case 'contiguous-file':
          await collector.addFile(name, entry as AsyncIterable<Buffer>);
          break;
        case 'directory':
          sitePath(name);
          entry.resume();
          break;
        case 'symlink':
          collector.addSymlink(name, linkname ?? '');
          entry.resume();
          break;
        case 'link':
          collector.addHardlink(name, linkname ?? '');
          entry.resume();
          break;
        default:
          throw unprocessable(
            'ARCHIVE_ENTRY_UNSUPPORTED',
            'only regular files, directories and links are accepted',
            { entry: name.slice(0, 300), type },
          );
      }
    }
  } finally {
    source.destroy();
  }
}

interface ZipEntry {
  fileName: string;
  externalFileAttributes: number;
  versionMadeBy: number;
  uncompressedSize: number;
  isEncrypted(): boolean;
}

interface ZipFile {
  eachEntry(): AsyncIterable<ZipEntry>;
  openReadStreamPromise(entry: ZipEntry): Promise<Readable>;
  close(): void;
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

async function readZip(file: string, collector: SiteCollector): Promise<void> {
  let zip: ZipFile;
  try {
    zip = (await (
      yauzl as unknown as { openPromise(file: string, options: object): Promise<ZipFile> }
    ).openPromise(file, {
      autoClose: true,
      decodeStrings: true,
      validateEntrySizes: true,
      strictFileNames: false,
    })) as ZipFile;
  } catch (error) {
    throw corrupt('zip', error);
  }
  try {
    for await (const entry of zip.eachEntry()) {
      collector.countEntry();
      const name = entry.fileName;
      if (name.endsWith('/')) {
        sitePath(name);
        continue;
      }
      if (entry.isEncrypted())
        throw unprocessable('ARCHIVE_ENTRY_UNSUPPORTED', 'encrypted zip entries are not supported', {
          entry: name.slice(0, 300),
        });
      const unixMode = entry.versionMadeBy >> 8 === 3 ? entry.externalFileAttributes >>> 16 : 0;
      if ((unixMode & S_IFMT) === S_IFLNK) {
        if (entry.uncompressedSize > MAX_LINK_TARGET_BYTES) throw linkOutside(name, '(too long)');
        const chunks: Buffer[] = [];
        for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
        collector.addSymlink(name, Buffer.concat(chunks).toString('utf8'));
        continue;
      }
      await collector.addFile(name, (await zip.openReadStreamPromise(entry)) as AsyncIterable<Buffer>);
    }
  } catch (error) {
    zip.close();
    if (
      error instanceof Error &&
      /^(invalid relative path|absolute path|invalid characters in fileName)/.test(error.message)
    )
      throw unsafePath(
        error.message.replace(/^[^:]*: /, ''),
        'entry names must be relative and must not contain .. or \\',
      );
    throw error;
  }
}
