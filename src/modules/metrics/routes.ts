import { Type } from 'typebox';
import type { GatewayModule } from '../../core/app.js';
import { EXPOSITION_CONTENT_TYPE } from '../../core/metrics/exposition.js';
import type { Metrics } from '../../core/metrics/registry.js';
import { metricsTokenCredential } from './metrics-token.js';

/** The gateway's own metrics for Prometheus (docs/api/metrics.md). */
export const metricsRoutes: GatewayModule<{ metrics: Metrics; token: string | undefined }> = async (
  app,
  { metrics, token },
) => {
  app.get(
    '/metrics',
    {
      config: { scope: 'metrics:view', credential: metricsTokenCredential(token) },
      schema: {
        tags: ['system'],
        summary: 'Gateway metrics in the Prometheus text format',
        description:
          'Requests per route template and status class, database pool, background jobs, SIEM and notification queues, ingest, and the process (docs/api/metrics.md). Takes an API token with `metrics:view` or `INFRAGATE_METRICS_TOKEN`.',
        response: { 200: { content: { 'text/plain': { schema: Type.String() } } } },
      },
    },
    async (_request, reply) => reply.type(EXPOSITION_CONTENT_TYPE).send(await metrics.render()),
  );
};
