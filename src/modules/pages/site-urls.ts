import type { PagesConfig } from '../../config.js';
import type { Deployment } from './schemas.js';

/** A deployment as selected from the database, before its URL is added. */
export type DeploymentRow = Omit<Deployment, 'previewUrl'> & { projectSlug: string };

/**
 * Where sites answer, as the API reports it: under `/sites/` on the gateway's own origin, or, with a
 * pages base domain, on `<slug>.<baseDomain>` (production) and `<deploymentId>.<slug>.<baseDomain>`
 * (any deployment); custom domains at their own name.
 */
export class SiteUrls {
  constructor(private readonly config: Pick<PagesConfig, 'baseDomain' | 'urlScheme'>) {}

  project(slug: string): string {
    const { baseDomain } = this.config;
    return baseDomain ? this.origin(`${slug}.${baseDomain}`) : `/sites/${slug}/`;
  }

  preview(slug: string, deploymentId: string): string {
    const { baseDomain } = this.config;
    return baseDomain
      ? this.origin(`${deploymentId}.${slug}.${baseDomain}`)
      : `/sites/${slug}/~${deploymentId}/`;
  }

  domain(hostname: string): string {
    return this.origin(hostname);
  }

  deployment({ projectSlug, ...row }: DeploymentRow): Deployment {
    return { ...row, previewUrl: this.preview(projectSlug, row.id) };
  }

  private origin(host: string): string {
    return `${this.config.urlScheme}://${host}/`;
  }
}
