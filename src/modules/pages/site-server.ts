import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Deps } from '../../core/deps.js';
import type { Db } from '../../db/client.js';
import { pagesDeploymentFiles, pagesProjects } from '../../db/schema/index.js';
import type { BlobStore } from './blob-store.js';
import { fileColumns } from './columns.js';
import type { DeploymentFile } from './schemas.js';

/** Told when what a slug serves may have changed, so cached lookups are dropped. */
export interface SiteInvalidation {
  forgetSlug(slug: string): void;
}

type SiteFileEntry = Omit<DeploymentFile, 'path'>;

interface SiteRecord {
  spaFallback: boolean;
  deploymentId: string | null;
}

export type SiteAnswer =
  | {
      kind: 'file';
      status: 200 | 404;
      file: SiteFileEntry;
      /** Absent for HEAD and 304; otherwise the bytes (cached) or a stream of the blob. */
      body?: Buffer | Readable;
      notModified: boolean;
    }
  | { kind: 'redirect'; location: string }
  | { kind: 'missing'; reason: 'SITE_NOT_FOUND' | 'NO_PRODUCTION_DEPLOYMENT' | 'FILE_NOT_FOUND' };

export interface SiteRequest {
  slug: string;
  /** The path below the site root as requested, already percent-decoded, without a leading `/`. */
  path: string;
  /** The path of the request as sent (for redirects), without the query. */
  requestPath: string;
  query: string;
  ifNoneMatch?: string | undefined;
  head: boolean;
}

const SLUG_TTL_MS = 1000;
const SLUG_CACHE_ENTRIES = 10_000;
const MANIFEST_CACHE_ENTRIES = 64;
const BODY_CACHE_BYTES = 64 * 1024 * 1024;
const BODY_CACHE_MAX_FILE = 1024 * 1024;

/** `"abc"`, `W/"abc"`, lists, and `*` all match the way RFC 9110 says for If-None-Match. */
function etagMatches(header: string | undefined, sha256: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === `"${sha256}"`);
}

/**
 * Answers requests for `/sites/<slug>/…` from the production deployment of a project. Deployments
 * never change once created, so their file lists and small file bodies are cached by deployment id
 * and hash; only "which deployment does this slug serve" is looked up again (at most a second old,
 * and dropped at once when this gateway changes it).
 */
export class SiteServer implements SiteInvalidation {
  private readonly slugs = new LRUCache<string, { site: SiteRecord | null }>({
    max: SLUG_CACHE_ENTRIES,
    ttl: SLUG_TTL_MS,
  });
  private readonly manifests = new LRUCache<string, Map<string, SiteFileEntry>>({
    max: MANIFEST_CACHE_ENTRIES,
  });
  private readonly bodies = new LRUCache<string, Buffer>({
    maxSize: BODY_CACHE_BYTES,
    sizeCalculation: (body) => body.length,
  });

  private readonly db: Db;
  private readonly blobs: BlobStore;

  constructor(deps: Pick<Deps, 'db'> & { blobs: BlobStore }) {
    this.db = deps.db;
    this.blobs = deps.blobs;
  }

  forgetSlug(slug: string): void {
    this.slugs.delete(slug);
  }

  async serve(request: SiteRequest): Promise<SiteAnswer> {
    const site = await this.site(request.slug);
    if (!site) return { kind: 'missing', reason: 'SITE_NOT_FOUND' };
    if (!site.deploymentId) return { kind: 'missing', reason: 'NO_PRODUCTION_DEPLOYMENT' };
    const files = await this.manifest(site.deploymentId);

    const wanted = normalise(request.path);
    if (wanted === undefined) return this.notFound(files, request);
    const directory = wanted === '' || request.path.endsWith('/');
    const exact = directory ? files.get(joinIndex(wanted)) : files.get(wanted);
    if (exact) return this.file(exact, 200, request);
    if (!directory && files.has(joinIndex(wanted))) {
      return { kind: 'redirect', location: `${request.requestPath}/${request.query}` };
    }
    if (site.spaFallback) {
      const index = files.get('index.html');
      if (index) return this.file(index, 200, request);
    }
    return this.notFound(files, request);
  }

  private async notFound(files: Map<string, SiteFileEntry>, request: SiteRequest): Promise<SiteAnswer> {
    const page = files.get('404.html');
    if (page) return this.file(page, 404, request);
    return { kind: 'missing', reason: 'FILE_NOT_FOUND' };
  }

  private async file(file: SiteFileEntry, status: 200 | 404, request: SiteRequest): Promise<SiteAnswer> {
    const notModified = status === 200 && etagMatches(request.ifNoneMatch, file.sha256);
    if (notModified || request.head) return { kind: 'file', status, file, notModified };
    return { kind: 'file', status, file, notModified, body: await this.body(file) };
  }

  private async body(file: SiteFileEntry): Promise<Buffer | Readable> {
    const blobPath = this.blobs.blobPath(file.sha256);
    if (file.sizeBytes > BODY_CACHE_MAX_FILE) return fs.createReadStream(blobPath);
    const cached = this.bodies.get(file.sha256);
    if (cached) return cached;
    const body = await fs.promises.readFile(blobPath);
    this.bodies.set(file.sha256, body);
    return body;
  }

  private async site(slug: string): Promise<SiteRecord | null> {
    const cached = this.slugs.get(slug);
    if (cached) return cached.site;
    const [row] = await this.db
      .select({
        spaFallback: pagesProjects.spaFallback,
        deploymentId: pagesProjects.productionDeploymentId,
      })
      .from(pagesProjects)
      .where(eq(pagesProjects.slug, slug));
    const site = row ?? null;
    this.slugs.set(slug, { site });
    return site;
  }

  private async manifest(deploymentId: string): Promise<Map<string, SiteFileEntry>> {
    const cached = this.manifests.get(deploymentId);
    if (cached) return cached;
    const rows = await this.db
      .select(fileColumns)
      .from(pagesDeploymentFiles)
      .where(eq(pagesDeploymentFiles.deploymentId, deploymentId));
    const files = new Map(rows.map(({ path, ...entry }) => [path, entry]));
    this.manifests.set(deploymentId, files);
    return files;
  }
}

function joinIndex(directory: string): string {
  return directory === '' ? 'index.html' : `${directory}/index.html`;
}

/** `a//b/./c/` → `a/b/c`; undefined for anything with `..` or control characters. */
function normalise(requested: string): string | undefined {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are refused
  if (/[\u0000-\u001f\u007f\\]/.test(requested)) return undefined;
  const segments = requested.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) return undefined;
  return segments.join('/');
}
