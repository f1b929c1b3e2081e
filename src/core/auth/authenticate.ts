import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, forbidden, notFound, unauthorized } from '../errors.js';
import type { Principal, PrincipalResolver } from './principal-resolver.js';
import { type RouteResource, routeResource } from './resource-routes.js';
import { AUTHENTICATED, hasAnyGrantOn, hasScope, hasScopeSomewhere, type RequiredScope } from './scopes.js';
import { hashTokenSecret, looksLikeTokenSecret, safeEqual } from './token-secrets.js';

export const SESSION_COOKIE = 'infragate_session';
/** The header a cookie-authenticated change carries the session's CSRF token in. */
export const CSRF_HEADER = 'x-csrf-token';

/** Methods that change nothing: a session cookie alone authorises them (no CSRF token). */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

// Unknown paths under these prefixes still want a token first, so probing reveals nothing.
const PROTECTED_PREFIXES = ['/api/', '/auth/'];

interface Credential {
  secret: string;
  viaCookie: boolean;
}

/**
 * A cookie's value. Cookies are parsed only when asked (no parsing hook on every request, so API
 * calls with a bearer token never pay for it): read them here, never from `request.cookies`.
 */
export function requestCookie(request: FastifyRequest, name: string): string | undefined {
  const cookies = request.headers.cookie;
  return cookies ? request.server.parseCookie(cookies)[name] : undefined;
}

/** The session cookie's value. */
export const sessionCookie = (request: FastifyRequest) => requestCookie(request, SESSION_COOKIE);

function readCredential(request: FastifyRequest): Credential | undefined {
  const header = request.headers.authorization;
  if (header !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    return match ? { secret: match[1]!, viaCookie: false } : { secret: '', viaCookie: false };
  }
  const cookie = sessionCookie(request);
  return cookie ? { secret: cookie, viaCookie: true } : undefined;
}

/** Browsers attach cookies to cross-site requests; a session cookie alone never authorises a change. */
function assertCsrfSafe(request: FastifyRequest, csrfHash: string | null): void {
  if (SAFE_METHODS.has(request.method)) return;
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== `${request.protocol}://${request.host}`) {
    throw forbidden({
      reason: 'CROSS_ORIGIN',
      explanation: 'cookie-authenticated changes must come from the same origin',
    });
  }
  const presented = request.headers[CSRF_HEADER];
  if (typeof presented !== 'string' || !csrfHash || !safeEqual(hashTokenSecret(presented), csrfHash)) {
    throw forbidden({
      reason: 'CSRF_TOKEN_INVALID',
      explanation: `send the csrfToken from login in ${CSRF_HEADER}`,
    });
  }
}

/** Requests let in on resource scopes alone: the resource they name is checked once validated. */
const resourceChecks = new WeakMap<FastifyRequest, Extract<RouteResource, { kind: 'one' }>>();
/** Requests answered 404 because the caller may not see the resource: the id, for the access audit. */
const hiddenResources = new WeakMap<FastifyRequest, string>();

/** The resource a request was refused (answered 404) because the caller may not see it. */
export const hiddenResourceOf = (request: FastifyRequest) => hiddenResources.get(request);

/**
 * The resource check of a route that acts on one resource, for a caller whose scopes reach some
 * resources of the area but not all: allowed on this one, 403 when the caller can see it but lacks
 * the permission, 404 when it cannot see it (existing or not: nothing leaks).
 */
function checkResource(request: FastifyRequest, resource: Extract<RouteResource, { kind: 'one' }>): void {
  const required = request.routeOptions.config.scope as RequiredScope;
  const resourceId = String((request.params as Record<string, unknown>)[resource.param]);
  const { scopes } = request.actor;
  if (hasScope(scopes, required, resourceId)) return;
  if (hasAnyGrantOn(scopes, resource.area, resourceId))
    throw new AppError('FORBIDDEN', { requiredScope: `${required}:${resourceId}` });
  hiddenResources.set(request, resourceId);
  throw notFound();
}

