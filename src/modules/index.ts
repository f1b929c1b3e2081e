import type { GatewayModule } from '../core/app.js';
import auditModule from './audit/module.js';
import certificatesModule from './certificates/module.js';
import containerhostRoutes from './containerhost/routes.js';
import databasesModule from './databases/module.js';
import inferenceRoutes from './inference/routes.js';
import loggingModule from './logging/module.js';
import nodeRoutes from './nodes/routes.js';
import pagesRoutes from './pages/routes.js';
import repohostRoutes from './repohost/routes.js';
import systemModule from './system/module.js';
import usersModule from './users/module.js';

/** Every area of the gateway, registered in this order. */
export const modules: GatewayModule[] = [
  systemModule,
  // Users and groups, with the auth area (login, sessions, tokens) sharing their service.
  usersModule,
  loggingModule,
  containerhostRoutes,
  databasesModule,
  auditModule,
  certificatesModule,
  pagesRoutes,
  repohostRoutes,
  inferenceRoutes,
  nodeRoutes,
];
