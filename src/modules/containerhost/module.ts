import type { GatewayModule } from '../../core/app.js';
import { OpenStreams } from '../../core/sse.js';
import { ContainerExecService } from './container-exec.js';
import { ContainerFileService } from './container-files.js';
import { ContainerLogService } from './container-logs.js';
import { ContainerStatsService } from './container-stats.js';
import { ContainerService } from './containers.js';
import { EngineNodeService } from './engine-nodes.js';
import { FolderService } from './folders.js';
import { HEALTH_JOB, HealthCheckService } from './health-checks.js';
import { HealthOverviewService } from './health-overview.js';
import { HelperContainers } from './helper-containers.js';
import { ImagePuller } from './image-pull.js';
import { ImageService } from './images.js';
import { NetworkService } from './networks.js';
import { RegistryCredentialService } from './registry-credentials.js';
import { ResourceService } from './resources.js';
import { containerFileRoutes } from './routes/container-files.js';
import { containerStreamRoutes } from './routes/container-streams.js';
import { containerRoutes } from './routes/containers.js';
import { engineNodeRoutes } from './routes/engine-nodes.js';
import { execRoutes } from './routes/exec.js';
import { folderRoutes } from './routes/folders.js';
import { healthCheckRoutes } from './routes/health-checks.js';
import { healthOverviewRoutes } from './routes/health-overview.js';
import { imageRoutes } from './routes/images.js';
import { networkRoutes } from './routes/networks.js';
import { registryCredentialRoutes } from './routes/registry-credentials.js';
import { resourceRoutes } from './routes/resources.js';
import { volumeFileRoutes } from './routes/volume-files.js';
import { volumeRoutes } from './routes/volumes.js';
import { VolumeFileService } from './volume-files.js';
import { VolumeService } from './volumes.js';

const NODES = '/api/containerhost/nodes';
const NODE = `${NODES}/:nodeId`;
const CONTAINER = `${NODE}/containers/:containerId`;

/**
 * Container hosts over the Docker Engine API: builds each service once, registers the health-check
 * job, and mounts each routes file under its URL prefix.
 */
const containerhostModule: GatewayModule = async (app) => {
  const { deps } = app;
  const engineNodes = new EngineNodeService(deps);
  const resources = new ResourceService({ ...deps, engineNodes });
  const registryCredentials = new RegistryCredentialService({ ...deps, engineNodes });
  const puller = new ImagePuller({ ...deps, registryCredentials });
  const helpers = new HelperContainers({ ...deps, puller });
  const healthChecks = new HealthCheckService({ ...deps, engineNodes });
  const writeLimitBytes = deps.config.volumeWriteLimitBytes;

  // Due checks are claimed with SKIP LOCKED, so every gateway instance may run the job.
  deps.jobs.register({
    name: HEALTH_JOB,
    intervalMs: 5_000,
    everyInstance: true,
    run: () => healthChecks.runDue(),
  });

  // Streams and downloads end when the gateway closes (an open one would hold the server open).
  const streams = new OpenStreams();
  app.addHook('preClose', async () => streams.abortAll());

  // Raw uploads (volume and container files) are parsed only inside this module, bounded by the limit.
  app.addContentTypeParser(
    'application/octet-stream',
    { parseAs: 'buffer', bodyLimit: writeLimitBytes },
    (_request, body, done) => done(null, body),
  );

  await app.register(engineNodeRoutes, { prefix: NODES, engineNodes });
  await app.register(resourceRoutes, { prefix: NODE, resources });
  await app.register(containerRoutes, {
    prefix: `${NODE}/containers`,
    containers: new ContainerService({ ...deps, engineNodes, resources, puller }),
  });
  await app.register(containerStreamRoutes, {
    prefix: CONTAINER,
    logs: new ContainerLogService({ engineNodes }),
    stats: new ContainerStatsService({ engineNodes }),
    streams,
  });
  await app.register(execRoutes, {
    prefix: CONTAINER,
    exec: new ContainerExecService({ ...deps, engineNodes }),
  });
  await app.register(containerFileRoutes, {
    prefix: `${CONTAINER}/files`,
    containerFiles: new ContainerFileService({ ...deps, engineNodes }),
    uploadLimitBytes: writeLimitBytes,
    streams,
  });
  await app.register(volumeRoutes, {
    prefix: `${NODE}/volumes`,
    volumes: new VolumeService({ ...deps, engineNodes, resources }),
  });
  await app.register(volumeFileRoutes, {
    prefix: `${NODE}/volumes/:name/files`,
    volumeFiles: new VolumeFileService({ ...deps, engineNodes, helpers }),
    writeLimitBytes,
    streams,
  });
  await app.register(networkRoutes, {
    prefix: `${NODE}/networks`,
    networks: new NetworkService({ ...deps, engineNodes, resources }),
  });
  await app.register(imageRoutes, {
    prefix: `${NODE}/images`,
    images: new ImageService({ ...deps, engineNodes, resources, puller }),
    streams,
  });
  await app.register(registryCredentialRoutes, {
    prefix: `${NODE}/registry-credentials`,
    registryCredentials,
  });
  await app.register(healthCheckRoutes, {
    prefix: `${NODE}/containers/:containerName/health-check`,
    healthChecks,
  });
  await app.register(healthOverviewRoutes, {
    prefix: '/api/containerhost/health-checks',
    overview: new HealthOverviewService(deps),
  });
  await app.register(folderRoutes, {
    prefix: '/api/containerhost/folders',
    folders: new FolderService(deps),
  });
};

export default containerhostModule;
