import { eq } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Deps } from '../../core/deps.js';
import type { Db } from '../../db/client.js';
import { pagesDeploymentFiles, pagesDeployments, pagesProjects } from '../../db/schema/index.js';
import { fileColumns } from './columns.js';
import type { DeploymentFile } from './schemas.js';
import { loadSiteRules, type SiteRules } from './site-rules/site-rules.js';

/** Told when what a project serves may have changed, so cached lookups are dropped. */
export interface SiteInvalidation {
  forgetSite(projectId: string, slug: string): void;
  /** A deployment was deleted: its preview stops at once in this gateway (within a second in others). */
  forgetDeployment(deploymentId: string): void;
}

/** A site is asked for by its slug (`/sites/<slug>/`, the base domain) or its project (a custom domain). */
export type SiteSelector = { slug: string } | { projectId: string };

export interface SiteRecord {
  projectId: string;
  slug: string;
  spaFallback: boolean;
  productionDeploymentId: string | null;
}

export type SiteFileEntry = Omit<DeploymentFile, 'path'>;

/** What one deployment holds: its files by path and its `_redirects` / `_headers` rules. */
export interface DeploymentContent {
  files: Map<string, SiteFileEntry>;
  rules: SiteRules;
}

const SITE_TTL_MS = 1000;
const SITE_CACHE_ENTRIES = 10_000;
const CONTENT_CACHE_ENTRIES = 64;

const keyOf = (selector: SiteSelector) =>
  'slug' in selector ? `slug:${selector.slug}` : `project:${selector.projectId}`;

/**
 * The lookups behind serving a site. Deployments never change once created, so their file lists and
 * rules are cached by deployment id; which deployment a site serves, and whether a deployment still
 * exists, is looked up again (at most a second old, and dropped at once when this gateway changes it).
 */
export class SiteDirectory implements SiteInvalidation {
  private readonly sites = new LRUCache<string, { site: SiteRecord | null }>({
    max: SITE_CACHE_ENTRIES,
    ttl: SITE_TTL_MS,
  });
  private readonly owners = new LRUCache<string, { projectId: string | null }>({
    max: SITE_CACHE_ENTRIES,
    ttl: SITE_TTL_MS,
  });
  private readonly contents = new LRUCache<string, DeploymentContent>({ max: CONTENT_CACHE_ENTRIES });
  private readonly db: Db;

  private readonly readBlob: (sha256: string) => Promise<Buffer>;

  constructor(deps: Pick<Deps, 'db'> & { readBlob: (sha256: string) => Promise<Buffer> }) {
    this.db = deps.db;
    this.readBlob = deps.readBlob;
  }

  forgetSite(projectId: string, slug: string): void {
    this.sites.delete(keyOf({ slug }));
    this.sites.delete(keyOf({ projectId }));
  }

  forgetDeployment(deploymentId: string): void {
    this.owners.delete(deploymentId);
    this.contents.delete(deploymentId);
  }

  async site(selector: SiteSelector): Promise<SiteRecord | null> {
    const key = keyOf(selector);
    const cached = this.sites.get(key);
    if (cached) return cached.site;
    const [row] = await this.db
      .select({
        projectId: pagesProjects.id,
        slug: pagesProjects.slug,
        spaFallback: pagesProjects.spaFallback,
        productionDeploymentId: pagesProjects.productionDeploymentId,
      })
      .from(pagesProjects)
      .where(
        'slug' in selector ? eq(pagesProjects.slug, selector.slug) : eq(pagesProjects.id, selector.projectId),
      );
    const site = row ?? null;
    this.sites.set(key, { site });
    return site;
  }

  /** The project a deployment belongs to, or null once it is deleted (or never existed). */
  async ownerOf(deploymentId: string): Promise<string | null> {
    const cached = this.owners.get(deploymentId);
    if (cached) return cached.projectId;
    const [row] = await this.db
      .select({ projectId: pagesDeployments.projectId })
      .from(pagesDeployments)
      .where(eq(pagesDeployments.id, deploymentId));
    const projectId = row?.projectId ?? null;
    this.owners.set(deploymentId, { projectId });
    return projectId;
  }

  async content(deploymentId: string): Promise<DeploymentContent> {
    const cached = this.contents.get(deploymentId);
    if (cached) return cached;
    const rows = await this.db
      .select(fileColumns)
      .from(pagesDeploymentFiles)
      .where(eq(pagesDeploymentFiles.deploymentId, deploymentId));
    const files = new Map(rows.map(({ path, ...entry }) => [path, entry]));
    // Rules are validated at upload; a deployment from before that is served with the rules that parse.
    const { rules } = await loadSiteRules(files, this.readBlob);
    const content = { files, rules };
    this.contents.set(deploymentId, content);
    return content;
  }
}
