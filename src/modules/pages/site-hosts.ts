import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../../core/deps.js';
import type { GatewayHostnames } from '../../core/gateway-hostnames.js';
import { hostOfHeader, isBelow } from '../../core/hostnames.js';
import type { Db } from '../../db/client.js';
import { pagesDomains } from '../../db/schema/index.js';
import type { SiteSelector } from './site-lookup.js';

/** What a request's Host names: a site, and for a preview host the deployment to serve. */
export interface HostTarget {
  site: SiteSelector;
  deploymentId?: string;
  preview: boolean;
}

/** Told when the verified custom domains changed, so the next request reads them again. */
export interface DomainInvalidation {
  forgetDomains(): void;
}

/** Verified domains are read again at most this often (and at once after a change in this gateway). */
const DOMAINS_TTL_MS = 1000;

/**
 * Which requests belong to a site by their Host header: a verified custom domain serves its
 * project's production deployment, `<slug>.<baseDomain>` a project's production deployment and
 * `<deploymentId>.<slug>.<baseDomain>` one deployment (a preview). Any other name under the base
 * domain belongs to sites too (and finds none); the base domain itself, the gateway's own names
 * (`GatewayHostnames`, even where a domain added before they were reserved claims one) and every
 * other name are the gateway's. The verified domains and the gateway's names are held in memory,
 * so deciding costs no query per request.
 */
export class SiteHosts implements DomainInvalidation {
  private domains = new Map<string, string>();
  private gatewayNames: ReadonlySet<string> = new Set();
  private loadedAt = Number.NEGATIVE_INFINITY;
  /** Bumped by every change, so a read that began before it does not count as fresh. */
  private generation = 0;
  private loading: Promise<boolean> | undefined;
  private readonly db: Db;
  private readonly log: FastifyBaseLogger;
  private readonly baseDomain: string | undefined;
  private readonly gatewayHostnames: GatewayHostnames;

  constructor(deps: Pick<Deps, 'db' | 'log' | 'config'> & { gatewayNames: GatewayHostnames }) {
    this.db = deps.db;
    this.log = deps.log;
    this.baseDomain = deps.config.pages.baseDomain;
    this.gatewayHostnames = deps.gatewayNames;
  }

  forgetDomains(): void {
    this.generation += 1;
    this.loadedAt = Number.NEGATIVE_INFINITY;
  }

  /** The site a Host header names, `null` for a name under the base domain that names none, or undefined when it is the gateway's. */
  async targetOf(hostHeader: string | undefined): Promise<HostTarget | null | undefined> {
    for (;;) {
      const known = this.knownTargetOf(hostHeader);
      if (known) return known.target;
      if (!(await this.reload())) return this.lookUp(hostOfHeader(hostHeader));
    }
  }

  /**
   * `targetOf` answered from memory while the verified domains are fresh, else undefined (read them
   * with `targetOf`). Every request asks this, so the common case makes no promise.
   */
  knownTargetOf(hostHeader: string | undefined): { target: HostTarget | null | undefined } | undefined {
    const host = hostOfHeader(hostHeader);
    if (host === undefined) return { target: undefined };
    if (Date.now() - this.loadedAt > DOMAINS_TTL_MS) return undefined;
    return { target: this.lookUp(host) };
  }

  private lookUp(host: string | undefined): HostTarget | null | undefined {
    if (host === undefined || this.gatewayNames.has(host)) return undefined;
    const projectId = this.domains.get(host);
    if (projectId) return { site: { projectId }, preview: false };
    const base = this.baseDomain;
    if (!base || !isBelow(host, base)) return undefined;
    const labels = host.slice(0, -(base.length + 1)).split('.');
    if (labels.length === 1) return { site: { slug: labels[0]! }, preview: false };
    if (labels.length === 2) return { site: { slug: labels[1]! }, deploymentId: labels[0]!, preview: true };
    return null;
  }

  /**
   * One read at a time of the verified domains and the gateway's names, shared by the requests
   * waiting for it. Answers false when it failed: the last ones are kept (the API fails on its own
   * when the database is down).
   */
  private reload(): Promise<boolean> {
    const generation = this.generation;
    this.loading ??= Promise.all([
      this.db
        .select({ hostname: pagesDomains.hostname, projectId: pagesDomains.projectId })
        .from(pagesDomains)
        .where(eq(pagesDomains.status, 'verified')),
      this.gatewayHostnames.names(),
    ])
      .then(([rows, gatewayNames]) => {
        this.domains = new Map(rows.map((row) => [row.hostname, row.projectId]));
        this.gatewayNames = gatewayNames;
        if (generation === this.generation) this.loadedAt = Date.now();
        return true;
      })
      .catch((error: unknown) => {
        this.log.error({ err: error }, 'could not read the verified pages domains');
        return false;
      })
      .finally(() => {
        this.loading = undefined;
      });
    return this.loading;
  }
}
