import { type Static, Type } from 'typebox';
import {
  LiteralUnion,
  Name,
  NamedObject,
  PageOf,
  SearchText,
  StringEnum,
  Timestamp,
  Uuid,
} from '../../core/http-schemas.js';
import { PaginationQueryFields } from '../../core/pagination.js';
import { LOG_FIELD_TYPES, SCHEMA_VIOLATION_POLICIES } from '../../db/schema/index.js';

/** The shapes of the logging area: route schemas, and through `Static` the service's types. */

export const DEFAULT_RETENTION_DAYS = 30;
const MAX_MOVE_IDS = 1000;

/**
 * Path ids are plain strings in the contract (`PUT /api/logging/environment-folders/{id}/move`:
 * min length 1); one that names nothing is a 404.
 */
export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 255 }) });
const NullableUuid = (description: string) => Type.Union([Uuid(), Type.Null()], { description });
/** A folder id, or `root` for the top level. */
const FolderFilter = (description: string) =>
  Type.Optional(Type.Union([Uuid(), Type.Literal('root')], { description }));
const Description = Type.String({ maxLength: 2000 });

// Folders (the same shapes for schema folders and environment folders)

export const Folder = NamedObject('LogFolder', {
  id: Uuid(),
  name: Type.String(),
  parentId: Type.Union([Uuid(), Type.Null()]),
  sortOrder: Type.Integer(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
/** Documented one level deep; the service's `FolderNode` type nests to any depth. */
const FolderNodeSchema = NamedObject('LogFolderNode', {
  ...Folder.properties,
  children: Type.Array(Type.Unknown(), { description: 'sub-folders, each shaped like this node' }),
});

export const FolderListQuery = Type.Object({
  ...PaginationQueryFields,
  tree: Type.Optional(Type.Boolean({ default: false })),
  parentId: FolderFilter('only the children of this folder (`root`: the top level)'),
  q: SearchText(),
});
export const FolderList = Type.Union([PageOf(Folder), Type.Object({ data: Type.Array(FolderNodeSchema) })], {
  title: 'LogFolderList',
});

export const NewFolder = NamedObject('NewLogFolder', {
  name: Name,
  parentId: Type.Optional(NullableUuid('null or absent: the top level')),
});
export const FolderRename = NamedObject('LogFolderRename', { name: Name });
export const FolderReorder = NamedObject('LogFolderReorder', {
  parentId: NullableUuid('the folder whose children are ordered; null: the top level'),
  ids: Type.Array(Type.String({ minLength: 1, maxLength: 255 }), {
    minItems: 1,
    maxItems: MAX_MOVE_IDS,
    uniqueItems: true,
  }),
});
export const FolderMove = NamedObject('LogFolderMove', {
  parentId: NullableUuid('the new parent folder; null: the top level'),
});
export const FolderDeleteQuery = Type.Object({ recursive: Type.Optional(Type.Boolean({ default: false })) });
export const ItemMove = NamedObject('LogFolderItemsMove', {
  ids: Type.Array(Type.String({ maxLength: 255 }), { maxItems: MAX_MOVE_IDS }),
  folderId: NullableUuid('the target folder; null: the top level'),
});

// Schemas

export const FieldDefinition = NamedObject('LogField', {
  name: Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z_@][A-Za-z0-9_.@-]*$' }),
  type: LiteralUnion(LOG_FIELD_TYPES),
  required: Type.Boolean({ default: false }),
});
const Fields = Type.Array(FieldDefinition, { maxItems: 200 });

export const LogSchema = NamedObject('LogSchema', {
  id: Uuid(),
  name: Type.String(),
  folderId: Type.Union([Uuid(), Type.Null()]),
  description: Type.String(),
  fields: Type.Array(FieldDefinition),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const LogSchemaListQuery = Type.Object({
  ...PaginationQueryFields,
  folderId: FolderFilter('only the schemas of this folder (`root`: outside any folder)'),
  q: SearchText(),
});
export const NewLogSchema = Type.Object({
  name: Name,
  folderId: Type.Optional(NullableUuid('null or absent: the top level')),
  description: Type.Optional(Description),
  fields: Fields,
});
export const LogSchemaChanges = Type.Object({
  name: Type.Optional(Name),
  folderId: Type.Optional(NullableUuid('null: the top level')),
  description: Type.Optional(Description),
  fields: Type.Optional(Fields),
});

// Environments

const RetentionDays = Type.Integer({ minimum: 1, maximum: 3650, description: 'days log records are kept' });
const OnSchemaViolation = StringEnum(
  SCHEMA_VIOLATION_POLICIES,
  'a record that breaks the schema: `reject` it (reported in the ingest answer) or `keep` it flagged',
);
const MiB = 1024 * 1024;
/** Limits of one ingest request and of each ingest token's rate; every field has a default. */
const IngestLimits = NamedObject('IngestLimits', {
  maxBodyBytes: Type.Integer({ minimum: 1024, maximum: 64 * MiB, description: 'largest body, after gzip' }),
  maxRecords: Type.Integer({ minimum: 1, maximum: 100_000, description: 'most records in one request' }),
  recordsPerSecond: Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'rate per ingest token' }),
  bytesPerSecond: Type.Integer({
    minimum: 1024,
    maximum: 1024 * MiB,
    description: 'rate per ingest token',
  }),
  burstSeconds: Type.Integer({
    minimum: 1,
    maximum: 3600,
    description: 'a token may send this many seconds of its rate at once (and always one full request)',
  }),
});
const IngestLimitChanges = Type.Partial(IngestLimits, { title: 'IngestLimitChanges' });

export const LogEnvironment = NamedObject('LogEnvironment', {
  id: Uuid(),
  name: Type.String(),
  folderId: Type.Union([Uuid(), Type.Null()]),
  description: Type.String(),
  schemaId: Type.Union([Uuid(), Type.Null()]),
  retentionDays: Type.Integer(),
  onSchemaViolation: StringEnum(SCHEMA_VIOLATION_POLICIES),
  ingest: IngestLimits,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const LogEnvironmentListQuery = Type.Object({
  ...PaginationQueryFields,
  folderId: FolderFilter('only the environments of this folder (`root`: outside any folder)'),
  schemaId: Type.Optional(Uuid('only the environments using this schema')),
  q: SearchText(),
});
export const NewLogEnvironment = Type.Object({
  name: Name,
  folderId: Type.Optional(NullableUuid('null or absent: the top level')),
  description: Type.Optional(Description),
  schemaId: Type.Optional(NullableUuid('the schema of its log records')),
  retentionDays: Type.Optional({ ...RetentionDays, default: DEFAULT_RETENTION_DAYS }),
  onSchemaViolation: Type.Optional(OnSchemaViolation),
  ingest: Type.Optional(IngestLimitChanges),
});
export const LogEnvironmentChanges = Type.Object({
  name: Type.Optional(Name),
  folderId: Type.Optional(NullableUuid('null: the top level')),
  description: Type.Optional(Description),
  schemaId: Type.Optional(NullableUuid('null: no schema')),
  retentionDays: Type.Optional(RetentionDays),
  onSchemaViolation: Type.Optional(OnSchemaViolation),
  ingest: Type.Optional(IngestLimitChanges),
});

export type Folder = Static<typeof Folder>;
export type FolderNode = Folder & { children: FolderNode[] };
export type FolderListQuery = Static<typeof FolderListQuery>;
export type NewFolder = Static<typeof NewFolder>;
export type FieldDefinition = Static<typeof FieldDefinition>;
export type LogSchema = Static<typeof LogSchema>;
export type LogSchemaListQuery = Static<typeof LogSchemaListQuery>;
export type NewLogSchema = Static<typeof NewLogSchema>;
export type LogSchemaChanges = Static<typeof LogSchemaChanges>;
export type LogEnvironment = Static<typeof LogEnvironment>;
export type LogEnvironmentListQuery = Static<typeof LogEnvironmentListQuery>;
export type NewLogEnvironment = Static<typeof NewLogEnvironment>;
export type LogEnvironmentChanges = Static<typeof LogEnvironmentChanges>;
export type IngestLimits = Static<typeof IngestLimits>;
