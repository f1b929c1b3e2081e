import type { GatewayModule } from '../../core/app.js';
import type { UserService } from '../users/service.js';
import { authRoutes } from './routes.js';
import { AuthService } from './service.js';

/**
 * Login, sessions and API tokens: builds the service once and registers its routes. It answers a
 * login with the user record, so it is handed the users area's service (see `users/module.ts`).
 */
const authModule: GatewayModule<{ users: UserService }> = async (app, { users }) => {
  await app.register(authRoutes, { auth: new AuthService({ ...app.deps, users }) });
};

export default authModule;
