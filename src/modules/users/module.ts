import type { GatewayModule } from '../../core/app.js';
import authModule from '../auth/module.js';
import { userRoutes } from './routes.js';
import { UserService } from './service.js';

/**
 * Users and groups, and the auth area that signs them in: one UserService, built here, serves both
 * (the CLI's admin commands build theirs the same way, from the same deps).
 */
const usersModule: GatewayModule = async (app) => {
  const users = new UserService(app.deps);
  await app.register(authModule, { users });
  await app.register(userRoutes, { prefix: '/api/admin', users });
};

export default usersModule;
