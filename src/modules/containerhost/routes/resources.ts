import type { GatewayModule } from '../../../core/app.js';
import { DataOf, PageOf } from '../../../core/http-schemas.js';
import type { ResourceService } from '../resources.js';
import {
  ImageParams,
  InspectContainerParams,
  InspectNetworkParams,
  InspectVolumeParams,
  ListQuery,
  NodeParams,
} from '../schemas/params.js';
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
} from '../schemas/resources.js';
import { tags, view } from './declarations.js';

/** `/api/containerhost/nodes/:nodeId/{containers,networks,volumes,images}`: what a node's engine holds. */
export const resourceRoutes: GatewayModule<{ resources: ResourceService }> = async (app, { resources }) => {
  app.get(
    '/containers',
    {
      config: { ...view, errors: [422] },
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
    '/containers/:containerId',
    {
      config: { ...view, errors: [422] },
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
    '/networks',
    {
      config: { ...view, errors: [422] },
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
    '/networks/:networkId',
    {
      config: { ...view, errors: [422] },
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
    '/volumes',
    {
      config: { ...view, errors: [422] },
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
    '/volumes/:name',
    {
      config: { ...view, errors: [422] },
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
    '/images',
    {
      config: { ...view, errors: [422] },
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
    '/images/:imageId',
    {
      config: { ...view, errors: [422] },
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
};
