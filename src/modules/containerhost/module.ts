import type { GatewayModule } from '../../core/app.js';
import { ActionService } from './actions.js';
import { EngineNodeService } from './engine-nodes.js';
import { FolderService } from './folders.js';
import { HEALTH_JOB, HealthCheckService } from './health-checks.js';
import { ResourceService } from './resources.js';
import { actionRoutes } from './routes/actions.js';
import { engineNodeRoutes } from './routes/engine-nodes.js';
import { folderRoutes } from './routes/folders.js';
import { healthCheckRoutes } from './routes/health-checks.js';
import { resourceRoutes } from './routes/resources.js';
import { volumeFileRoutes } from './routes/volume-files.js';
import { VolumeFileService } from './volume-files.js';

const NODES = '/api/containerhost/nodes';
const NODE = `${NODES}/:nodeId`;

/**
 * Container hosts over the Docker Engine API: builds each service once, registers the health-check
 * job, and mounts each routes file under its URL prefix.
 */
const containerhostModule: GatewayModule = async (app) => {
  const { deps } = app;
  const engineNodes = new EngineNodeService(deps);
  const resources = new ResourceService({ ...deps, engineNodes });
  const actions = new ActionService({ ...deps, engineNodes });
  const volumeFiles = new VolumeFileService({ ...deps, engineNodes });
  const healthChecks = new HealthCheckService({ ...deps, engineNodes });
  const folders = new FolderService(deps);

  // Due checks are claimed with SKIP LOCKED, so every gateway instance may run the job.
  deps.jobs.register({
    name: HEALTH_JOB,
    intervalMs: 5_000,
    everyInstance: true,
    run: () => healthChecks.runDue(),
  });

  // Raw uploads (volume file write) are parsed only inside this module, bounded by the write limit.
  app.addContentTypeParser(
    'application/octet-stream',
    { parseAs: 'buffer', bodyLimit: deps.config.volumeWriteLimitBytes },
    (_request, body, done) => done(null, body),
  );

  await app.register(engineNodeRoutes, { prefix: NODES, engineNodes });
  await app.register(resourceRoutes, { prefix: NODE, resources });
  await app.register(actionRoutes, { prefix: NODE, actions });
  await app.register(volumeFileRoutes, {
    prefix: `${NODE}/volumes/:name/files`,
    volumeFiles,
    writeLimitBytes: deps.config.volumeWriteLimitBytes,
  });
  await app.register(healthCheckRoutes, {
    prefix: `${NODE}/containers/:containerName/health-check`,
    healthChecks,
  });
  await app.register(folderRoutes, { prefix: '/api/containerhost/folders', folders });
};

export default containerhostModule;
