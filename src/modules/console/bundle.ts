import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import mime from 'mime-types';
import { packagePath } from '../../package-root.js';

/** `npm run build` writes the console to dist/web at the package root. */
export const CONSOLE_BUILD_DIR = packagePath('dist', 'web');

export interface ConsoleFile {
  body: Buffer;
  /** The gzip form, kept when the type compresses and it is smaller. */
  gzipped: Buffer | undefined;
  contentType: string;
  etag: string;
}

interface LoadedBundle {
  page: ConsoleFile | undefined;
  assets: ReadonlyMap<string, ConsoleFile>;
}

const gzip = promisify(zlib.gzip);
const COMPRESSIBLE = /^(text\/|application\/(javascript|json)|image\/svg)/;

async function readConsoleFile(file: string): Promise<ConsoleFile> {
  const body = await fs.readFile(file);
  const contentType = mime.contentType(path.extname(file)) || 'application/octet-stream';
  const compressed = COMPRESSIBLE.test(contentType) ? await gzip(body, { level: 9 }) : undefined;
  return {
    body,
    gzipped: compressed && compressed.length < body.length ? compressed : undefined,
    contentType,
    etag: `"${crypto.createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
  };
}

async function readBundle(dir: string): Promise<LoadedBundle> {
  const page = await readConsoleFile(path.join(dir, 'index.html')).catch(() => undefined);
  const names = await fs.readdir(path.join(dir, 'assets')).catch(() => [] as string[]);
  const assets = new Map<string, ConsoleFile>();
  for (const name of names) assets.set(name, await readConsoleFile(path.join(dir, 'assets', name)));
  return { page, assets };
}

/**
 * The built console, read (and compressed) once on first use and kept in memory: a few hundred
 * kilobytes that every browser asks for. Only files that exist in the build can be answered, so a
 * request path never reaches the file system.
 */
export class ConsoleBundle {
  private loading: Promise<LoadedBundle> | undefined;

  constructor(private readonly dir: string = CONSOLE_BUILD_DIR) {}

  /** `index.html`, which every console page starts from; undefined when the console is not built. */
  async page(): Promise<ConsoleFile | undefined> {
    return (await this.load()).page;
  }

  /** A hashed file of `assets/` by its name. */
  async asset(name: string): Promise<ConsoleFile | undefined> {
    return (await this.load()).assets.get(name);
  }

  private load(): Promise<LoadedBundle> {
    this.loading ??= readBundle(this.dir);
    return this.loading;
  }
}
