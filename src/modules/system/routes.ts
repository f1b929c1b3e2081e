import type { GatewayModule } from '../../core/app.js';
import type { HealthService } from './health.js';
import { Status } from './schemas.js';

const open = { public: true } as const;
const tags = ['system'];

/** Liveness and readiness for load balancers and orchestrators; no token needed. */
export const systemRoutes: GatewayModule<{ health: HealthService }> = async (app, { health }) => {
  app.get(
    '/healthz',
    { config: open, schema: { tags, summary: 'Process is up', response: { 200: Status } } },
    async () => health.live(),
  );
  app.get(
    '/readyz',
    {
      config: { ...open, errors: [503] },
      schema: { tags, summary: 'Database answers', response: { 200: Status } },
    },
    async () => health.ready(),
  );
};
