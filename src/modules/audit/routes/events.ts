import type { GatewayModule } from '../../../core/app.js';
import { DataOf, PageOf } from '../../../core/http-schemas.js';
import type { AuditEventService } from '../events.js';
import { AuditEvent, ChainReport, EventListQuery, IdParam } from '../schemas.js';
import { view } from './access.js';

const tags = ['audit'];

/** Reading and verifying the audit trail, registered under `/api/audit`. */
export const eventRoutes: GatewayModule<{ events: AuditEventService }> = async (app, { events }) => {
  app.get(
    '/events',
    {
      config: view,
      schema: {
        tags,
        summary: 'List audit events, newest first',
        querystring: EventListQuery,
        response: { 200: PageOf(AuditEvent) },
      },
    },
    async (request) => events.list(request.query),
  );

  app.get(
    '/events/:id',
    {
      config: view,
      schema: {
        tags,
        summary: 'Get one audit event',
        params: IdParam,
        response: { 200: DataOf(AuditEvent) },
      },
    },
    async (request) => ({ data: await events.get(request.params.id) }),
  );

  app.get(
    '/verify',
    {
      config: view,
      schema: {
        tags,
        summary: 'Walk the hash chain and report the first broken link',
        response: { 200: DataOf(ChainReport) },
      },
    },
    async () => ({ data: await events.verify() }),
  );
};
