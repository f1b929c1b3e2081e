import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { LRUCache } from 'lru-cache';
import type { BlobStore } from './blob-store.js';
import type { DeploymentContent, SiteDirectory, SiteFileEntry, SiteSelector } from './site-lookup.js';
import type { HeaderChanges } from './site-rules/headers-file.js';
import type { RedirectStatus } from './site-rules/redirects-file.js';
import { RULE_FILES } from './site-rules/site-rules.js';

export type MissingReason =
  | 'SITE_NOT_FOUND'
  | 'NO_PRODUCTION_DEPLOYMENT'
  | 'DEPLOYMENT_NOT_FOUND'
  | 'FILE_NOT_FOUND';

export type SiteAnswer =
  | {
      kind: 'file';
      status: 200 | 404;
      file: SiteFileEntry;
      /** Absent for HEAD and 304; otherwise the bytes (cached) or a stream of the blob. */
      body?: Buffer | Readable;
      notModified: boolean;
      /** What the deployment's `_headers` rules add to or take from this answer. */
      headers: HeaderChanges;
    }
  | { kind: 'redirect'; status: RedirectStatus; location: string }
  | { kind: 'missing'; reason: MissingReason };

export interface SiteRequest {
  site: SiteSelector;
  /** A deployment to serve instead of production (a preview); it must belong to the site. */
  deploymentId?: string | undefined;
  /** The path below the site root as requested, already percent-decoded, without a leading `/`. */
  path: string;
  /** The path of the request as sent (for redirects), without the query. */
  requestPath: string;
  /** Where the site root is as the visitor sees it (`/sites/docs`, or empty on the site's own host). */
  root: string;
  query: string;
  ifNoneMatch?: string | undefined;
  head: boolean;
}

const BODY_CACHE_BYTES = 64 * 1024 * 1024;
const BODY_CACHE_MAX_FILE = 1024 * 1024;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** `"abc"`, `W/"abc"`, lists, and `*` all match the way RFC 9110 says for If-None-Match. */
function etagMatches(header: string | undefined, sha256: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === `"${sha256}"`);
}

const isMissingBlob = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * Answers a request for a file of a site, wherever the site is served (`/sites/<slug>/`, a preview,
 * a custom domain or the base domain): the deployment's `_redirects` rules, its files, directory
 * index pages, the SPA fallback and its `404.html`, and the `_headers` rules for the answer. Small
 * file bodies are cached by hash; larger ones are streamed from the blob store.
 */
export class SiteServer {
  private readonly bodies = new LRUCache<string, Buffer>({
    maxSize: BODY_CACHE_BYTES,
    sizeCalculation: (body) => body.length,
  });

  constructor(private readonly deps: { directory: SiteDirectory; blobs: BlobStore }) {}

  async serve(request: SiteRequest): Promise<SiteAnswer> {
    const site = await this.deps.directory.site(request.site);
    if (!site) return { kind: 'missing', reason: 'SITE_NOT_FOUND' };
    let deploymentId = site.productionDeploymentId;
    if (request.deploymentId !== undefined) {
      const owner = UUID.test(request.deploymentId)
        ? await this.deps.directory.ownerOf(request.deploymentId)
        : null;
      if (owner !== site.projectId) return { kind: 'missing', reason: 'DEPLOYMENT_NOT_FOUND' };
      deploymentId = request.deploymentId;
    }
    if (!deploymentId) return { kind: 'missing', reason: 'NO_PRODUCTION_DEPLOYMENT' };
    try {
      return await this.answer(await this.deps.directory.content(deploymentId), site.spaFallback, request);
    } catch (error) {
      // A deployment deleted while it was being served: its blobs are gone with it.
      if (isMissingBlob(error)) return { kind: 'missing', reason: 'DEPLOYMENT_NOT_FOUND' };
      throw error;
    }
  }

  private async answer(
    content: DeploymentContent,
    spaFallback: boolean,
    request: SiteRequest,
  ): Promise<SiteAnswer> {
    const { files, rules } = content;
    const visible = (path: string) => (RULE_FILES.includes(path) ? undefined : files.get(path));
    const rulePath = `/${request.path}`;
    const serve = (file: SiteFileEntry, status: 200 | 404) =>
      this.file(file, status, request, rules.headers.changesFor(rulePath));

    const wanted = normalise(request.path);
    const directory = wanted === '' || request.path.endsWith('/');
    const exact = wanted === undefined ? undefined : visible(directory ? joinIndex(wanted) : wanted);
    const indexOfDirectory = wanted !== undefined && !directory && files.has(joinIndex(wanted));

    const outcome = rules.redirects.apply(
      rulePath,
      Boolean(exact) || indexOfDirectory,
      request.query,
      request.root,
    );
    if (outcome?.kind === 'redirect') return outcome;
    if (outcome?.kind === 'serve') {
      const target = normalise(outcome.path.slice(1));
      const file = target === undefined ? undefined : (visible(target) ?? visible(joinIndex(target)));
      return file ? serve(file, outcome.status) : this.notFound(files, serve);
    }
    if (exact) return serve(exact, 200);
    if (indexOfDirectory) {
      return { kind: 'redirect', status: 301, location: `${request.requestPath}/${request.query}` };
    }
    if (spaFallback) {
      const index = files.get('index.html');
      if (index) return serve(index, 200);
    }
    return this.notFound(files, serve);
  }

  private async notFound(
    files: Map<string, SiteFileEntry>,
    serve: (file: SiteFileEntry, status: 404) => Promise<SiteAnswer>,
  ): Promise<SiteAnswer> {
    const page = files.get('404.html');
    if (page) return serve(page, 404);
    return { kind: 'missing', reason: 'FILE_NOT_FOUND' };
  }

  private async file(
    file: SiteFileEntry,
    status: 200 | 404,
    request: SiteRequest,
    headers: HeaderChanges,
  ): Promise<SiteAnswer> {
    const notModified = status === 200 && etagMatches(request.ifNoneMatch, file.sha256);
    if (notModified || request.head) return { kind: 'file', status, file, notModified, headers };
    return { kind: 'file', status, file, notModified, headers, body: await this.body(file) };
  }

  private async body(file: SiteFileEntry): Promise<Buffer | Readable> {
    const blobPath = this.deps.blobs.blobPath(file.sha256);
    if (file.sizeBytes > BODY_CACHE_MAX_FILE) {
      // Opened here, so a missing blob is an answer rather than an error in the middle of a stream.
      const handle = await fs.promises.open(blobPath, 'r');
      return handle.createReadStream();
    }
    const cached = this.bodies.get(file.sha256);
    if (cached) return cached;
    const body = await fs.promises.readFile(blobPath);
    this.bodies.set(file.sha256, body);
    return body;
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
