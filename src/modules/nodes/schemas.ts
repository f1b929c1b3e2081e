import { type Static, type TSchema, Type } from 'typebox';
import {
  Name,
  NamedObject,
  NullableTimestamp,
  SearchText,
  StringEnum,
  Timestamp,
  Uuid,
} from '../../core/http-schemas.js';
import { PaginationQueryFields } from '../../core/pagination.js';
import { AGENT_STATUSES, NODE_KINDS, UPLOAD_STATUSES } from '../../db/schema/index.js';

/**
 * The shapes of the storage nodes area: route schemas, and through `Static` the services' types
 * (and the upload CLI's, which imports them as types only).
 */

/** Largest byte offset or file size a request may name. */
const MAX_OFFSET = Number.MAX_SAFE_INTEGER;

const NodeKind = StringEnum(
  NODE_KINDS,
  'directory (default): a root on the gateway host; agent: a host whose agent dials out to the gateway',
);

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const AgentCapabilities = NamedObject('AgentCapabilities', {
  files: Type.Boolean(),
  docker: Type.Boolean(),
  metrics: Type.Boolean(),
});

const AgentHostFacts = NamedObject('AgentHostFacts', {
  hostname: Type.String(),
  os: Type.String(),
  arch: Type.String(),
  cpus: Type.Integer(),
  memoryBytes: Type.Integer(),
});

const storageNodeFields = {
  id: Uuid(),
  name: Type.String(),
  kind: NodeKind,
  rootPath: nullable(
    Type.String({
      description:
        'directory: the root on the gateway host; agent: the --root the agent reported (null before)',
    }),
  ),
  status: nullable(
    StringEnum(
      AGENT_STATUSES,
      'agent nodes: pending (not enrolled yet), online, offline, revoked; null for directories',
    ),
  ),
  lastSeenAt: NullableTimestamp,
  agentVersion: nullable(Type.String()),
  facts: nullable(AgentHostFacts),
  capabilities: nullable(AgentCapabilities),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

export const StorageNode = NamedObject('StorageNode', storageNodeFields);

export const AgentEnrollment = NamedObject('AgentEnrollment', {
  token: Type.String({ description: 'the one-time enrolment token (`igwe_…`), answered this once' }),
  command: Type.String({ description: 'the command to run on the host' }),
  expiresAt: Timestamp,
});

/** A node as its creation answers it: an agent node with its enrolment, answered once. */
export const CreatedStorageNode = NamedObject('CreatedStorageNode', {
  ...storageNodeFields,
  enrollment: Type.Optional(AgentEnrollment),
});

const RootPath = Type.String({
  minLength: 1,
  maxLength: 4096,
  description: 'absolute directory on the gateway host; must exist and be writable',
});

export const StorageNodeListQuery = Type.Object({
  ...PaginationQueryFields,
  q: SearchText(),
  name: Type.Optional(Type.String({ maxLength: 255, description: 'exact name' })),
});

export const NewStorageNode = Type.Object({
  name: Name,
  kind: Type.Optional(NodeKind),
  rootPath: Type.Optional(RootPath),
});

export const StorageNodeChanges = Type.Object(
  { name: Type.Optional(Name), rootPath: Type.Optional(RootPath) },
  { minProperties: 1 },
);

export const UploadStatus = Type.Enum(UPLOAD_STATUSES, {
  description: 'open → complete | failed | aborted | expired',
});

export const Upload = NamedObject('Upload', {
  uploadId: Uuid(),
  id: Uuid(),
  nodeId: Uuid(),
  path: Type.String({ description: 'relative to the node root' }),
  totalBytes: Type.Integer(),
  receivedBytes: Type.Integer({ description: 'bytes durably written; the next chunk starts here' }),
  chunkSize: Type.Integer({ description: 'suggested chunk size' }),
  maxChunkBytes: Type.Integer({ description: 'largest chunk one PUT may carry' }),
  sha256: Type.Union([Type.String(), Type.Null()]),
  overwrite: Type.Boolean(),
  status: UploadStatus,
  writing: Type.Boolean({ description: 'a chunk is being written right now' }),
  failureReason: Type.Union([Type.String(), Type.Null()]),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  expiresAt: Timestamp,
  completedAt: NullableTimestamp,
});

export const UploadParams = Type.Object({ id: Uuid(), uploadId: Uuid() });

export const UploadListQuery = Type.Object({ ...PaginationQueryFields, status: Type.Optional(UploadStatus) });

export const NewUpload = Type.Object({
  path: Type.String({
    minLength: 1,
    maxLength: 4096,
    description: 'inside the node root: /a/b.bin and a/b.bin both mean <root>/a/b.bin',
  }),
  totalBytes: Type.Integer({ minimum: 0, maximum: MAX_OFFSET }),
  sha256: Type.Optional(
    Type.Union([Type.String({ pattern: '^[0-9a-fA-F]{64}$' }), Type.Null()], {
      description: 'hex SHA-256 of the whole file, verified at completion',
    }),
  ),
  overwrite: Type.Optional(Type.Boolean({ default: false })),
});

export const ChunkQuery = Type.Object({
  offset: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: MAX_OFFSET }), Type.Null()])),
});

export type StorageNode = Static<typeof StorageNode>;
export type CreatedStorageNode = Static<typeof CreatedStorageNode>;
export type StorageNodeListQuery = Static<typeof StorageNodeListQuery>;
export type NewStorageNode = Static<typeof NewStorageNode>;
export type StorageNodeChanges = Static<typeof StorageNodeChanges>;
export type Upload = Static<typeof Upload>;
export type UploadListQuery = Static<typeof UploadListQuery>;
export type NewUpload = Static<typeof NewUpload>;
