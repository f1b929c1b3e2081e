import type { GatewayModule } from '../core/app.js';
import auditRoutes from './audit/routes.js';
import authRoutes from './auth/routes.js';
import certificatesModule from './certificates/module.js';
import containerhostRoutes from './containerhost/routes.js';
import databaseRoutes from './databases/routes.js';
import inferenceRoutes from './inference/routes.js';
import loggingRoutes from './logging/routes.js';
import nodeRoutes from './nodes/routes.js';
import notificationsModule from './notifications/module.js';
import pagesRoutes from './pages/routes.js';
import repohostRoutes from './repohost/routes.js';
import systemRoutes from './system/routes.js';
import userRoutes from './users/routes.js';

/** Every area of the gateway, registered in this order. */
export const modules: GatewayModule[] = [
  systemRoutes,
  authRoutes,
  userRoutes,
  loggingRoutes,
  containerhostRoutes,
  databaseRoutes,
  auditRoutes,
  certificatesModule,
  pagesRoutes,
  repohostRoutes,
  inferenceRoutes,
  nodeRoutes,
  notificationsModule,
];
