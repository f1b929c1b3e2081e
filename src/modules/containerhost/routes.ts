import { Type } from 'typebox';
import type { GatewayModule } from '../../core/app.js';
import {
  DataOf,
  Name,
  Nullable,
  PageOf,
  SearchText,
  StringEnum,
  Success,
  Timestamp,
  Uuid,
} from '../../core/http-schemas.js';
import { PaginationQueryFields } from '../../core/pagination.js';
import { BODY_MATCH_MODES, HEALTH_SCHEMES, HEALTH_STATUSES, RESOURCE_TYPES } from '../../db/schema/index.js';
import { FolderService } from './folders.js';
import { HEALTH_CHECK_DEFAULTS, type HealthCheckConfig, HealthCheckService } from './health-checks.js';
import { NodeService } from './nodes.js';
import { ResourceService } from './resources.js';

const view = { scope: 'containerhost:view' };
const manage = { scope: 'containerhost:manage' };
const tags = ['containerhost'];

const Labels = Type.Record(Type.String(), Type.String());
// Engine ids are 64 hex characters; names longer than that are addressed by id. (The router itself
// refuses path segments over 100 characters before validation could name the field.)
const Key = (description: string) => Type.String({ minLength: 1, maxLength: 64, description });

// ---- params ---------------------------------------------------------------------------------
const NodeId = Uuid('node id');
const NodeParams = Type.Object({ nodeId: NodeId });
const ContainerParams = Type.Object({ nodeId: NodeId, containerId: Key('container id or name') });
const ContainerNameParams = Type.Object({ nodeId: NodeId, containerName: Key('container name (or id)') });
const NetworkParams = Type.Object({ nodeId: NodeId, networkId: Key('network id or name') });
const VolumeParams = Type.Object({ nodeId: NodeId, name: Key('volume name') });
// In the inspect routes the key is the last segment: an empty one is the listing route itself
// (trailing slashes are ignored), so these keys carry no minimum length.
const LastKey = (description: string) => Type.String({ maxLength: 64, description });
const InspectContainerParams = Type.Object({ nodeId: NodeId, containerId: LastKey('container id or name') });
const InspectNetworkParams = Type.Object({ nodeId: NodeId, networkId: LastKey('network id or name') });
const InspectVolumeParams = Type.Object({ nodeId: NodeId, name: LastKey('volume name') });
const ImageParams = Type.Object({ nodeId: NodeId, imageId: LastKey('image id or reference') });
const FolderParams = Type.Object({ id: Uuid() });
const ListQuery = Type.Object({
  ...PaginationQueryFields,
  q: SearchText(),
});

