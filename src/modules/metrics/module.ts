import type { GatewayModule } from '../../core/app.js';
import { metricsRoutes } from './routes.js';

/** GET /metrics: what every area put into `deps.metrics`, for Prometheus. */
const metricsModule: GatewayModule = async (app) => {
  const { metrics, config } = app.deps;
  await app.register(metricsRoutes, { metrics, token: config.metricsToken });
};

export default metricsModule;
