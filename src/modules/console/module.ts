import type { GatewayModule } from '../../core/app.js';
import { ConsoleBundle } from './bundle.js';
import { SetupService } from './setup-codes.js';
import { consoleSetupRoutes } from './setup-routes.js';
import { consoleStaticRoutes } from './static-routes.js';

/** The web console: its built files at `/` and the first-start setup link. */
const consoleModule: GatewayModule = async (app) => {
  await app.register(consoleStaticRoutes, { bundle: new ConsoleBundle() });
  await app.register(consoleSetupRoutes, {
    setup: new SetupService(app.deps),
    cookieSecure: app.deps.config.cookieSecure,
  });
};

export default consoleModule;
