import type { GatewayModule } from '../../core/app.js';
import { areaAccess } from '../../core/auth/area-access.js';
import { DataOf, IdParams, PageOf, Success } from '../../core/http-schemas.js';
import { DataWithDroppedSecrets } from '../../core/trust-boundary.js';
import type { ConnectorService } from './connectors.js';
import {
  Connector,
  ConnectorChanges,
  ConnectorListQuery,
  NewConnector,
  PreviewRequest,
  PreviewResult,
  TestReport,
} from './schemas.js';

const { view, manage } = areaAccess('integrations');

const tags = ['integrations'];

/**
 * `/api/integrations/repohost/connectors`: repository host (GitLab API v4) connectors
 * (`integrations:view` / `integrations:manage`).
 */
export const connectorRoutes: GatewayModule<{ connectors: ConnectorService }> = async (
  app,
  { connectors },
) => {
  app.post(
    '/preview-test',
    {
      config: { ...manage, errors: [422] },
      schema: {
        tags,
        summary: 'Test a URL and token once and preview what the token can see (nothing is stored)',
        body: PreviewRequest,
        response: { 200: DataOf(PreviewResult) },
      },
    },
    async (request) => ({ data: await connectors.preview(request.body) }),
  );

  app.get(
    '',
    {
      config: view,
      schema: {
        tags,
        summary: 'List connectors',
        querystring: ConnectorListQuery,
        response: { 200: PageOf(Connector) },
      },
    },
    async (request) => connectors.list(request.actor, request.query),
  );

  app.post(
    '',
    {
      config: { ...manage, errors: [409, 422] },
      schema: {
        tags,
        summary: 'Create a connector (tested first; a failing test refuses it)',
        body: NewConnector,
        response: { 201: DataOf(Connector) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await connectors.create(request.actor, request.body) }),
  );

  app.get(
    '/:id',
    {
      config: view,
      schema: { tags, summary: 'Get a connector', params: IdParams, response: { 200: DataOf(Connector) } },
    },
    async (request) => ({ data: await connectors.get(request.params.id) }),
  );

  app.patch(
    '/:id',
    {
      config: { ...manage, errors: [409, 422] },
      schema: {
        tags,
        summary: 'Change a connector (a new URL, token or allowlist is tested first)',
        description:
          'A new `baseUrl` (scheme, host, port or path) needs the area-wide `integrations:manage` (403 ' +
          '`BOUNDARY_CHANGE_NEEDS_AREA_SCOPE` for a scope naming this connector) and drops the stored token ' +
          'unless `token` is sent in the same request (`droppedSecrets` names it; nothing is sent to the new ' +
          'URL then, and the connector waits for a token: `lastTestError.reason` `TOKEN_REQUIRED`).',
        params: IdParams,
        body: ConnectorChanges,
        response: { 200: DataWithDroppedSecrets(Connector) },
      },
    },
    async (request) => connectors.update(request.actor, request.params.id, request.body),
  );

  app.delete(
    '/:id',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Delete a connector and its token',
        params: IdParams,
        response: { 200: Success },
      },
    },
    async (request) => {
      await connectors.remove(request.actor, request.params.id);
      return { success: true };
    },
  );

  app.post(
    '/:id/test',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Re-test a saved connector with its stored token and record the outcome',
        params: IdParams,
        response: { 200: DataOf(TestReport) },
      },
    },
    async (request) => ({ data: await connectors.test(request.actor, request.params.id) }),
  );
};
