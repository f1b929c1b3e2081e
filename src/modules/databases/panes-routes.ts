import type { GatewayModule } from '../../core/app.js';
import { IdParams, Success } from '../../core/http-schemas.js';
import { ClientList, ServerInfo, Slowlog, SlowlogQuery } from './keyvalue-schemas.js';
import type { ServerPanes } from './panes.js';

const read = { scope: 'databases:read', errors: [422] } as const;
const admin = { scope: 'databases:admin', errors: [422] } as const;
const tags = ['databases'];

/** INFO, slow log and client list of a key-value database, under `/api/databases/{id}/keyvalue`. */
export const paneRoutes: GatewayModule<{ panes: ServerPanes }> = async (app, { panes }) => {
  app.get(
    '/:id/keyvalue/info',
    {
      config: read,
      schema: {
        tags,
        summary: 'INFO, parsed into sections',
        params: IdParams,
        response: { 200: ServerInfo },
      },
    },
    async (request) => ({ data: await panes.info(request.params.id) }),
  );
  app.get(
    '/:id/keyvalue/slowlog',
    {
      config: read,
      schema: {
        tags,
        summary: 'The slow log, newest first',
        params: IdParams,
        querystring: SlowlogQuery,
        response: { 200: Slowlog },
      },
    },
    async (request) => ({ data: await panes.slowlog(request.params.id, request.query.count ?? 128) }),
  );
  app.delete(
    '/:id/keyvalue/slowlog',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Empty the slow log (SLOWLOG RESET)',
        params: IdParams,
        response: { 200: Success },
      },
    },
    async (request) => {
      await panes.resetSlowlog(request.actor, request.params.id);
      return { success: true };
    },
  );
  app.get(
    '/:id/keyvalue/clients',
    {
      config: read,
      schema: {
        tags,
        summary: 'The connected clients (CLIENT LIST)',
        params: IdParams,
        response: { 200: ClientList },
      },
    },
    async (request) => ({ data: await panes.clients(request.params.id) }),
  );
};
