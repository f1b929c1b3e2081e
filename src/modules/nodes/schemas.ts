import { type Static, Type } from 'typebox';
import {
  Name,
  NamedObject,
  NullableTimestamp,
  SearchText,
  Timestamp,
  Uuid,
} from '../../core/http-schemas.js';
import { PaginationQueryFields } from '../../core/pagination.js';
import { UPLOAD_STATUSES } from '../../db/schema/index.js';

/**
 * The shapes of the storage nodes area: route schemas, and through `Static` the services' types
 * (and the upload CLI's, which imports them as types only).
 */

/** Largest byte offset or file size a request may name. */
const MAX_OFFSET = Number.MAX_SAFE_INTEGER;

export const StorageNode = NamedObject('StorageNode', {
  id: Uuid(),
  name: Type.String(),
  rootPath: Type.String(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
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

export const NewStorageNode = Type.Object({ name: Name, rootPath: RootPath });

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
export type StorageNodeListQuery = Static<typeof StorageNodeListQuery>;
export type NewStorageNode = Static<typeof NewStorageNode>;
export type StorageNodeChanges = Static<typeof StorageNodeChanges>;
export type Upload = Static<typeof Upload>;
export type UploadListQuery = Static<typeof UploadListQuery>;
export type NewUpload = Static<typeof NewUpload>;
