import type { GatewayModule } from '../../core/app.js';
import { HealthService } from './health.js';
import { systemRoutes } from './routes.js';

/** Liveness and readiness probes: builds the service once and registers its routes. */
const systemModule: GatewayModule = async (app) => {
  await app.register(systemRoutes, { health: new HealthService(app.deps) });
};

export default systemModule;
