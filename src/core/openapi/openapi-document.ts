/**
 * How every operation of /openapi.json is documented, in one place rather than in each route:
 * `documentRoute` (the @fastify/swagger `transform`) adds what only the route knows (its access
 * declaration and the extra error answers it lists in `config.errors`); `completeDocument` (the
 * `transformObject`) adds what follows from the whole document: operation ids, error answers,
 * security schemes, servers, license and tag descriptions.
 */
import type { FastifySchema, RouteOptions } from 'fastify';
import type { RouteAccess } from '../app.js';
import { SESSION_COOKIE } from '../auth/authenticate.js';
import { RESOURCE_AREAS } from '../auth/scopes.js';
import { ERROR_MESSAGE } from '../errors.js';
import { PaginationSchema } from '../pagination.js';
import { operationIds } from './operation-ids.js';

/** Error answers a route can list in `config.errors` beyond those that follow from its shape. */
export type DeclaredErrorStatus = 400 | 401 | 409 | 413 | 415 | 422 | 429;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Error answers this route gives beyond those its shape implies (documented in /openapi.json). */
    errors?: readonly DeclaredErrorStatus[];
  }
}

export interface DocumentOptions {
  version: string;
  publicUrl: string;
  license: string;
}

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI objects are plain JSON
type Json = any;

const CARRIED_ERRORS = 'x-infragate-errors';
const ERROR_REF = { $ref: '#/components/schemas/Error' };
const GUARDED = [{ bearer: [] }, { session: [] }];
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

const ERROR_RESPONSES: Record<string, { name: string; description: string }> = {
  400: {
    name: 'BadRequest',
    description: 'VALIDATION_ERROR: a parameter or the body is invalid (`details` lists each problem)',
  },
  401: { name: 'Unauthorized', description: 'UNAUTHORIZED: no valid token or session' },
  403: { name: 'Forbidden', description: 'FORBIDDEN: the caller lacks the required scope' },
  404: { name: 'NotFound', description: 'NOT_FOUND: the resource named by the path does not exist' },
  409: {
    name: 'Conflict',
    description: 'CONFLICT: the change collides with the current state (`details.reason` says how)',
  },
  413: {
    name: 'PayloadTooLarge',
    description: 'VALIDATION_ERROR: the body is larger than the gateway accepts',
  },
  415: {
    name: 'UnsupportedMediaType',
    description: 'VALIDATION_ERROR: the body has a content type this operation does not take',
  },
  422: {
    name: 'UnprocessableEntity',
    description:
      'UNPROCESSABLE_ENTITY: well formed, but cannot be carried out (`details.reason`, `details.explanation`)',
  },
  429: {
    name: 'TooManyRequests',
    description:
      'UNPROCESSABLE_ENTITY with `details.reason` RATE_LIMITED: over a rate limit; `Retry-After` says when to retry',
  },
};

const TAGS: Record<string, string> = {
  system: 'Liveness and readiness probes',
  auth: 'Sign-in, sessions and API tokens of the caller',
  console: 'First-run setup of the web console',
  admin: 'Users and groups with their scopes',
  'logging schemas': 'Log schemas and the folders they are kept in',
  'logging environments': 'Log environments and the folders they are kept in',
  'logging ingest': 'Ingest tokens and the ingest endpoints (JSON, NDJSON, OTLP) they authenticate',
  'logging records': 'Search, facets, histogram and live tail of stored log records',
  containerhost:
    'Container engine nodes: containers, images, networks, volumes, files, health checks, folders',
  databases: 'Key-value database connections and their command console',
  audit: 'The tamper-evident audit trail and its export to SIEM destinations',
  certificates: 'TLS certificates: upload, ACME orders and renewals, DNS providers',
  pages: 'Static sites: projects, deployments, domains, deploy tokens and the public site server',
  integrations: 'Repository-host connectors',
  inference: 'Inference-provider connections and their OAuth sign-in',
  nodes: 'Storage nodes and resumable file uploads to them',
  notifications: 'Notification channels, alert rules and their deliveries',
};

/** How a caller authenticates: given to @fastify/swagger up front, which reads them per route. */
export const SECURITY_SCHEMES = {
  bearer: {
    type: 'http',
    scheme: 'bearer',
    description: 'An API token (`Authorization: Bearer <token>`)',
  },
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description:
      "The console session set by `POST /auth/login`. A change (any method but GET/HEAD) made with it must also send the `csrfToken` from login in the `x-csrf-token` header, from the gateway's own origin.",
  },
} as const;

/** The wildcard of a catch-all route (`/sites/:slug/*`) documented as a named parameter. */
function nameWildcard(schema: Json, url: string): { schema: Json; url: string } {
  if (!url.endsWith('/*')) return { schema, url };
  const params = schema.params
    ? { ...schema.params, properties: { ...schema.params.properties } }
    : undefined;
  if (params?.properties['*']) {
    params.properties.path = { ...params.properties['*'], description: 'Path of the file, may contain `/`' };
    delete params.properties['*'];
    params.required = (params.required ?? []).map((name: string) => (name === '*' ? 'path' : name));
  }
  return { schema: { ...schema, ...(params ? { params } : {}) }, url: `${url.slice(0, -1)}:path` };
}

/**
 * The access a route needs, in words, and the resource scopes it accepts as extensions:
 * `x-resource-scope` on an operation on one resource (the scope with the path parameter naming it),
 * `x-resource-filter` on a list that answers only the resources the caller's scopes name.
 */
