import type { GatewayModule } from '../../core/app.js';
import { systemRoutes } from './routes.js';
import { SystemService } from './service.js';

/** Liveness and readiness probes: builds the service once and registers its routes. */
const systemModule: GatewayModule = async (app) => {
  await app.register(systemRoutes, { system: new SystemService(app.deps) });
};

export default systemModule;
