import type { GatewayModule } from '../../../core/app.js';
import { Success } from '../../../core/http-schemas.js';
import type { ActionService } from '../actions.js';
import { FileMove, StopOptions } from '../schemas/actions.js';
import { ContainerParams } from '../schemas/params.js';
import { emptyBodyAsObject, manage, tags } from './declarations.js';

/** `/api/containerhost/nodes/:nodeId/containers/...`: stop a container, move a file in it. */
export const actionRoutes: GatewayModule<{ actions: ActionService }> = async (app, { actions }) => {
  app.post(
    '/containers/:containerId/stop',
    {
      config: manage,
      preValidation: emptyBodyAsObject,
      schema: {
        tags,
        summary: 'Stop a container (already stopped is success)',
        params: ContainerParams,
        body: StopOptions,
        response: { 200: Success },
      },
    },
    async (request) => {
      await actions.stopContainer(
        request.actor,
        request.params.nodeId,
        request.params.containerId,
        request.body,
      );
      return { success: true };
    },
  );

  app.post(
    '/containers/:containerId/files/move',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Move a file or directory inside a running container (exec of mv, no shell)',
        params: ContainerParams,
        body: FileMove,
        response: { 200: Success },
      },
    },
    async (request) => {
      await actions.moveFile(request.actor, request.params.nodeId, request.params.containerId, request.body);
      return { success: true };
    },
  );
};
