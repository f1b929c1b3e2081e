import type { GatewayModule } from '../../../core/app.js';
import { areaAccess } from '../../../core/auth/area-access.js';
import { DataOf, IdParams, PageOf, Success } from '../../../core/http-schemas.js';
import {
  CreatedStorageNode,
  NewStorageNode,
  StorageNode,
  StorageNodeChanges,
  StorageNodeListQuery,
} from '../schemas.js';
import type { StorageNodeService } from '../storage-nodes.js';

const { view, manage } = areaAccess('nodes');

const tags = ['nodes'];

/** Storage nodes (roots on the gateway host) under `/api/nodes` (`nodes:view` / `nodes:manage`). */
export const storageNodeRoutes: GatewayModule<{ storageNodes: StorageNodeService }> = async (
  app,
  { storageNodes },
) => {
  app.get(
    '',
    {
      config: view,
      schema: {
        tags,
        summary: 'List nodes',
        querystring: StorageNodeListQuery,
        response: { 200: PageOf(StorageNode) },
      },
    },
    async (request) => storageNodes.list(request.actor, request.query),
  );

  app.post(
    '',
    {
      config: { ...manage, errors: [409, 422] },
      schema: {
        tags,
        summary: 'Register a node: a storage root on the gateway host, or an agent’s host (enrolment)',
        description:
          'kind directory (the default) needs rootPath; kind agent takes none and answers `enrollment` once: a ' +
          'one-time token (valid INFRAGATE_AGENT_ENROLLMENT_TTL_MINUTES) and the `infragate agent` command to run on the host.',
        body: NewStorageNode,
        response: { 201: DataOf(CreatedStorageNode) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await storageNodes.create(request.actor, request.body) }),
  );

  app.get(
    '/:id',
    {
      config: view,
      schema: { tags, summary: 'Get a node', params: IdParams, response: { 200: DataOf(StorageNode) } },
    },
    async (request) => ({ data: await storageNodes.get(request.params.id) }),
  );

  app.patch(
    '/:id',
    {
      config: { ...manage, errors: [409, 422] },
      schema: {
        tags,
        summary: 'Rename a node or move its root',
        description:
          'Moving the root (a changed rootPath) needs nodes:manage on the whole area; a root may never be ' +
          "on, inside or above the gateway's data directory, nor outside INFRAGATE_NODE_ROOTS when set (422).",
        params: IdParams,
        body: StorageNodeChanges,
        response: { 200: DataOf(StorageNode) },
      },
    },
    async (request) => ({
      data: await storageNodes.update(request.actor, request.params.id, request.body),
    }),
  );

  app.post(
    '/:id/revoke',
    {
      config: { ...manage, errors: [422] },
      schema: {
        tags,
        summary: 'Revoke an agent node: its credential stops working and its tunnel closes',
        description:
          'The agent’s reconnects are refused (401 at /agent/connect). Revoking again changes nothing; a directory node is 422 NODE_NOT_AGENT.',
        params: IdParams,
        response: { 200: DataOf(StorageNode) },
      },
    },
    async (request) => ({ data: await storageNodes.revoke(request.actor, request.params.id) }),
  );

  app.delete(
    '/:id',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Delete a node (open uploads are aborted; files in the root stay)',
        params: IdParams,
        response: { 200: Success },
      },
    },
    async (request) => {
      await storageNodes.remove(request.actor, request.params.id);
      return { success: true };
    },
  );
};
