import type { GatewayModule } from '../../core/app.js';
import { NodeRoots } from './node-roots.js';
import { storageNodeRoutes } from './routes/storage-nodes.js';
import { uploadRoutes } from './routes/uploads.js';
import { StorageNodeService } from './storage-nodes.js';
import { UploadDigests } from './upload-digests.js';
import { UploadLeases } from './upload-lease.js';
import { UploadService } from './upload-service.js';
import { UPLOAD_SWEEP_JOB, UploadSweep } from './upload-sweep.js';

/**
 * Storage nodes: builds the node and upload services once (sharing where roots may be), owns the upload sweep (expired sessions,
 * orphaned temp files) and registers the node and upload routes.
 */
const nodesModule: GatewayModule = async (app) => {
  const { deps } = app;
  const digests = new UploadDigests();
  const leases = new UploadLeases(deps);
  const roots = new NodeRoots(deps.config);
  const storageNodes = new StorageNodeService({ ...deps, roots });
  const uploads = new UploadService({ ...deps, leases, digests, roots });
  const sweep = new UploadSweep({ ...deps, digests, roots });

  deps.jobs.register({
    name: UPLOAD_SWEEP_JOB,
    intervalMs: deps.config.uploadSweepSeconds * 1000,
    run: async () => {
      await sweep.run();
    },
  });

  await app.register(storageNodeRoutes, { prefix: '/api/nodes', storageNodes });
  await app.register(uploadRoutes, {
    prefix: '/api/nodes/:id/files/uploads',
    uploads,
    maxChunkBytes: deps.config.uploadMaxChunkBytes,
  });
};

export default nodesModule;
