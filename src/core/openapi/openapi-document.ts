/**
 * How every operation of /openapi.json is documented, in one place rather than in each route:
 * `documentRoute` (the @fastify/swagger `transform`) adds what only the route knows (its access
 * declaration, the extra error answers it lists in `config.errors`, a WebSocket's upgrade);
 * `completeDocument` (the `transformObject`) adds what follows from the whole document: operation
 * ids, error answers, security schemes, named components, servers, license and tag descriptions.
 */
import type { FastifySchema, RouteOptions } from 'fastify';
import type { RouteAccess } from '../app.js';
import { RESOURCE_AREAS } from '../auth/scopes.js';
import {
  addErrorAnswers,
  CARRIED_ERRORS,
  type DeclaredErrorStatus,
  errorComponents,
} from './error-answers.js';
import { hoistNamedSchemas } from './named-schemas.js';
import { operationIds } from './operation-ids.js';
import { GUARDED_READ, SECURITY_SCHEMES, securityOf, type TokenScheme } from './security.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Error answers this route gives beyond those its shape implies (documented in /openapi.json). */
    errors?: readonly DeclaredErrorStatus[];
    /** A public route that checks a token of its own (ingest): the security scheme that documents it. */
    ownToken?: TokenScheme;
  }
}

export interface DocumentOptions {
  version: string;
  publicUrl: string;
  license: string;
}

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI objects are plain JSON
type Json = any;

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

/** What a WebSocket route answers when the upgrade succeeds (its errors are plain HTTP answers). */
const SWITCHING_PROTOCOLS = {
  type: 'null',
  description: 'Switching Protocols: the WebSocket is open',
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
  'logging saved searches': 'Searches of an environment kept by name, for people and for alert rules',
  containerhost:
    'Container engine nodes: containers, images, networks, volumes, files, health checks, folders',
  databases: 'Key-value database connections: the command console, the key browser and the server panes',
  audit: 'The tamper-evident audit trail and its export to SIEM destinations',
  certificates: 'TLS certificates: upload, ACME orders and renewals, DNS providers',
  pages: 'Static sites: projects, deployments, domains, deploy tokens and the public site server',
  integrations: 'Repository-host connectors',
  inference: 'Inference-provider connections and their OAuth sign-in',
  nodes: 'Storage nodes (directories and agent-managed hosts) and resumable file uploads to them',
  notifications: 'Notification channels, alert rules and their deliveries',
};

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

/** The @fastify/swagger `transform`: one route's access, declared errors and upgrade. */
export function documentRoute({
  schema,
  url,
  route,
}: {
  schema: FastifySchema;
  url: string;
  route: RouteOptions;
}) {
  const config = route.config ?? {};
  const documented: Json = { ...schema };
  documented.security = securityOf(route.method, {
    ...config,
    ...(config.credential ? { credentialScheme: config.credential.scheme } : {}),
  });
  if (!config.public) {
    documented['x-required-scope'] = config.scope;
    const access = describeAccess(config, documented);
    documented.description = documented.description ? `${documented.description}\n\n${access}` : access;
  }
  if (route.websocket) documented.response = { 101: SWITCHING_PROTOCOLS, ...documented.response };
  if (config.errors?.length) documented[CARRIED_ERRORS] = [...config.errors];
  return nameWildcard(documented, url);
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
  operations.forEach(({ operation }, index) => {
    operation.operationId = names[index];
  });
  const errors = errorComponents(addErrorAnswers(operations));
  const schemas: Record<string, Json> = { ...document.components?.schemas, ...errors.schemas };
  const paths = hoistNamedSchemas(document.paths ?? {}, schemas);
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
    security: GUARDED_READ,
    paths,
    components: {
      ...document.components,
      securitySchemes: SECURITY_SCHEMES,
      responses: errors.responses,
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
    },
  };
}
