import type { GatewayModule } from '../server.js';
import auditRoutes from './audit/routes.js';
import authRoutes from './auth/routes.js';
import systemRoutes from './system/routes.js';
import userRoutes from './users/routes.js';

/** Every area of the gateway, registered in this order. */
export const modules: GatewayModule[] = [systemRoutes, authRoutes, userRoutes, auditRoutes];
