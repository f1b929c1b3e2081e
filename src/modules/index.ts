import type { GatewayModule } from '../core/app.js';
import auditModule from './audit/module.js';
import authModule from './auth/module.js';
import certificatesModule from './certificates/module.js';
import consoleModule from './console/module.js';
import containerhostModule from './containerhost/module.js';
import databasesModule from './databases/module.js';
import identityProvidersModule from './identity-providers/module.js';
import inferenceModule from './inference/module.js';
import loggingModule from './logging/module.js';
import metricsModule from './metrics/module.js';
import nodesModule from './nodes/module.js';
import notificationsModule from './notifications/module.js';
import pagesModule from './pages/module.js';
import repohostModule from './repohost/module.js';
import systemModule from './system/module.js';
import usersModule from './users/module.js';

/** Every area of the gateway, registered in this order. */
export const modules: GatewayModule[] = [
  systemModule,
  metricsModule,
  // Login, sessions, API tokens and second factors; then users and groups, who administer accounts.
  authModule,
  usersModule,
  // Single sign-on: OpenID Connect providers and the sign-in through them.
  identityProvidersModule,
  loggingModule,
  containerhostModule,
  databasesModule,
  auditModule,
  certificatesModule,
  pagesModule,
  repohostModule,
  inferenceModule,
  nodesModule,
  notificationsModule,
  consoleModule,
];