/**
 * Runs first on every request (onRequest, before body parsing), so the order of answers is
 * 401 → 403 → validation → 404 for a resource. A route acting on one resource, called on resource
 * scopes alone, has that resource checked after validation (preHandler), keeping the order.
 */
export function registerAuthentication(app: FastifyInstance, principals: PrincipalResolver): void {
  app.decorateRequest('actor', null as never);

  app.addHook('onRoute', (route) => {
    const config = (route.config ?? {}) as { scope?: string; public?: boolean };
    if (Boolean(config.scope) === Boolean(config.public)) {
      throw new Error(
        `route ${route.method} ${route.url} must declare exactly one of config.scope or config.public`,
      );
    }
    const resource = routeResource([route.method].flat(), route.url, config.scope);
    if (resource) route.config = { ...route.config, resource };
  });

  // Callback hooks with a synchronous path: a call whose token is cached (nearly every call) makes
  // no promise here.
  app.addHook('preHandler', (request, _reply, done) => {
    const resource = resourceChecks.get(request);
    if (resource) checkResource(request, resource);
    done();
  });

  app.addHook('onRequest', (request, _reply, done) => {
    const pending = authenticate(request, principals);
    if (pending) pending.then(() => done(), done);
    else done();
  });
}

/** Sets `request.actor` or throws 401/403; a promise only when it has to wait (a database read). */
function authenticate(request: FastifyRequest, principals: PrincipalResolver): Promise<void> | undefined {
  const access = request.routeOptions.config;
  const knownRoute = request.routeOptions.url !== undefined;
  if (access.public) return;
  if (!knownRoute && !PROTECTED_PREFIXES.some((prefix) => request.url.startsWith(prefix))) return;

  const credential = readCredential(request);
  // A route's own narrow credential (never from a cookie); every other route refuses it below.
  const routeCredential = access.credential;
  if (
    routeCredential &&
    credential &&
    !credential.viaCookie &&
    routeCredential.recognises(credential.secret)
  ) {
    return (async () => {
      const actor = await routeCredential.authenticate(credential.secret, request);
      if (!actor) throw unauthorized();
      request.actor = actor;
      await routeCredential.authorize(actor, request);
    })();
  }
  if (!credential || !looksLikeTokenSecret(credential.secret)) throw unauthorized();
  const tokenHash = hashTokenSecret(credential.secret);
  const cached = principals.resolveCached(tokenHash);
  if (cached !== undefined) return admitPrincipal(request, cached, credential, knownRoute);
  return principals
    .resolveStored(tokenHash)
    .then((principal) => admitPrincipal(request, principal, credential, knownRoute));
}

/** Lets the caller in as the principal, or refuses: no principal, a failed CSRF check, a missing scope. */
function admitPrincipal(
  request: FastifyRequest,
  principal: Principal | null,
  credential: Credential,
  knownRoute: boolean,
): undefined {
  if (!principal) throw unauthorized();
  if (credential.viaCookie) assertCsrfSafe(request, principal.csrfHash);
  const access = request.routeOptions.config;

  request.actor = {
    userId: principal.userId,
    email: principal.email,
    name: principal.name,
    groupName: principal.groupName,
    scopes: principal.scopes,
    tokenId: principal.tokenId,
    tokenKind: principal.tokenKind,
    tokenExpiresAt: principal.expiresAt,
    requestId: request.id,
    clientIp: request.ip,
  };
  if (!knownRoute || access.scope === AUTHENTICATED || hasScope(principal.scopes, access.scope!)) return;
  // Resource scopes alone: enough for a route on one resource (checked once validated) or a list
  // of what the caller may see, when they reach at least one resource with this permission.
  if (!access.resource || !hasScopeSomewhere(principal.scopes, access.scope!))
    throw new AppError('FORBIDDEN', { requiredScope: access.scope });
  if (access.resource.kind === 'one') resourceChecks.set(request, access.resource);
}
