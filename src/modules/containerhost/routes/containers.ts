import type { GatewayModule } from '../../../core/app.js';
import { DataOf, Success } from '../../../core/http-schemas.js';
import type { ContainerService } from '../containers.js';
import {
  ContainerCreation,
  KillOptions,
  RecreateOptions,
  RemoveQuery,
  StopOptions,
} from '../schemas/containers.js';
import { ContainerParams, NodeParams } from '../schemas/params.js';
import { ContainerDetail } from '../schemas/resources.js';
import { emptyBodyAsObject, manage, tags } from './declarations.js';

/** `/api/containerhost/nodes/:nodeId/containers`: create, start, stop, restart, kill, pause, remove, recreate. */
export const containerRoutes: GatewayModule<{ containers: ContainerService }> = async (
  app,
  { containers },
) => {
  app.post(
    '/',
    {
      config: { ...manage, errors: [409, 422] },
      schema: {
        tags,
        summary: 'Create a container (and start it with start: true)',
        params: NodeParams,
        body: ContainerCreation,
        response: { 201: DataOf(ContainerDetail) },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send({ data: await containers.create(request.actor, request.params.nodeId, request.body) }),
  );

  // Actions without a body: start, pause, unpause.
  for (const [action, summary] of [
    ['start', 'Start a container (already running is success)'],
    ['pause', 'Pause a running container'],
    ['unpause', 'Unpause a paused container'],
  ] as const) {
    app.post(
      `/:containerId/${action}`,
      {
        config: { ...manage, errors: [409, 422] },
        schema: { tags, summary, params: ContainerParams, response: { 200: Success } },
      },
      async (request) => {
        await containers[action](request.actor, request.params.nodeId, request.params.containerId);
        return { success: true };
      },
    );
  }

  // Stop and restart: the engine waits `timeout` seconds after SIGTERM; the deadline grows by it.
  for (const [action, summary] of [
    ['stop', 'Stop a container (already stopped is success)'],
    ['restart', 'Restart a container'],
  ] as const) {
    app.post(
      `/:containerId/${action}`,
      {
        config: { ...manage, errors: [409, 422] },
        preValidation: emptyBodyAsObject,
        schema: { tags, summary, params: ContainerParams, body: StopOptions, response: { 200: Success } },
      },
      async (request) => {
        const { nodeId, containerId } = request.params;
        await containers[action](request.actor, nodeId, containerId, request.body);
        return { success: true };
      },
    );
  }

  app.post(
    '/:containerId/kill',
    {
      config: { ...manage, errors: [409, 422] },
      preValidation: emptyBodyAsObject,
      schema: {
        tags,
        summary: 'Send a signal to a running container (default SIGKILL)',
        params: ContainerParams,
        body: KillOptions,
        response: { 200: Success },
      },
    },
    async (request) => {
      const { nodeId, containerId } = request.params;
      await containers.kill(request.actor, nodeId, containerId, request.body);
      return { success: true };
    },
  );

  app.delete(
    '/:containerId',
    {
      config: { ...manage, errors: [409, 422] },
      schema: {
        tags,
        summary: 'Remove a container (a running one needs ?force=true)',
        params: ContainerParams,
        querystring: RemoveQuery,
        response: { 200: Success },
      },
    },
    async (request) => {
      const { nodeId, containerId } = request.params;
      await containers.remove(request.actor, nodeId, containerId, request.query);
      return { success: true };
    },
  );

  app.post(
    '/:containerId/recreate',
    {
      config: { ...manage, errors: [409, 422] },
      preValidation: emptyBodyAsObject,
      schema: {
        tags,
        summary: 'Re-create a container with the same configuration (optionally pulling its image first)',
        params: ContainerParams,
        body: RecreateOptions,
        response: { 200: DataOf(ContainerDetail) },
      },
    },
    async (request) => {
      const { nodeId, containerId } = request.params;
      return { data: await containers.recreate(request.actor, nodeId, containerId, request.body) };
    },
  );
};
