import { type TSchema, Type } from 'typebox';
import type { AuditActor } from '../../../core/actor.js';
import type { GatewayModule } from '../../../core/app.js';
import { DataOf, Success, Uuid } from '../../../core/http-schemas.js';
import type { FolderTree } from '../folder-tree.js';
import {
  Folder,
  FolderDeleteQuery,
  FolderList,
  FolderListQuery,
  FolderMove,
  FolderRename,
  FolderReorder,
  IdParams,
  ItemMove,
  NewFolder,
} from '../schemas.js';
import { manage, view } from './access.js';

export type FolderTreeRoutesOptions = {
  tree: FolderTree;
  tag: string;
  /** `schema` / `environment`, for summaries. */
  item: string;
  /** Path segment and response key of the item move: `schemas` / `environments`. */
  items: string;
  itemSchema: TSchema;
  moveItems: (
    actor: AuditActor,
    ids: string[],
    folderId: string | null,
  ) => Promise<{ folderId: string | null } & Record<string, string | null | unknown[]>>;
};

/**
 * CRUD, reorder and move for one folder tree, plus moving its items between folders; registered
 * once per tree under its prefix (`/api/logging/schema-folders`, `/api/logging/environment-folders`).
 */
export const folderTreeRoutes: GatewayModule<FolderTreeRoutesOptions> = async (app, spec) => {
  const { tree } = spec;
  const tags = [spec.tag];
  const label = `${spec.item} folder`;

  app.get(
    '',
    {
      config: view,
      schema: {
        tags,
        summary: `List ${label}s (flat, paginated, with parentId and sortOrder; ?tree=true: every folder nested)`,
        querystring: FolderListQuery,
        response: { 200: FolderList },
      },
    },
    async (request) => (request.query.tree ? { data: await tree.tree() } : tree.list(request.query)),
  );

  app.post(
    '',
    {
      config: { ...manage, errors: [404, 409] },
      schema: { tags, summary: `Create a ${label}`, body: NewFolder, response: { 201: DataOf(Folder) } },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await tree.create(request.actor, request.body) }),
  );

  app.put(
    '/reorder',
    {
      config: { ...manage, errors: [404, 422] },
      schema: {
        tags,
        summary: `Order the children of one folder: the listed ids first, in this order`,
        body: FolderReorder,
        response: { 200: Type.Object({ data: Type.Array(Folder) }) },
      },
    },
    async (request) => ({
      data: await tree.reorder(request.actor, request.body.parentId, request.body.ids),
    }),
  );

  app.post(
    `/move-${spec.items}`,
    {
      config: { ...manage, errors: [404, 409] },
      schema: {
        tags,
        summary: `Move ${spec.items} into a folder, all or nothing`,
        body: ItemMove,
        response: {
          200: DataOf(
            Type.Object({
              folderId: Type.Union([Uuid(), Type.Null()]),
              [spec.items]: Type.Array(spec.itemSchema),
            }),
          ),
        },
      },
    },
    async (request) => ({
      data: await spec.moveItems(request.actor, request.body.ids, request.body.folderId),
    }),
  );

  app.get(
    '/:id',
    {
      config: view,
      schema: { tags, summary: `Get a ${label}`, params: IdParams, response: { 200: DataOf(Folder) } },
    },
    async (request) => ({ data: await tree.get(request.params.id) }),
  );

  app.put(
    '/:id',
    {
      config: { ...manage, errors: [409] },
      schema: {
        tags,
        summary: `Rename a ${label}`,
        params: IdParams,
        body: FolderRename,
        response: { 200: DataOf(Folder) },
      },
    },
    async (request) => ({ data: await tree.rename(request.actor, request.params.id, request.body.name) }),
  );

  app.delete(
    '/:id',
    {
      config: { ...manage, errors: [409] },
      schema: {
        tags,
        summary: `Delete a ${label} (409 when it is not empty, unless ?recursive=true)`,
        params: IdParams,
        querystring: FolderDeleteQuery,
        response: { 200: Success },
      },
    },
    async (request) => {
      await tree.delete(request.actor, request.params.id, request.query.recursive ?? false);
      return { success: true };
    },
  );

  app.put(
    '/:id/move',
    {
      config: { ...manage, errors: [409, 422] },
      schema: {
        tags,
        summary: `Move a ${label} under another folder (null: the top level)`,
        params: IdParams,
        body: FolderMove,
        response: { 200: DataOf(Folder) },
      },
    },
    async (request) => ({ data: await tree.move(request.actor, request.params.id, request.body.parentId) }),
  );
};
