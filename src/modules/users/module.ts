import type { GatewayModule } from '../../core/app.js';
import { userRoutes } from './routes.js';
import { UserService } from './users.js';

/** Users and groups (the CLI's admin commands build their UserService the same way, from the same deps). */
const usersModule: GatewayModule = async (app) => {
  await app.register(userRoutes, { prefix: '/api/admin', users: new UserService(app.deps) });
};

export default usersModule;
