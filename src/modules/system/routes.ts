import type { GatewayModule } from '../../core/app.js';
import { Status } from './schemas.js';
import type { SystemService } from './service.js';

const open = { public: true } as const;
const tags = ['system'];

/** Liveness and readiness for load balancers and orchestrators; no token needed. */
export const systemRoutes: GatewayModule<{ system: SystemService }> = async (app, { system }) => {
  app.get(
    '/healthz',
    { config: open, schema: { tags, summary: 'Process is up', response: { 200: Status } } },
    async () => system.live(),
  );
  app.get(
    '/readyz',
    {
      config: { ...open, errors: [503] },
      schema: { tags, summary: 'Database answers', response: { 200: Status } },
    },
    async () => system.ready(),
  );
};
