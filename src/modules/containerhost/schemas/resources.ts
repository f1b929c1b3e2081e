import { type Static, Type } from 'typebox';
import { NamedObject, Nullable } from '../../../core/http-schemas.js';
import { ListQuery } from './params.js';

/** What a node's engine holds, as the read models answer it: containers, networks, volumes, images. */

const Labels = Type.Record(Type.String(), Type.String());

/** Where a resource sits in the saved order; every listed item carries it. */
const PlacementFields = {
  resourceKey: Type.String({ description: 'the key used by reorder-resources' }),
  sortOrder: Nullable(Type.Integer()),
  folderId: Nullable(Type.String()),
};
export const Placement = Type.Object(PlacementFields);

const Port = NamedObject('ContainerPort', {
  privatePort: Type.Integer(),
  publicPort: Nullable(Type.Integer()),
  type: Type.String(),
  ip: Nullable(Type.String()),
});

export const ContainerListQuery = Type.Object({
  ...ListQuery.properties,
  all: Type.Optional(Type.Boolean({ default: false })),
});

export const ContainerSummary = NamedObject('ContainerSummary', {
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
  ...PlacementFields,
});

export const ContainerDetail = NamedObject('Container', {
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
export const Network = Type.Object(NetworkFields);
export const NetworkSummary = NamedObject('NetworkSummary', { ...NetworkFields, ...PlacementFields });
export const NetworkDetail = NamedObject('Network', {
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
export const Volume = Type.Object(VolumeFields, { title: 'Volume' });
export const VolumeSummary = NamedObject('VolumeSummary', { ...VolumeFields, ...PlacementFields });

export const ImageSummary = NamedObject('ImageSummary', {
  id: Type.String(),
  repoTags: Type.Array(Type.String()),
  repoDigests: Type.Array(Type.String()),
  size: Type.Number(),
  createdAt: Nullable(Type.String()),
  containers: Nullable(Type.Integer()),
  labels: Labels,
  ...PlacementFields,
});

export const ImageDetail = NamedObject('Image', {
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

export type Placement = Static<typeof Placement>;
/** A listed item as the engine describes it, before its placement is added. */
export type Unplaced<T> = Omit<T, keyof Placement>;
export type ContainerListQuery = Static<typeof ContainerListQuery>;
export type ContainerSummary = Static<typeof ContainerSummary>;
export type ContainerDetail = Static<typeof ContainerDetail>;
export type Network = Static<typeof Network>;
export type NetworkDetail = Static<typeof NetworkDetail>;
export type Volume = Static<typeof Volume>;
export type ImageSummary = Static<typeof ImageSummary>;
export type ImageDetail = Static<typeof ImageDetail>;
