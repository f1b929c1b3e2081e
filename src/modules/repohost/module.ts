import type { GatewayModule } from '../../core/app.js';
import { connectorRoutes } from './routes.js';
import { RepohostService } from './service.js';

/** Repository host connectors: builds the service once and registers its routes. */
const repohostModule: GatewayModule = async (app) => {
  await app.register(connectorRoutes, {
    prefix: '/api/integrations/repohost/connectors',
    connectors: new RepohostService(app.deps),
  });
};

export default repohostModule;
