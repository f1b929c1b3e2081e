import type { GatewayModule } from '../../core/app.js';
import { AgentEnrollment } from './agents/agent-enrollment.js';
import { AgentPresence } from './agents/agent-presence.js';
import { TunnelHub } from './agents/tunnel-hub.js';
import { NodeRoots } from './node-roots.js';
import { agentTunnelRoutes } from './routes/agent-tunnel.js';
import { storageNodeRoutes } from './routes/storage-nodes.js';
import { uploadRoutes } from './routes/uploads.js';
import { StorageNodeService } from './storage-nodes.js';
import { UploadDigests } from './upload-digests.js';
import { UploadLeases } from './upload-lease.js';
import { UploadService } from './upload-service.js';
import { UPLOAD_SWEEP_JOB, UploadSweep } from './upload-sweep.js';

/**
 * Storage nodes: builds the node and upload services once (sharing where roots may be), owns the upload sweep (expired sessions,
 * orphaned temp files), the agents' tunnels and their sweep, and registers the node, upload and agent routes.
 */
const nodesModule: GatewayModule = async (app) => {
  const { deps } = app;
  const digests = new UploadDigests();
  const leases = new UploadLeases(deps);
  const roots = new NodeRoots(deps.config);
  const enrollment = new AgentEnrollment(deps);
  const presence = new AgentPresence(deps);
  const hub = new TunnelHub({ ...deps, presence });
  const storageNodes = new StorageNodeService({ ...deps, roots, enrollment, hub });
  const uploads = new UploadService({ ...deps, leases, digests, roots });
  const sweep = new UploadSweep({ ...deps, digests, roots });

  deps.jobs.register({
    name: UPLOAD_SWEEP_JOB,
    intervalMs: deps.config.uploadSweepSeconds * 1000,
    run: async () => {
      await sweep.run();
    },
  });

  // Tunnels whose gateway instance went away unseen (no close, no heartbeat) count as offline.
  deps.jobs.register({
    name: 'nodes.agent-sweep',
    intervalMs: deps.config.agentHeartbeatSeconds * 1000,
    run: async () => {
      await presence.sweepSilent(new Date(Date.now() - 3 * deps.config.agentHeartbeatSeconds * 1000));
    },
  });
  const stopListening = await hub.listen();
  deps.onClose(async () => {
    hub.closeAll();
    await stopListening();
  });

  await app.register(agentTunnelRoutes, { prefix: '/agent', enrollment, hub });
  await app.register(storageNodeRoutes, { prefix: '/api/nodes', storageNodes });
  await app.register(uploadRoutes, {
    prefix: '/api/nodes/:id/files/uploads',
    uploads,
    maxChunkBytes: deps.config.uploadMaxChunkBytes,
  });
};

export default nodesModule;
