import path from 'node:path';
import { systemActor } from '../../core/actor.js';
import type { GatewayModule } from '../../core/app.js';
import { BlobCollector } from './blob-gc.js';
import { BlobStore } from './blob-store.js';
import { DeploymentService } from './deployments.js';
import { ProjectService } from './projects.js';
import { RetentionService } from './retention.js';
import { deploymentRoutes } from './routes/deployments.js';
import { projectRoutes } from './routes/projects.js';
import { siteRoutes } from './routes/sites.js';
import { SiteServer } from './site-server.js';

const MAINTENANCE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Pages: builds the blob store, the site server and the services once, owns the maintenance job
 * (retention, orphaned blobs, stale staging directories) and registers the API and `/sites/` routes.
 */
const pagesModule: GatewayModule = async (app) => {
  const { deps } = app;
  const blobs = new BlobStore(path.join(deps.config.dataDir, 'pages'));
  await blobs.ensureDirs();
  const sites = new SiteServer({ db: deps.db, blobs });
  const gc = new BlobCollector({ db: deps.db, blobs });
  const retention = new RetentionService({ ...deps, blobs, gc });
  const projects = new ProjectService({ ...deps, gc, sites });
  const deployments = new DeploymentService({ ...deps, blobs, gc, retention, sites });

  deps.jobs.register({
    name: 'pages.maintenance',
    intervalMs: MAINTENANCE_INTERVAL_MS,
    run: async () => {
      await retention.maintain(systemActor());
    },
  });

  await app.register(projectRoutes, { prefix: '/api/pages', projects });
  await app.register(deploymentRoutes, { prefix: '/api/pages/:projectId/deployments', deployments });
  await app.register(siteRoutes, { prefix: '/sites', sites, sandbox: deps.config.pages.sandbox });
};

export default pagesModule;
