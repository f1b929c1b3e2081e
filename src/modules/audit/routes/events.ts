import type { GatewayModule } from '../../../core/app.js';
import { DataOf, PageOf } from '../../../core/http-schemas.js';
import type { AuditChainService } from '../chain.js';
import type { AuditEventService } from '../events.js';
import { AuditEvent, ChainReport, Checkpoint, EventListQuery, IdParam, VerifyQuery } from '../schemas.js';
import { view } from './access.js';

const tags = ['audit'];

/** Reading and verifying the audit trail, registered under `/api/audit`. */
export const eventRoutes: GatewayModule<{ events: AuditEventService; chain: AuditChainService }> = async (
  app,
  { events, chain },
) => {
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
        description:
          'Checks the sequenced events and counts those not sequenced yet. With a checkpoint kept from ' +
          'GET /api/audit/checkpoint, also checks that the event at its seq still has its hash.',
        querystring: VerifyQuery,
        response: { 200: DataOf(ChainReport) },
      },
    },
    async (request) => ({ data: await chain.verify(request.query) }),
  );

  app.get(
    '/checkpoint',
    {
      config: view,
      schema: {
        tags,
        summary: "The chain's head seq and hash, signed with the gateway's Ed25519 checkpoint key",
        description:
          'Keep checkpoints outside the gateway: a later GET /api/audit/verify with one proves the log ' +
          'still holds the same events up to it.',
        response: { 200: DataOf(Checkpoint) },
      },
    },
    async () => ({ data: await chain.checkpoint() }),
  );
};