// ---- records --------------------------------------------------------------------------------
const Pem = Type.String({ minLength: 1, maxLength: 65_536 });
const NodeFields = {
  name: Name,
  endpoint: Type.String({
    minLength: 1,
    maxLength: 2048,
    description: 'unix:///path.sock, tcp://host:port or ssh://user@host[:port]',
  }),
  tlsCa: Type.Optional(Nullable(Pem)),
  tlsCert: Type.Optional(Nullable(Pem)),
  tlsKey: Type.Optional(Nullable(Pem)),
  sshPrivateKey: Type.Optional(Nullable(Pem)),
  helperImage: Type.Optional(
    Nullable(
      Type.String({ minLength: 1, maxLength: 512, description: 'image for volume-write helper containers' }),
    ),
  ),
};
const Node = Type.Object({
  id: Uuid(),
  name: Type.String(),
  endpoint: Type.String(),
  transport: Type.String(),
  tls: Type.Object({ ca: Type.Boolean(), cert: Type.Boolean(), key: Type.Boolean() }),
  hasSshKey: Type.Boolean(),
  helperImage: Nullable(Type.String()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
const NodeWithEngine = Type.Object({
  ...Node.properties,
  engine: Type.Object({
    reachable: Type.Boolean(),
    version: Type.String(),
    apiVersion: Type.String(),
    os: Nullable(Type.String()),
    arch: Nullable(Type.String()),
    kernelVersion: Nullable(Type.String()),
    components: Type.Array(Type.String()),
  }),
});

const Placement = {
  resourceKey: Type.String({ description: 'the key used by reorder-resources' }),
  sortOrder: Nullable(Type.Integer()),
  folderId: Nullable(Type.String()),
};
const Port = Type.Object({
  privatePort: Type.Integer(),
  publicPort: Nullable(Type.Integer()),
  type: Type.String(),
  ip: Nullable(Type.String()),
});
const ContainerSummary = Type.Object({
  id: Type.String(),
  name: Type.String(),
  image: Type.String(),
  imageId: Type.String(),
  command: Nullable(Type.String()),
  state: Type.String(),
  status: Type.String(),
  createdAt: Nullable(Type.String()),
  ports: Type.Array(Port),
  labels: Labels,
  networks: Type.Array(Type.String()),
  ...Placement,
});
const ContainerDetail = Type.Object({
  id: Type.String(),
  name: Type.String(),
  image: Nullable(Type.String()),
  imageId: Type.String(),
  createdAt: Nullable(Type.String()),
  state: Type.Object({
    status: Type.String(),
    running: Type.Boolean(),
    paused: Type.Boolean(),
    restarting: Type.Boolean(),
    exitCode: Nullable(Type.Integer()),
    error: Nullable(Type.String()),
    startedAt: Nullable(Type.String()),
    finishedAt: Nullable(Type.String()),
  }),
  command: Type.Array(Type.String()),
  workingDir: Nullable(Type.String()),
  labels: Labels,
  restartPolicy: Nullable(Type.String()),
  ports: Type.Array(Port),
  networks: Type.Array(
    Type.Object({
      name: Type.String(),
      networkId: Nullable(Type.String()),
      ipAddress: Nullable(Type.String()),
      gateway: Nullable(Type.String()),
      macAddress: Nullable(Type.String()),
      aliases: Type.Array(Type.String()),
    }),
  ),
  mounts: Type.Array(
    Type.Object({
      type: Type.String(),
      name: Nullable(Type.String()),
      source: Type.String(),
      destination: Type.String(),
      readOnly: Type.Boolean(),
    }),
  ),
});
const NetworkFields = {
  id: Type.String(),
  name: Type.String(),
  driver: Type.String(),
  scope: Type.String(),
  internal: Type.Boolean(),
  builtIn: Type.Boolean(),
  subnets: Type.Array(Type.String()),
  createdAt: Nullable(Type.String()),
  labels: Labels,
};
const NetworkSummary = Type.Object({ ...NetworkFields, ...Placement });
const NetworkDetail = Type.Object({
  ...NetworkFields,
  containers: Type.Array(
    Type.Object({ id: Type.String(), name: Nullable(Type.String()), ipv4Address: Nullable(Type.String()) }),
  ),
});
const VolumeFields = {
  name: Type.String(),
  driver: Type.String(),
  mountpoint: Type.String(),
  scope: Type.String(),
  createdAt: Nullable(Type.String()),
  labels: Labels,
};
const VolumeSummary = Type.Object({ ...VolumeFields, ...Placement });
const ImageSummary = Type.Object({
  id: Type.String(),
  repoTags: Type.Array(Type.String()),
  repoDigests: Type.Array(Type.String()),
  size: Type.Number(),
  createdAt: Nullable(Type.String()),
  containers: Nullable(Type.Integer()),
  labels: Labels,
  ...Placement,
});
const ImageDetail = Type.Object({
  id: Type.String(),
  repoTags: Type.Array(Type.String()),
  repoDigests: Type.Array(Type.String()),
  size: Type.Number(),
  createdAt: Nullable(Type.String()),
  architecture: Nullable(Type.String()),
  os: Nullable(Type.String()),
  labels: Labels,
  command: Type.Array(Type.String()),
  exposedPorts: Type.Array(Type.String()),
});

// ---- health checks (endpoint 10 table) -------------------------------------------------------
const Port16 = Type.Integer({ minimum: 1, maximum: 65535 });
// The test body keeps absent fields absent (no schema defaults) so a saved config can fill them in.
const healthCheckFields = (withDefaults: boolean) => {
  const d = (field: keyof HealthCheckConfig) =>
    withDefaults ? { default: HEALTH_CHECK_DEFAULTS[field] } : {};
  return {
    enabled: Type.Optional(Type.Boolean()),
    scheme: Type.Optional(StringEnum(HEALTH_SCHEMES, undefined, d('scheme'))),
    hostPort: Type.Optional(Nullable(Port16)),
    containerPort: Type.Optional(Nullable(Port16)),
    path: Type.Optional(Type.String({ minLength: 1, maxLength: 500, ...d('path') })),
    statusMin: Type.Optional(Type.Integer({ minimum: 100, maximum: 599, ...d('statusMin') })),
    statusMax: Type.Optional(Type.Integer({ minimum: 100, maximum: 599, ...d('statusMax') })),
    expectedBody: Type.Optional(Nullable(Type.String({ maxLength: 5000 }))),
    bodyMatchMode: Type.Optional(StringEnum(BODY_MATCH_MODES, undefined, d('bodyMatchMode'))),
    intervalSeconds: Type.Optional(Type.Integer({ minimum: 5, maximum: 86400, ...d('intervalSeconds') })),
    timeoutSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 120, ...d('timeoutSeconds') })),
    slowThreshold: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 120000, description: 'milliseconds', ...d('slowThreshold') }),
    ),
  };
};
const HealthCheckTestBody = Type.Object(healthCheckFields(false));
const HealthCheckSaveBody = Type.Object(healthCheckFields(true));
const HealthStatus = StringEnum(HEALTH_STATUSES);
const HealthResult = Type.Object({
  ok: Type.Boolean(),
  status: HealthStatus,
  httpStatus: Nullable(Type.Integer()),
  responseMs: Nullable(Type.Integer()),
  slow: Type.Boolean(),
  bodyMatched: Nullable(Type.Boolean()),
  url: Nullable(Type.String()),
  error: Type.Optional(Type.String()),
  checkedAt: Timestamp,
});
const SavedHealthCheck = Type.Object({
  id: Uuid(),
  nodeId: Uuid(),
  containerName: Type.String(),
  enabled: Type.Boolean(),
  scheme: Type.String(),
  hostPort: Nullable(Type.Integer()),
  containerPort: Nullable(Type.Integer()),
  path: Type.String(),
  statusMin: Type.Integer(),
  statusMax: Type.Integer(),
  expectedBody: Nullable(Type.String()),
  bodyMatchMode: Type.String(),
  intervalSeconds: Type.Integer(),
  timeoutSeconds: Type.Integer(),
  slowThreshold: Type.Integer(),
  nextRunAt: Timestamp,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

// ---- folders ----------------------------------------------------------------------------------
const ResourceTypeSchema = StringEnum(RESOURCE_TYPES);
const SortOrder = Type.Integer({ minimum: -2_147_483_648, maximum: 2_147_483_647 });
const Folder = Type.Object({
  id: Uuid(),
  name: Type.String(),
  resourceType: Type.String(),
  sortOrder: Type.Integer(),
  resources: Type.Array(
    Type.Object({ nodeId: Uuid(), resourceKey: Type.String(), sortOrder: Type.Integer() }),
  ),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

/** Lets routes whose body is optional be called without one (validated as `{}`). */
const emptyBodyAsObject = async (request: { body: unknown }) => {
  if (request.body === undefined || request.body === null) request.body = {};
};

/** Container hosts over the Docker Engine API (`containerhost:view` / `containerhost:manage`). */
const containerhostRoutes: GatewayModule = async (app) => {
  const { deps } = app;
  const nodes = new NodeService(deps);
  const resources = new ResourceService(deps, nodes);
  const healthChecks = new HealthCheckService(deps, nodes);
  const folders = new FolderService(deps);
  healthChecks.registerJob();

  // Raw uploads (volume file write) are parsed only inside this plugin, bounded by the write limit.
  app.addContentTypeParser(
    'application/octet-stream',
    { parseAs: 'buffer', bodyLimit: deps.config.volumeWriteLimitBytes },
    (_request, body, done) => done(null, body),
  );

  // ---- nodes --------------------------------------------------------------------------------
  app.get(
    '/api/containerhost/nodes',
    {
      config: view,
      schema: {
        tags,
        summary: 'List container-host nodes',
        querystring: ListQuery,
        response: { 200: PageOf(Node) },
      },
    },
    async (request) => nodes.list(request.query),
  );

  app.post(
    '/api/containerhost/nodes',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Register a node (TLS material and SSH keys are stored encrypted and never returned)',
        body: Type.Object(NodeFields),
        response: { 201: DataOf(Node) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await nodes.create(request.actor, request.body) }),
  );

  app.get(
    '/api/containerhost/nodes/:nodeId',
    {
      config: view,
      schema: {
        tags,
        summary: "Get a node with its engine's reachability and version (422 when unreachable)",
        params: NodeParams,
        response: { 200: DataOf(NodeWithEngine) },
      },
    },
    async (request) => ({ data: await nodes.get(request.params.nodeId) }),
  );

  app.patch(
    '/api/containerhost/nodes/:nodeId',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Change a node (null clears a secret)',
        params: NodeParams,
        body: Type.Partial(Type.Object(NodeFields)),
        response: { 200: DataOf(Node) },
      },
    },
    async (request) => ({ data: await nodes.update(request.actor, request.params.nodeId, request.body) }),
  );

  app.delete(
    '/api/containerhost/nodes/:nodeId',
    {
      config: manage,
      schema: { tags, summary: 'Remove a node', params: NodeParams, response: { 200: Success } },
    },
    async (request) => {
      await nodes.remove(request.actor, request.params.nodeId);
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
        querystring: Type.Object({
          ...ListQuery.properties,
          all: Type.Optional(Type.Boolean({ default: false })),
        }),
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
        response: { 200: DataOf(Type.Object(VolumeFields)) },
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
        body: Type.Object({
          timeout: Type.Optional(
            Type.Integer({
              minimum: 0,
              maximum: 300,
              description: "seconds before SIGKILL; default the engine's",
            }),
          ),
        }),
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
        querystring: Type.Object({ force: Type.Optional(Type.Boolean({ default: false })) }),
        body: Type.Object({ containerId: Type.String({ minLength: 1, maxLength: 512 }) }),
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
        body: Type.Object({
          fromPath: Type.String({ minLength: 1, maxLength: 4096, description: 'absolute path' }),
          toPath: Type.String({ minLength: 1, maxLength: 4096, description: 'absolute path' }),
        }),
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
        querystring: Type.Object({
          path: Type.Optional(
            Type.String({ minLength: 1, maxLength: 1024, description: 'path inside the volume' }),
          ),
        }),
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
        querystring: Type.Object(PaginationQueryFields),
        response: { 200: PageOf(Type.Object({ id: Uuid(), ...HealthResult.properties })) },
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
        querystring: Type.Object({
          ...PaginationQueryFields,
          resourceType: Type.Optional(ResourceTypeSchema),
        }),
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
        body: Type.Object({
          name: Name,
          resourceType: ResourceTypeSchema,
          sortOrder: Type.Optional(SortOrder),
        }),
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
        body: Type.Object({
          resourceType: ResourceTypeSchema,
          items: Type.Array(
            Type.Object({
              nodeId: Uuid(),
              resourceKey: Type.String({ minLength: 1, maxLength: 512 }),
              sortOrder: SortOrder,
              folderId: Type.Optional(Nullable(Uuid('folder to put the resource in; null takes it out'))),
            }),
            { minItems: 1, maxItems: 1000 },
          ),
        }),
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
        params: FolderParams,
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
        params: FolderParams,
        body: Type.Object({ name: Type.Optional(Name), sortOrder: Type.Optional(SortOrder) }),
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
        params: FolderParams,
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
