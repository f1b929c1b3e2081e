import type { GatewayModule } from '../core/app.js';
import auditRoutes from './audit/routes.js';
import authRoutes from './auth/routes.js';
import certificatesModule from './certificates/module.js';
import containerhostRoutes from './containerhost/routes.js';
import databaseRoutes from './databases/routes.js';
import inferenceModule from './inference/module.js';
import loggingRoutes from './logging/routes.js';
import nodesModule from './nodes/module.js';
import pagesModule from './pages/module.js';
import repohostModule from './repohost/module.js';
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
  pagesModule,
  repohostModule,
  inferenceModule,
  nodesModule,
];
