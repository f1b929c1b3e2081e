import type { GatewayModule } from '../../../core/app.js';
import { DataOf, IdParams, PageOf, Success } from '../../../core/http-schemas.js';
import type { FolderService } from '../folders.js';
import {
  Folder,
  FolderChanges,
  FolderCreation,
  FolderListQuery,
  ResourceReorder,
} from '../schemas/folders.js';
import { manage, tags, view } from './declarations.js';

/** `/api/containerhost/folders`: folders of resources and the saved sort order. */
export const folderRoutes: GatewayModule<{ folders: FolderService }> = async (app, { folders }) => {
  app.get(
    '/',
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
    '/',
    {
      config: { ...manage, errors: [409] },
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
    '/reorder-resources',
    {
      config: { ...manage, errors: [404, 422] },
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
    '/:id',
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
    '/:id',
    {
      config: { ...manage, errors: [409] },
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
    '/:id',
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
