import fs from 'node:fs';
import path from 'node:path';
import { systemActor } from '../../core/actor.js';
import type { GatewayModule } from '../../core/app.js';
import { GatewayHostnames } from '../../core/gateway-hostnames.js';
import { BlobCollector } from './blob-gc.js';
import { BlobStore } from './blob-store.js';
import { DeployTokenService } from './deploy-tokens.js';
import { DeploymentService } from './deployments.js';
import { DomainCertificates } from './domain-certificates.js';
import { DomainOwnershipChecks } from './domain-checks.js';
import { DomainService } from './domains.js';
import { ProjectService } from './projects.js';
import { RetentionService } from './retention.js';
import { deployTokenRoutes } from './routes/deploy-tokens.js';
import { deploymentRoutes } from './routes/deployments.js';
import { domainRoutes } from './routes/domains.js';
import { projectRoutes } from './routes/projects.js';
import { siteHostRoutes } from './routes/site-hosts.js';
import { siteRoutes } from './routes/sites.js';
import { SiteHosts } from './site-hosts.js';
import { SiteDirectory, type SiteInvalidation } from './site-lookup.js';
import { SiteServer } from './site-server.js';
import { SiteUrls } from './site-urls.js';

const MAINTENANCE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Pages: builds the blob store, the site server and the services once, owns the maintenance job
 * (retention, orphaned blobs, stale staging directories) and registers the API, the `/sites/`
 * routes and serving by Host (custom domains, the pages base domain).
 */
const pagesModule: GatewayModule = async (app) => {
  const { deps } = app;
  const { sandbox } = deps.config.pages;
  const blobs = new BlobStore(path.join(deps.config.dataDir, 'pages'));
  await blobs.ensureDirs();
  const urls = new SiteUrls(deps.config.pages);
  const directory = new SiteDirectory({
    ...deps,
    readBlob: (sha256) => fs.promises.readFile(blobs.blobPath(sha256)),
  });
  const gatewayNames = new GatewayHostnames(deps);
  const hosts = new SiteHosts({ ...deps, gatewayNames });
  // A project renamed, deleted or promoted: what its slug, its id and its domains serve changes.
  const invalidation: SiteInvalidation = {
    forgetSite(projectId, slug) {
      directory.forgetSite(projectId, slug);
      hosts.forgetDomains();
    },
    forgetDeployment: (deploymentId) => directory.forgetDeployment(deploymentId),
  };
  const sites = new SiteServer({ directory, blobs });
  const gc = new BlobCollector({ db: deps.db, blobs });
  const retention = new RetentionService({ ...deps, blobs, gc });
  const certificates = new DomainCertificates({ ...deps, gatewayNames });
  // The TLS listener serves a verified domain's chosen certificate for its name.
  deps.certificateChoices.serve(certificates);
  const projects = new ProjectService({ ...deps, gc, sites: invalidation, urls, certificates });
  const deployments = new DeploymentService({ ...deps, blobs, gc, retention, sites: invalidation, urls });
  const domains = new DomainService({
    ...deps,
    checks: new DomainOwnershipChecks(deps),
    hosts,
    urls,
    certificates,
    gatewayNames,
  });
  const tokens = new DeployTokenService({ ...deps, projects });

  deps.jobs.register({
    name: 'pages.maintenance',
    intervalMs: MAINTENANCE_INTERVAL_MS,
    run: async () => {
      await retention.maintain(systemActor());
    },
  });

  await app.register(siteHostRoutes, { sites, hosts, domains, sandbox });
  await app.register(projectRoutes, { prefix: '/api/pages', projects, tokens });
  await app.register(deploymentRoutes, { prefix: '/api/pages/:projectId/deployments', deployments, tokens });
  await app.register(domainRoutes, { prefix: '/api/pages/:projectId/domains', domains });
  await app.register(deployTokenRoutes, { prefix: '/api/pages/:projectId/deploy-tokens', tokens });
  await app.register(siteRoutes, { prefix: '/sites', sites, sandbox });
};

export default pagesModule;
