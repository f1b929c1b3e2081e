import type { GatewayModule } from '../../core/app.js';
import { DataOf, IdParams, PageOf, Success } from '../../core/http-schemas.js';
import { EngineNodeService } from './engine-nodes.js';
import { FolderService } from './folders.js';
import { HealthCheckService } from './health-checks.js';
import { ResourceService } from './resources.js';
import {
  Disconnection,
  DisconnectQuery,
  FileMove,
  StopOptions,
  VolumeWriteQuery,
} from './schemas/actions.js';
import {
  EngineNode,
  EngineNodeChanges,
  EngineNodeRegistration,
  EngineNodeWithEngine,
} from './schemas/engine-nodes.js';
import {
  Folder,
  FolderChanges,
  FolderCreation,
  FolderListQuery,
  ResourceReorder,
} from './schemas/folders.js';
import {
  HealthCheckSaveBody,
  HealthCheckTestBody,
  HealthResult,
  SavedHealthCheck,
  SavedHealthResult,
  SavedHealthResultQuery,
} from './schemas/health-checks.js';
import {
  ContainerNameParams,
  ContainerParams,
  ImageParams,
  InspectContainerParams,
  InspectNetworkParams,
  InspectVolumeParams,
  ListQuery,
  NetworkParams,
  NodeParams,
  VolumeParams,
} from './schemas/params.js';
import {
  ContainerDetail,
  ContainerListQuery,
  ContainerSummary,
  ImageDetail,
  ImageSummary,
  NetworkDetail,
  NetworkSummary,
  Volume,
  VolumeSummary,
} from './schemas/resources.js';

const view = { scope: 'containerhost:view' };
const manage = { scope: 'containerhost:manage' };
const tags = ['containerhost'];

/** Lets routes whose body is optional be called without one (validated as `{}`). */
const emptyBodyAsObject = async (request: { body: unknown }) => {
  if (request.body === undefined || request.body === null) request.body = {};
};

