import type { GatewayModule } from '../../../core/app.js';
import { areaAccess } from '../../../core/auth/area-access.js';
import { DataOf, IdParams, PageOf, Success } from '../../../core/http-schemas.js';
import { DataWithDroppedSecrets } from '../../../core/trust-boundary.js';
import type { ConnectionTester } from '../connection-test.js';
import type { ConnectionService } from '../connections.js';
import {
  Connection,
  ConnectionChange,
  ConnectionListQuery,
  ConnectionTestResult,
  NewConnection,
} from '../schemas.js';
import type { TokenRefresher } from '../token-refresh.js';

const { view, manage } = areaAccess('inference');

const tags = ['inference'];

/** `/api/inference/connections`: connections to catalog providers, their tests and token refreshes. */
export const connectionRoutes: GatewayModule<{
  connections: ConnectionService;
  tester: ConnectionTester;
  tokens: TokenRefresher;
}> = async (app, { connections, tester, tokens }) => {
  app.get(
    '',
    {
      config: view,
      schema: {
        tags,
        summary: 'List connections',
        querystring: ConnectionListQuery,
        response: { 200: PageOf(Connection) },
      },
    },
    async (request) => connections.list(request.actor, request.query),
  );

  app.post(
    '',
    {
      config: { ...manage, errors: [409, 422] },
      schema: {
        tags,
        summary: 'Create an API-key or local connection (OAuth connections come from a session)',
        body: NewConnection,
        response: { 201: DataOf(Connection) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await connections.create(request.actor, request.body) }),
  );

  app.get(
    '/:id',
    {
      config: view,
      schema: { tags, summary: 'Get a connection', params: IdParams, response: { 200: DataOf(Connection) } },
    },
    async (request) => ({ data: await connections.get(request.params.id) }),
  );

  app.patch(
    '/:id',
    {
      config: { ...manage, errors: [409] },
      schema: {
        tags,
        summary: 'Rename a connection, replace its API key or its base URL',
        description:
          "A `baseUrl` that sends elsewhere (scheme, host, port or path; null is the catalog's) needs the " +
          'area-wide `inference:manage` (403 `BOUNDARY_CHANGE_NEEDS_AREA_SCOPE` for a scope naming this ' +
          'connection) and drops the stored credentials the request does not send again: the API key ' +
          "unless `apiKey` is sent, an OAuth sign-in's access and refresh tokens (`droppedSecrets` names them).",
        params: IdParams,
        body: ConnectionChange,
        response: { 200: DataWithDroppedSecrets(Connection) },
      },
    },
    async (request) => connections.update(request.actor, request.params.id, request.body),
  );

  app.delete(
    '/:id',
    {
      config: manage,
      schema: { tags, summary: 'Delete a connection', params: IdParams, response: { 200: Success } },
    },
    async (request) => {
      await connections.remove(request.actor, request.params.id);
      return { success: true };
    },
  );

  app.post(
    '/:id/test',
    {
      config: { ...manage, errors: [422] },
      schema: {
        tags,
        summary: "List the provider's models with this connection's credentials",
        params: IdParams,
        response: { 200: DataOf(ConnectionTestResult) },
      },
    },
    async (request) => ({ data: await tester.test(request.actor, request.params.id) }),
  );

  app.post(
    '/:id/refresh',
    {
      config: { ...manage, errors: [422] },
      schema: {
        tags,
        summary: "Renew an OAuth connection's access token now",
        params: IdParams,
        response: { 200: DataOf(Connection) },
      },
    },
    async (request) => ({ data: await tokens.refreshNow(request.actor, request.params.id) }),
  );
};
