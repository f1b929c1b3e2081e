import type { GatewayModule } from '../../../core/app.js';
import { PageOf } from '../../../core/http-schemas.js';
import type { HealthOverviewService } from '../health-overview.js';
import { HealthOverviewItem, HealthOverviewQuery } from '../schemas/health-checks.js';
import { tags, view } from './declarations.js';

/** `/api/containerhost/health-checks`: every saved check across nodes with its latest status. */
export const healthOverviewRoutes: GatewayModule<{ overview: HealthOverviewService }> = async (
  app,
  { overview },
) => {
  app.get(
    '/',
    {
      config: view,
      schema: {
        tags,
        summary:
          'Every saved health check across nodes with its latest status, filterable by status and node',
        querystring: HealthOverviewQuery,
        response: { 200: PageOf(HealthOverviewItem) },
      },
    },
    async (request) => overview.list(request.actor, request.query),
  );
};
