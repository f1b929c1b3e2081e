import type { GatewayModule } from '../../../core/app.js';
import { DataOf, PageOf, Success } from '../../../core/http-schemas.js';
import { DataWithDroppedSecrets } from '../../../core/trust-boundary.js';
import type { EngineNodeService } from '../engine-nodes.js';
import {
  EngineNode,
  EngineNodeChanges,
  EngineNodeRegistration,
  EngineNodeWithEngine,
} from '../schemas/engine-nodes.js';
import { ListQuery, NodeParams } from '../schemas/params.js';
import { manage, tags, view } from './declarations.js';

/** `/api/containerhost/nodes`: the engine endpoints the gateway manages. */
export const engineNodeRoutes: GatewayModule<{ engineNodes: EngineNodeService }> = async (
  app,
  { engineNodes },
) => {
  app.get(
    '/',
    {
      config: view,
      schema: {
        tags,
        summary: 'List container-host nodes',
        querystring: ListQuery,
        response: { 200: PageOf(EngineNode) },
      },
    },
    async (request) => engineNodes.list(request.actor, request.query),
  );

  app.post(
    '/',
    {
      config: { ...manage, errors: [409, 422] },
      schema: {
        tags,
        summary: 'Register a node (TLS material and SSH keys are stored encrypted and never returned)',
        body: EngineNodeRegistration,
        response: { 201: DataOf(EngineNode) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await engineNodes.create(request.actor, request.body) }),
  );

  app.get(
    '/:nodeId',
    {
      config: { ...view, errors: [422] },
      schema: {
        tags,
        summary: "Get a node with its engine's reachability and version (422 when unreachable)",
        params: NodeParams,
        response: { 200: DataOf(EngineNodeWithEngine) },
      },
    },
    async (request) => ({ data: await engineNodes.get(request.params.nodeId) }),
  );

  app.patch(
    '/:nodeId',
    {
      config: { ...manage, errors: [409, 422] },
      schema: {
        tags,
        summary: 'Change a node (null clears a secret)',
        description:
          'Changing the endpoint needs containerhost:manage on the whole area. A new destination drops the ' +
          "TLS material and SSH key the request does not give again, and the node's registry credentials " +
          '(droppedSecrets names them).',
        params: NodeParams,
        body: EngineNodeChanges,
        response: { 200: DataWithDroppedSecrets(EngineNode) },
      },
    },
    async (request) => engineNodes.update(request.actor, request.params.nodeId, request.body),
  );

  app.delete(
    '/:nodeId',
    {
      config: manage,
      schema: { tags, summary: 'Remove a node', params: NodeParams, response: { 200: Success } },
    },
    async (request) => {
      await engineNodes.remove(request.actor, request.params.nodeId);
      return { success: true };
    },
  );
};
