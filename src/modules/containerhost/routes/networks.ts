import type { GatewayModule } from '../../../core/app.js';
import { DataOf, Success } from '../../../core/http-schemas.js';
import type { NetworkService } from '../networks.js';
import { Connection, Disconnection, DisconnectQuery, NetworkCreation } from '../schemas/networks.js';
import { NetworkParams, NodeParams } from '../schemas/params.js';
import { NetworkDetail } from '../schemas/resources.js';
import { manage, tags } from './declarations.js';

/** `/api/containerhost/nodes/:nodeId/networks`: create, delete, connect and disconnect. */
export const networkRoutes: GatewayModule<{ networks: NetworkService }> = async (app, { networks }) => {
  app.post(
    '/',
    {
      config: { ...manage, errors: [409, 422] },
      schema: {
        tags,
        summary: 'Create a network',
        params: NodeParams,
        body: NetworkCreation,
        response: { 201: DataOf(NetworkDetail) },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send({ data: await networks.create(request.actor, request.params.nodeId, request.body) }),
  );

  app.delete(
    '/:networkId',
    {
      config: { ...manage, errors: [409, 422] },
      schema: {
        tags,
        summary: 'Delete a network no container is attached to (built-in networks are refused)',
        params: NetworkParams,
        response: { 200: Success },
      },
    },
    async (request) => {
      await networks.remove(request.actor, request.params.nodeId, request.params.networkId);
      return { success: true };
    },
  );

  app.post(
    '/:networkId/connect',
    {
      config: { ...manage, errors: [409, 422] },
      schema: {
        tags,
        summary: 'Connect a container to a network (with optional aliases)',
        params: NetworkParams,
        body: Connection,
        response: { 200: Success },
      },
    },
    async (request) => {
      await networks.connect(request.actor, request.params.nodeId, request.params.networkId, request.body);
      return { success: true };
    },
  );

  app.post(
    '/:networkId/disconnect',
    {
      config: { ...manage, errors: [409, 422] },
      schema: {
        tags,
        summary: 'Disconnect a container from a network (built-in networks need ?force=true)',
        params: NetworkParams,
        querystring: DisconnectQuery,
        body: Disconnection,
        response: { 200: Success },
      },
    },
    async (request) => {
      await networks.disconnect(request.actor, request.params.nodeId, request.params.networkId, {
        containerId: request.body.containerId,
        force: request.query.force ?? false,
      });
      return { success: true };
    },
  );
};
