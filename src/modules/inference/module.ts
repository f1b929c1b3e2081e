import { systemActor } from '../../core/actor.js';
import type { GatewayModule } from '../../core/app.js';
import { loadCatalog } from '../../inference-catalog.js';
import { ConnectionTester } from './connection-test.js';
import { ConnectionService } from './connections.js';
import { ConsumerKeys } from './consumer-keys.js';
import { ModelRoutes } from './model-routes.js';
import { OAuthSessionService } from './oauth-sessions.js';
import { Circuits } from './plane/circuit.js';
import { InferencePlane } from './plane/data-plane.js';
import { UpstreamCaller } from './plane/upstream.js';
import { ProviderCatalog } from './provider-catalog.js';
import { catalogRoutes } from './routes/catalog.js';
import { connectionRoutes } from './routes/connections.js';
import { dataPlaneRoutes } from './routes/data-plane.js';
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
  const circuits = new Circuits({
    failures: deps.config.inferenceCircuitFailures,
    coolDownMs: deps.config.inferenceCircuitCoolDownMs,
  });
  const upstream = new UpstreamCaller({ ...deps, catalog, tokens });
  const plane = new InferencePlane({ ...deps, keys, routes, upstream, circuits });

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
  await app.register(dataPlaneRoutes, {
    prefix: '/inference',
    plane,
    maxBodyBytes: deps.config.inferenceMaxBodyBytes,
  });
};

export default inferenceModule;