/** Container hosts over the Docker Engine API (`containerhost:view` / `containerhost:manage`). */
const containerhostRoutes: GatewayModule = async (app) => {
  const { deps } = app;
  const engineNodes = new EngineNodeService(deps);
  const resources = new ResourceService(deps, engineNodes);
  const healthChecks = new HealthCheckService(deps, engineNodes);
  const folders = new FolderService(deps);
  healthChecks.registerJob();

  // Raw uploads (volume file write) are parsed only inside this plugin, bounded by the write limit.
  app.addContentTypeParser(
    'application/octet-stream',
    { parseAs: 'buffer', bodyLimit: deps.config.volumeWriteLimitBytes },
    (_request, body, done) => done(null, body),
  );

  // ---- engine nodes-----------------------------------------------------------------------------
  app.get(
    '/api/containerhost/nodes',
    {
      config: view,
      schema: {
        tags,
        summary: 'List container-host nodes',
        querystring: ListQuery,
        response: { 200: PageOf(EngineNode) },
      },
    },
    async (request) => engineNodes.list(request.query),
  );

  app.post(
    '/api/containerhost/nodes',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Register a node (TLS material and SSH keys are stored encrypted and never returned)',
        body: EngineNodeRegistration,
        response: { 201: DataOf(EngineNode) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await engineNodes.create(request.actor, request.body) }),
  );

  app.get(
    '/api/containerhost/nodes/:nodeId',
    {
      config: view,
      schema: {
        tags,
        summary: "Get a node with its engine's reachability and version (422 when unreachable)",
        params: NodeParams,
        response: { 200: DataOf(EngineNodeWithEngine) },
      },
    },
    async (request) => ({ data: await engineNodes.get(request.params.nodeId) }),
  );

  app.patch(
    '/api/containerhost/nodes/:nodeId',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Change a node (null clears a secret)',
        params: NodeParams,
        body: EngineNodeChanges,
        response: { 200: DataOf(EngineNode) },
      },
    },
    async (request) => ({
      data: await engineNodes.update(request.actor, request.params.nodeId, request.body),
    }),
  );

  app.delete(
    '/api/containerhost/nodes/:nodeId',
    {
      config: manage,
      schema: { tags, summary: 'Remove a node', params: NodeParams, response: { 200: Success } },
    },
    async (request) => {
      await engineNodes.remove(request.actor, request.params.nodeId);
      return { success: true };
    },
  );

  // ---- read models ----------------------------------------------------------------------------
  app.get(
    '/api/containerhost/nodes/:nodeId/containers',
    {
      config: view,
      schema: {
        tags,
        summary: 'List containers (running only unless ?all=true), in saved sort order',
        params: NodeParams,
        querystring: ContainerListQuery,
        response: { 200: PageOf(ContainerSummary) },
      },
    },
    async (request) => resources.listContainers(request.params.nodeId, request.query),
  );

  app.get(
    '/api/containerhost/nodes/:nodeId/containers/:containerId',
    {
      config: view,
      schema: {
        tags,
        summary: 'Inspect a container (its environment is never returned)',
        params: InspectContainerParams,
        response: { 200: DataOf(ContainerDetail) },
      },
    },
    async (request) => ({
      data: await resources.inspectContainer(request.params.nodeId, request.params.containerId),
    }),
  );

  app.get(
    '/api/containerhost/nodes/:nodeId/networks',
    {
      config: view,
      schema: {
        tags,
        summary: 'List networks, in saved sort order',
        params: NodeParams,
        querystring: ListQuery,
        response: { 200: PageOf(NetworkSummary) },
      },
    },
    async (request) => resources.listNetworks(request.params.nodeId, request.query),
  );

  app.get(
    '/api/containerhost/nodes/:nodeId/networks/:networkId',
    {
      config: view,
      schema: {
        tags,
        summary: 'Inspect a network',
        params: InspectNetworkParams,
        response: { 200: DataOf(NetworkDetail) },
      },
    },
    async (request) => ({
      data: await resources.inspectNetwork(request.params.nodeId, request.params.networkId),
    }),
  );

  app.get(
    '/api/containerhost/nodes/:nodeId/volumes',
    {
      config: view,
      schema: {
        tags,
        summary: 'List volumes, in saved sort order',
        params: NodeParams,
        querystring: ListQuery,
        response: { 200: PageOf(VolumeSummary) },
      },
    },
    async (request) => resources.listVolumes(request.params.nodeId, request.query),
  );

  app.get(
    '/api/containerhost/nodes/:nodeId/volumes/:name',
    {
      config: view,
      schema: {
        tags,
        summary: 'Inspect a volume',
        params: InspectVolumeParams,
        response: { 200: DataOf(Volume) },
      },
    },
    async (request) => ({ data: await resources.inspectVolume(request.params.nodeId, request.params.name) }),
  );

  app.get(
    '/api/containerhost/nodes/:nodeId/images',
    {
      config: view,
      schema: {
        tags,
        summary: 'List images, in saved sort order',
        params: NodeParams,
        querystring: ListQuery,
        response: { 200: PageOf(ImageSummary) },
      },
    },
    async (request) => resources.listImages(request.params.nodeId, request.query),
  );

  app.get(
    '/api/containerhost/nodes/:nodeId/images/:imageId',
    {
      config: view,
      schema: {
        tags,
        summary: 'Inspect an image',
        params: ImageParams,
        response: { 200: DataOf(ImageDetail) },
      },
    },
    async (request) => ({
      data: await resources.inspectImage(request.params.nodeId, request.params.imageId),
    }),
  );

  // ---- actions (contract endpoints 22, 4, 7, 19) ---------------------------------------------
  app.post(
    '/api/containerhost/nodes/:nodeId/containers/:containerId/stop',
    {
      config: manage,
      preValidation: emptyBodyAsObject,
      schema: {
        tags,
        summary: 'Stop a container (already stopped is success)',
        params: ContainerParams,
        body: StopOptions,
        response: { 200: Success },
      },
    },
    async (request) => {
      const { nodeId, containerId } = request.params;
      await resources.stopContainer(request.actor, nodeId, containerId, request.body.timeout);
      return { success: true };
    },
  );

  app.post(
    '/api/containerhost/nodes/:nodeId/networks/:networkId/disconnect',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Disconnect a container from a network (built-in networks need ?force=true)',
        params: NetworkParams,
        querystring: DisconnectQuery,
        body: Disconnection,
        response: { 200: Success },
      },
    },
    async (request) => {
      const { nodeId, networkId } = request.params;
      await resources.disconnectNetwork(
        request.actor,
        nodeId,
        networkId,
        request.body.containerId,
        request.query.force ?? false,
      );
      return { success: true };
    },
  );

  app.post(
    '/api/containerhost/nodes/:nodeId/containers/:containerId/files/move',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Move a file or directory inside a running container (exec of mv, no shell)',
        params: ContainerParams,
        body: FileMove,
        response: { 200: Success },
      },
    },
    async (request) => {
      const { nodeId, containerId } = request.params;
      await resources.moveFile(
        request.actor,
        nodeId,
        containerId,
        request.body.fromPath,
        request.body.toPath,
      );
      return { success: true };
    },
  );

  app.put(
    '/api/containerhost/nodes/:nodeId/volumes/:name/files/write',
    {
      config: manage,
      // JSON bodies carry base64, so they may be a third larger than the file they describe.
      bodyLimit: Math.ceil(deps.config.volumeWriteLimitBytes * 1.4) + 64 * 1024,
      schema: {
        tags,
        summary:
          'Write a file into a volume: raw body (application/octet-stream) with ?path=, or JSON {path, content, encoding: utf8|base64}',
        params: VolumeParams,
        querystring: VolumeWriteQuery,
        response: { 200: Success },
      },
    },
    async (request) => {
      const { nodeId, name } = request.params;
      await resources.writeVolumeFile(request.actor, nodeId, name, {
        body: request.body,
        queryPath: request.query.path,
      });
      return { success: true };
    },
  );

  // ---- health checks (contract endpoint 10) ---------------------------------------------------
  const healthPath = '/api/containerhost/nodes/:nodeId/containers/:containerName/health-check';
  app.post(
    `${healthPath}/test`,
    {
      config: manage,
      preValidation: emptyBodyAsObject,
      schema: {
        tags,
        summary: "Probe a container over HTTP(S) once now (the saved config, overlaid by the body's fields)",
        params: ContainerNameParams,
        body: HealthCheckTestBody,
        response: { 200: DataOf(HealthResult) },
      },
    },
    async (request) => ({
      data: await healthChecks.test(request.params.nodeId, request.params.containerName, request.body),
    }),
  );

  app.get(
    healthPath,
    {
      config: view,
      schema: {
        tags,
        summary: "Get a container's saved health check",
        params: ContainerNameParams,
        response: { 200: DataOf(SavedHealthCheck) },
      },
    },
    async (request) => ({
      data: await healthChecks.getSaved(request.params.nodeId, request.params.containerName),
    }),
  );

  app.put(
    healthPath,
    {
      config: manage,
      schema: {
        tags,
        summary: "Save a container's health check (runs every intervalSeconds in the background)",
        params: ContainerNameParams,
        body: HealthCheckSaveBody,
        response: { 200: DataOf(SavedHealthCheck) },
      },
    },
    async (request) => ({
      data: await healthChecks.save(
        request.actor,
        request.params.nodeId,
        request.params.containerName,
        request.body,
      ),
    }),
  );

  app.delete(
    healthPath,
    {
      config: manage,
      schema: {
        tags,
        summary: "Delete a container's saved health check and its results",
        params: ContainerNameParams,
        response: { 200: Success },
      },
    },
    async (request) => {
      await healthChecks.remove(request.actor, request.params.nodeId, request.params.containerName);
      return { success: true };
    },
  );

  app.get(
    `${healthPath}/results`,
    {
      config: view,
      schema: {
        tags,
        summary: 'The latest results of a saved health check, newest first',
        params: ContainerNameParams,
        querystring: SavedHealthResultQuery,
        response: { 200: PageOf(SavedHealthResult) },
      },
    },
    async (request) =>
      healthChecks.results(request.params.nodeId, request.params.containerName, request.query),
  );

  // ---- folders (contract endpoint 21) ---------------------------------------------------------
  app.get(
    '/api/containerhost/folders',
    {
      config: view,
      schema: {
        tags,
        summary: 'List resource folders with their resources in sort order',
        querystring: FolderListQuery,
        response: { 200: PageOf(Folder) },
      },
    },
    async (request) => folders.list(request.query),
  );

  app.post(
    '/api/containerhost/folders',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Create a resource folder',
        body: FolderCreation,
        response: { 201: DataOf(Folder) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await folders.create(request.actor, request.body) }),
  );

  app.put(
    '/api/containerhost/folders/reorder-resources',
    {
      config: manage,
      schema: {
        tags,
        summary: "Upsert every item's sort order (and optionally its folder) in one transaction",
        body: ResourceReorder,
        response: { 200: Success },
      },
    },
    async (request) => {
      await folders.reorder(request.actor, request.body);
      return { success: true };
    },
  );

  app.get(
    '/api/containerhost/folders/:id',
    {
      config: view,
      schema: {
        tags,
        summary: 'Get a resource folder',
        params: IdParams,
        response: { 200: DataOf(Folder) },
      },
    },
    async (request) => ({ data: await folders.get(request.params.id) }),
  );

  app.put(
    '/api/containerhost/folders/:id',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Rename or re-sort a resource folder',
        params: IdParams,
        body: FolderChanges,
        response: { 200: DataOf(Folder) },
      },
    },
    async (request) => ({ data: await folders.update(request.actor, request.params.id, request.body) }),
  );

  app.delete(
    '/api/containerhost/folders/:id',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Delete a resource folder (its resources keep their sort order)',
        params: IdParams,
        response: { 200: Success },
      },
    },
    async (request) => {
      await folders.remove(request.actor, request.params.id);
      return { success: true };
    },
  );
};

export default containerhostRoutes;
