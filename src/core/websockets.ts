import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sessionCookie } from './auth/authenticate.js';
import { forbidden } from './errors.js';

/** The largest message a WebSocket client may send (a terminal paste, a control message). */
const MAX_MESSAGE_BYTES = 1024 * 1024;

/**
 * A WebSocket upgrade is a GET, so the CSRF rule of cookie-authenticated changes does not apply to it,
 * yet a browser sends the session cookie with a cross-site upgrade. An upgrade authenticated by the
 * cookie must therefore come from the gateway's own origin (browsers always send Origin on upgrades);
 * bearer-token upgrades (the CLI) need none.
 */
function assertSameOriginUpgrade(request: FastifyRequest): void {
  const viaCookie = request.headers.authorization === undefined && sessionCookie(request) !== undefined;
  if (!viaCookie) return;
  if (request.headers.origin !== `${request.protocol}://${request.host}`)
    throw forbidden({
      reason: 'CROSS_ORIGIN',
      explanation: 'a WebSocket authenticated by the session cookie must be opened from the same origin',
    });
}

/**
 * Registers `@fastify/websocket` once for the whole gateway (it listens to the server's upgrades),
 * gives every WebSocket route the same-origin rule, after authentication, and keeps it in /openapi.json.
 */
export async function registerWebSockets(app: FastifyInstance): Promise<void> {
  app.addHook('onRoute', (route) => {
    if (!route.websocket) return;
    const own = route.onRequest ? [route.onRequest].flat() : [];
    route.onRequest = [...own, async (request) => assertSameOriginUpgrade(request)];
  });
  await app.register(fastifyWebsocket, { options: { maxPayload: MAX_MESSAGE_BYTES } });
  // The plugin hides its routes from the API document; ours are documented (the upgrade, the query,
  // the errors answered before it) like every other route.
  app.addHook('onRoute', (route) => {
    if (route.websocket && route.schema) route.schema.hide = false;
  });
}
