import type { GatewayModule } from '../../../core/app.js';
import { DataOf, Success } from '../../../core/http-schemas.js';
import { NodeParams, VolumeParams } from '../schemas/params.js';
import { Volume } from '../schemas/resources.js';
import { VolumeCreation, VolumeRemoveQuery } from '../schemas/volumes.js';
import type { VolumeService } from '../volumes.js';
import { manage, tags } from './declarations.js';

/** `/api/containerhost/nodes/:nodeId/volumes`: create and delete. */
export const volumeRoutes: GatewayModule<{ volumes: VolumeService }> = async (app, { volumes }) => {
  app.post(
    '/',
    {
      config: { ...manage, errors: [409, 422] },
      schema: {
        tags,
        summary: 'Create a volume',
        params: NodeParams,
        body: VolumeCreation,
        response: { 201: DataOf(Volume) },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send({ data: await volumes.create(request.actor, request.params.nodeId, request.body) }),
  );

  app.delete(
    '/:name',
    {
      config: { ...manage, errors: [409, 422] },
      schema: {
        tags,
        summary: 'Delete a volume (409 while in use; ?force=true removes the containers using it first)',
        params: VolumeParams,
        querystring: VolumeRemoveQuery,
        response: { 200: Success },
      },
    },
    async (request) => {
      const { nodeId, name } = request.params;
      await volumes.remove(request.actor, nodeId, name, request.query.force ?? false);
      return { success: true };
    },
  );
};