function describeAccess(config: RouteAccess, documented: Json): string {
  if (config.scope === 'authenticated') return 'Requires a signed-in caller.';
  const resource = config.resource;
  if (!resource) return `Requires scope \`${config.scope}\`.`;
  const kind = RESOURCE_AREAS[resource.area];
  if (resource.kind === 'one') {
    const scope = `${config.scope}:{${resource.param}}`;
    documented['x-resource-scope'] = { scope, param: resource.param, resource: kind };
    return `Requires scope \`${config.scope}\`, or \`${scope}\` for this ${kind}; a caller whose scopes name only other ${kind}s gets 404.`;
  }
  const scope = `${config.scope}:<id>`;
  documented['x-resource-filter'] = { scope, resource: kind };
  return `Requires scope \`${config.scope}\`, or \`${scope}\` for some ${kind}s: it then answers only those.`;
}

/** The @fastify/swagger `transform`: one route's access and declared errors. */
export function documentRoute({
  schema,
  url,
  route,
}: {
  schema: FastifySchema;
  url: string;
  route: RouteOptions;
}) {
  const config = (route.config ?? {}) as RouteAccess & { errors?: readonly number[] };
  const documented: Json = { ...schema };
  if (config.public) documented.security = [];
  else {
    documented.security = GUARDED;
    documented['x-required-scope'] = config.scope;
    const access = describeAccess(config, documented);
    documented.description = documented.description ? `${documented.description}\n\n${access}` : access;
  }
  if (config.errors?.length) documented[CARRIED_ERRORS] = [...config.errors];
  return nameWildcard(documented, url);
}

/** The error statuses an operation can answer, from its shape and its declaration. */
function errorStatuses(path: string, operation: Json): number[] {
  const statuses = new Set<number>(operation[CARRIED_ERRORS] ?? []);
  if (operation.parameters?.length || operation.requestBody) statuses.add(400);
  if (operation.security?.length) {
    statuses.add(401);
    statuses.add(403);
  }
  if (path.includes('{')) statuses.add(404);
  if (operation.requestBody) {
    statuses.add(413);
    statuses.add(415);
  }
  return [...statuses].sort((a, b) => a - b);
}

/** The shared list envelope: every inline copy of it becomes a reference to one component. */
function referencePagination(node: Json, pagination: string): void {
  if (!node || typeof node !== 'object') return;
  for (const [key, value] of Object.entries<Json>(node)) {
    if (value && typeof value === 'object' && JSON.stringify(value) === pagination)
      node[key] = { $ref: '#/components/schemas/Pagination' };
    else referencePagination(value, pagination);
  }
}

/** The shared parts; an error answer is listed only when an operation refers to it. */
function components(answered: Set<number>): Json {
  const responses = Object.fromEntries(
    [...answered]
      .sort((a, b) => a - b)
      .map((status) => ERROR_RESPONSES[status]!)
      .map(({ name, description }) => [
        name,
        { description, content: { 'application/json': { schema: ERROR_REF } } },
      ]),
  );
  return {
    securitySchemes: SECURITY_SCHEMES,
    responses,
    schemas: {
      Error: {
        type: 'object',
        description: 'The envelope of every error answer',
        required: ['code', 'message'],
        properties: {
          code: { type: 'string', enum: Object.keys(ERROR_MESSAGE) },
          message: { type: 'string' },
          details: {
            description: 'VALIDATION_ERROR: one entry per problem; other codes: `reason` and `explanation`',
            anyOf: [
              { type: 'array', items: { $ref: '#/components/schemas/ValidationIssue' } },
              {
                type: 'object',
                properties: { reason: { type: 'string' }, explanation: { type: 'string' } },
                additionalProperties: true,
              },
            ],
          },
        },
      },
      ValidationIssue: {
        type: 'object',
        required: ['path', 'message'],
        properties: {
          path: {
            type: 'array',
            items: { type: ['string', 'integer'] },
            description: 'Where the problem is',
          },
          message: { type: 'string' },
          in: { type: 'string', description: 'params, querystring or headers; absent for the body' },
        },
      },
      Pagination: PaginationSchema,
    },
  };
}

/** The @fastify/swagger `transformObject`: completes the document the routes produced. */
export function completeDocument(document: Json, options: DocumentOptions): Json {
  const operations: { path: string; method: string; operation: Json }[] = [];
  for (const [path, item] of Object.entries<Json>(document.paths ?? {}))
    for (const method of METHODS)
      if (item[method]) operations.push({ path, method, operation: item[method] });
  const names = operationIds(
    operations.map(({ path, method, operation }) => ({ path, method, operationId: operation.operationId })),
  );
  const answered = new Set<number>();
  operations.forEach(({ path, operation }, index) => {
    operation.operationId = names[index];
    for (const status of errorStatuses(path, operation)) {
      answered.add(status);
      operation.responses[status] = { $ref: `#/components/responses/${ERROR_RESPONSES[status]!.name}` };
    }
    delete operation[CARRIED_ERRORS];
  });
  const shared = components(answered);
  referencePagination(document.paths, JSON.stringify(shared.schemas.Pagination));
  const used = new Set(operations.flatMap(({ operation }) => operation.tags ?? []));
  return {
    openapi: document.openapi,
    info: {
      ...document.info,
      version: options.version,
      license: { name: options.license, identifier: options.license },
    },
    servers: [{ url: options.publicUrl, description: 'This gateway' }],
    tags: Object.entries(TAGS)
      .filter(([name]) => used.has(name))
      .map(([name, description]) => ({ name, description })),
    security: GUARDED,
    paths: document.paths,
    components: {
      ...document.components,
      ...shared,
      schemas: { ...document.components?.schemas, ...shared.schemas },
    },
  };
}
