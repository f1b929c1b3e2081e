import type { ResourceArea } from './scopes.js';

/**
 * Where each area's resources are in the URL space: the list of them, and the path parameter that
 * names one below it. Every route under `<collection>/:<param>` whose scope is of the area acts on
 * that one resource, so a resource scope (`containerhost:view:<nodeId>`) is checked against the
 * parameter by authentication, once for all of them; routes declare nothing more than their scope.
 */
const RESOURCE_ROUTES: Record<ResourceArea, { collection: string; param: string }> = {
  containerhost: { collection: '/api/containerhost/nodes', param: 'nodeId' },
  databases: { collection: '/api/databases', param: 'id' },
  logging: { collection: '/api/logging/environments', param: 'id' },
  pages: { collection: '/api/pages', param: 'projectId' },
  nodes: { collection: '/api/nodes', param: 'id' },
  certificates: { collection: '/api/ssl-certificates', param: 'id' },
  integrations: { collection: '/api/integrations/repohost/connectors', param: 'id' },
  inference: { collection: '/api/inference/connections', param: 'id' },
};

/**
 * Reads that answer only the resources the caller may see, besides each collection's list (whose
 * service filters the same way): a caller with resource scopes only may call them too.
 */
const VISIBLE_ONLY_READS = new Set([
  '/api/containerhost/health-checks',
  '/api/pages/by-slug/:slug',
  '/api/logging/search',
]);

/**
 * What a route does with the resources of its scope's area:
 * - `one`: it acts on the resource named by `param`; a caller whose scopes reach other resources
 *   of the area but not this one gets 404 (its existence does not leak);
 * - `visible`: it answers only the resources the caller may see (a list, with matching totals).
 * A route of neither kind (creating a resource, area-wide settings) needs an area-wide scope.
 */
export type RouteResource =
  | { kind: 'one'; area: ResourceArea; param: string }
  | { kind: 'visible'; area: ResourceArea };

const withoutTrailingSlash = (url: string) => (url.length > 1 ? url.replace(/\/+$/, '') : url);

export function routeResource(
  methods: readonly string[],
  url: string,
  scope: string | undefined,
): RouteResource | undefined {
  const area = scope?.split(':')[0] as ResourceArea | undefined;
  const place =
    area !== undefined && Object.hasOwn(RESOURCE_ROUTES, area) ? RESOURCE_ROUTES[area] : undefined;
  if (!area || !place) return undefined;
  const path = withoutTrailingSlash(url);
  const one = `${place.collection}/:${place.param}`;
  if (path === one || path.startsWith(`${one}/`)) return { kind: 'one', area, param: place.param };
  const reads = methods.every((method) => method === 'GET' || method === 'HEAD');
  if (reads && (path === place.collection || VISIBLE_ONLY_READS.has(path))) return { kind: 'visible', area };
  return undefined;
}
