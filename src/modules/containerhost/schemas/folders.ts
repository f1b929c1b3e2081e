import { type Static, Type } from 'typebox';
import { Name, NamedObject, Nullable, StringEnum, Timestamp, Uuid } from '../../../core/http-schemas.js';
import { PaginationQueryFields } from '../../../core/pagination.js';
import { RESOURCE_TYPES } from '../../../db/schema/index.js';

/** Folders grouping resources of one type, and the saved sort order (`/api/containerhost/folders`). */

const ResourceType = StringEnum(RESOURCE_TYPES);
const SortOrder = Type.Integer({ minimum: -2_147_483_648, maximum: 2_147_483_647 });

export const Folder = NamedObject('ResourceFolder', {
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

export const FolderListQuery = Type.Object({
  ...PaginationQueryFields,
  resourceType: Type.Optional(ResourceType),
});

export const FolderCreation = Type.Object({
  name: Name,
  resourceType: ResourceType,
  sortOrder: Type.Optional(SortOrder),
});

export const FolderChanges = Type.Object({ name: Type.Optional(Name), sortOrder: Type.Optional(SortOrder) });

export const ResourceReorder = Type.Object({
  resourceType: ResourceType,
  items: Type.Array(
    Type.Object({
      nodeId: Uuid(),
      resourceKey: Type.String({ minLength: 1, maxLength: 512 }),
      sortOrder: SortOrder,
      folderId: Type.Optional(Nullable(Uuid('folder to put the resource in; null takes it out'))),
    }),
    { minItems: 1, maxItems: 1000 },
  ),
});

export type Folder = Static<typeof Folder>;
export type FolderListQuery = Static<typeof FolderListQuery>;
export type FolderCreation = Static<typeof FolderCreation>;
export type FolderChanges = Static<typeof FolderChanges>;
export type ResourceReorder = Static<typeof ResourceReorder>;
