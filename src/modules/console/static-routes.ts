import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { App, GatewayModule } from '../../core/app.js';
import { AppError, notFound } from '../../core/errors.js';
import { requestWithoutQuery } from '../../core/query-free-log.js';
import { PagePolicies } from '../../core/security-headers.js';
import type { ConsoleBundle, ConsoleFile } from './bundle.js';

// Paths the console never answers: an unknown path under them keeps its JSON 404 (after a 401 for
// a missing token where the prefix is protected), whatever the caller accepts.
const RESERVED_PREFIXES = [
  '/api',
  '/auth',
  '/docs',
  '/openapi.json',
  '/sites',
  '/healthz',
  '/readyz',
  '/assets',
];

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

/**
 * A request the console's page answers: a GET of `/`, or of any other path that is not reserved and
 * comes from a browser navigating (it accepts HTML). API clients asking for an unknown path still
 * get the JSON 404.
 */
export function isConsolePageRequest(method: string | undefined, url: string, accept: string | undefined) {
  if (method !== 'GET' && method !== 'HEAD') return false;
  const pathname = url.split('?', 1)[0]!;
  if (RESERVED_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`)))
    return false;
  return pathname === '/' || (accept ?? '').includes('text/html');
}

function sendFile(
  request: FastifyRequest,
  reply: FastifyReply,
  file: ConsoleFile,
  cacheControl: string,
  policies: PagePolicies,
) {
  reply
    .header('cache-control', cacheControl)
    .header('content-security-policy', policies.console(request.headers.host))
    .header('etag', file.etag)
    .type(file.contentType);
  if (request.headers['if-none-match'] === file.etag) return reply.status(304).send();
  if (!file.gzipped) return reply.send(file.body);
  reply.header('vary', 'accept-encoding');
  if (!/\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) return reply.send(file.body);
  return reply.header('content-encoding', 'gzip').send(file.gzipped);
}

const consoleNotBuilt = () =>
  new AppError('NOT_FOUND', {
    reason: 'CONSOLE_NOT_BUILT',
    explanation: 'the web console is not built: run `npm run build` (it writes dist/web)',
  });

/** Serves the built console: hashed assets cached for good, and its page for every deep link. */
type ConstraintStrategy = Parameters<App['addConstraintStrategy']>[0];
type RouteHandler = NonNullable<ReturnType<ReturnType<ConstraintStrategy['storage']>['get']>>;

export const consoleStaticRoutes: GatewayModule<{ bundle: ConsoleBundle }> = async (app, { bundle }) => {
  const policies = new PagePolicies(app.deps.config.publicUrl);
  // Deep links (/users, /account…) are the console's own routes: a constraint lets the catch-all
  // match only page requests, so every other unknown path falls through to the usual 404 handling.
  app.addConstraintStrategy({
    name: 'consolePage',
    storage() {
      const handlers = new Map<unknown, RouteHandler>();
      return {
        get: (value) => handlers.get(value) ?? null,
        set: (value, handler) => {
          handlers.set(value, handler);
        },
      };
    },
    deriveConstraint: (request) =>
      isConsolePageRequest(request.method, request.url ?? '/', request.headers.accept) ? 'yes' : 'no',
  });

  app.get(
    '/*',
    {
      config: { public: true },
      constraints: { consolePage: 'yes' },
      schema: { hide: true },
      // A page's query is the console's business and may hold a secret (the first-start setup
      // link's code): request log lines name the path only.
      logSerializers: { req: requestWithoutQuery },
    },
    async (request, reply) => {
      const page = await bundle.page();
      if (!page) throw consoleNotBuilt();
      return sendFile(request, reply, page, REVALIDATE, policies);
    },
  );

  app.get(
    '/assets/:name',
    {
      config: { public: true },
      schema: { hide: true, params: Type.Object({ name: Type.String({ maxLength: 255 }) }) },
    },
    async (request, reply) => {
      const asset = await bundle.asset(request.params.name);
      if (!asset) throw notFound();
      return sendFile(request, reply, asset, IMMUTABLE, policies);
    },
  );
};
