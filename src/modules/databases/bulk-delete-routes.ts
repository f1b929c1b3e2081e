import { Type } from 'typebox';
import type { GatewayModule } from '../../core/app.js';
import { DataOf, IdParams } from '../../core/http-schemas.js';
import { BulkDeleter } from './bulk-delete.js';
import { BulkDeleteBody, BulkDeleteJob, BulkDeleteJobParams, BulkDeletePlan } from './keyvalue-schemas.js';

const admin = { scope: 'databases:admin', errors: [422] } as const;
const tags = ['databases'];

/** Bulk delete by pattern (`databases:admin`): a dry run, then a background job with progress. */
export const bulkDeleteRoutes: GatewayModule<{ bulk: BulkDeleter }> = async (app, { bulk }) => {
  app.post(
    '/:id/keyvalue/bulk-delete',
    {
      config: admin,
      schema: {
        tags,
        summary: "Count the keys a pattern matches (dryRun), or delete them with the dry run's confirmToken",
        description:
          '`{pattern, dryRun: true}` answers 200 `{count, confirmToken}` and deletes nothing; ' +
          '`{pattern, confirmToken}` answers 202 with the job that deletes them in SCAN batches.',
        params: IdParams,
        body: BulkDeleteBody,
        response: { 200: DataOf(BulkDeletePlan), 202: DataOf(BulkDeleteJob) },
      },
    },
    async (request, reply) => {
      const { actor, params, body } = request;
      if (BulkDeleter.mode(body) === 'dryRun') return { data: await bulk.dryRun(actor, params.id, body) };
      return reply.status(202).send({ data: await bulk.start(actor, params.id, body) });
    },
  );

  app.get(
    '/:id/keyvalue/bulk-delete/:jobId',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Progress of a bulk delete',
        params: BulkDeleteJobParams,
        response: { 200: Type.Object({ data: BulkDeleteJob }) },
      },
    },
    async (request) => ({ data: bulk.progress(request.params.id, request.params.jobId) }),
  );
};
