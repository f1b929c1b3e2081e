import type { GatewayModule } from '../../core/app.js';
import { ConnectorService } from './connectors.js';
import { connectorRoutes } from './routes.js';

/** Repository host connectors: builds the service once and registers its routes. */
const repohostModule: GatewayModule = async (app) => {
  await app.register(connectorRoutes, {
    prefix: '/api/integrations/repohost/connectors',
    connectors: new ConnectorService(app.deps),
  });
};

export default repohostModule;
