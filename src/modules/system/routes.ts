import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { GatewayModule } from '../../core/app.js';
import { AppError } from '../../core/errors.js';

const Status = Type.Object({ status: Type.String() });

/** Liveness and readiness for load balancers and orchestrators; no token needed. */
const systemRoutes: GatewayModule = async (app) => {
  app.get(
    '/healthz',
    {
      config: { public: true },
      schema: { tags: ['system'], summary: 'Process is up', response: { 200: Status } },
    },
    async () => ({ status: 'ok' }),
  );
  app.get(
    '/readyz',
    {
      config: { public: true },
      schema: { tags: ['system'], summary: 'Database answers', response: { 200: Status } },
    },
    async () => {
      try {
        await app.deps.db.execute(sql`select 1`);
      } catch {
        throw new AppError('INTERNAL_ERROR', { reason: 'DATABASE_UNAVAILABLE' }, 'Database unavailable', 503);
      }
      return { status: 'ready' };
    },
  );
};

export default systemRoutes;
