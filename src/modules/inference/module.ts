import { systemActor } from '../../core/actor.js';
import type { GatewayModule } from '../../core/app.js';
import { loadCatalog } from '../../inference-catalog.js';
import { ConnectionTester } from './connection-test.js';
import { ConnectionService } from './connections.js';
import { ConsumerKeys } from './consumer-keys.js';
import { ModelRoutes } from './model-routes.js';
import { OAuthSessionService } from './oauth-sessions.js';
import { ProviderCatalog } from './provider-catalog.js';
import { catalogRoutes } from './routes/catalog.js';
import { connectionRoutes } from './routes/connections.js';
import { keyRoutes } from './routes/keys.js';
import { modelRouteRoutes } from './routes/model-routes.js';
import { oauthSessionRoutes } from './routes/oauth-sessions.js';
import { TokenRefresher } from './token-refresh.js';

/** Renews OAuth access tokens before they expire. */
export const TOKEN_REFRESH_JOB = 'inference.token-refresh';
/** Ends pending OAuth sessions nobody completed before their expiresAt. */
export const SESSION_EXPIRY_JOB = 'inference.oauth-session-expiry';
const EVERY_MINUTE = 60_000;

/** Inference providers: builds the catalog and the services once, registers their jobs and routes. */
const inferenceModule: GatewayModule = async (app) => {
  const { deps } = app;
  // The operator's file was read and validated by the start-up config check; this takes what it read.
  const catalog = new ProviderCatalog(loadCatalog(deps.config.inferenceCatalogPath));
  const tokens = new TokenRefresher({ ...deps, catalog });
  const connections = new ConnectionService({ ...deps, catalog });
  const tester = new ConnectionTester({ ...deps, catalog, tokens });
  const sessions = new OAuthSessionService({ ...deps, catalog });
  const keys = new ConsumerKeys(deps);
  const routes = new ModelRoutes({ ...deps, catalog });

  deps.jobs.register({ name: TOKEN_REFRESH_JOB, intervalMs: EVERY_MINUTE, run: () => tokens.refreshDue() });
  deps.jobs.register({
    name: SESSION_EXPIRY_JOB,
    intervalMs: EVERY_MINUTE,
    run: () => sessions.expireOverdue(systemActor()),
  });

  await app.register(catalogRoutes, { prefix: '/api/inference/providers/catalog', catalog });
  await app.register(connectionRoutes, { prefix: '/api/inference/connections', connections, tester, tokens });
  await app.register(oauthSessionRoutes, { prefix: '/api/inference/providers/oauth', sessions });
  await app.register(keyRoutes, { prefix: '/api/inference/keys', keys });
  await app.register(modelRouteRoutes, { prefix: '/api/inference/routes', routes });
};

export default inferenceModule;
