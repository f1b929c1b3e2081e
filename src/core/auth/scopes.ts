import { isUuid } from '../ids.js';

/**
 * Scopes are `<area>:<permission>` (the whole area) or `<area>:<permission>:<resourceId>` (one
 * resource of it). A granted `*` covers everything, `<area>:*` the whole area, `<area>:*:<id>` every
 * permission on one resource. `manage` includes `view`; the key-value classes are a ladder:
 * `databases:admin` includes `write`, which includes `read`. This file is the one place scopes are
 * compared; the web console imports it too, so it stays free of server code.
 */
/**
 * The scope matrix: each area and the permissions a route can require in it. Routes declare one of
 * these (or `AUTHENTICATED`), so a misspelt scope fails to compile instead of locking a route away.
 */
export const AREA_PERMISSIONS = {
  admin: ['users'],
  logging: ['view', 'manage'],
  containerhost: ['view', 'manage'],
  databases: ['view', 'manage', 'read', 'write', 'admin'],
  nodes: ['view', 'manage'],
  audit: ['view', 'manage'],
  certificates: ['view', 'manage'],
  pages: ['view', 'manage'],
  integrations: ['view', 'manage'],
  inference: ['view', 'manage'],
  notifications: ['view', 'manage'],
  metrics: ['view'],
} as const;

export type Area = keyof typeof AREA_PERMISSIONS;
export type RequiredScope = { [A in Area]: `${A}:${(typeof AREA_PERMISSIONS)[A][number]}` }[Area];

/**
 * The areas whose scopes may name one resource, and what the id names. The other areas (admin,
 * audit, notifications) have no resource a person could be given alone: see docs/api/auth-and-users.md.
 */
export const RESOURCE_AREAS = {
  containerhost: 'engine node',
  databases: 'database',
  logging: 'environment',
  pages: 'project',
  nodes: 'storage node',
  certificates: 'certificate',
  integrations: 'repository-host connector',
  inference: 'connection',
} as const satisfies Partial<Record<Area, string>>;

export type ResourceArea = keyof typeof RESOURCE_AREAS;

/** A route any signed-in caller may use, whatever its scopes. */
export const AUTHENTICATED = 'authenticated';

/** Permissions that include others: in every area, and in one area only. */
const INCLUDED_EVERYWHERE: Record<string, readonly string[]> = { manage: ['view'] };
const INCLUDED_IN_AREA: Record<string, Record<string, readonly string[]>> = {
  databases: { admin: ['write', 'read'], write: ['read'] },
};

function permissionIncludes(area: string, held: string, required: string): boolean {
  return (
    held === '*' ||
    held === required ||
    INCLUDED_EVERYWHERE[held]?.includes(required) === true ||
    INCLUDED_IN_AREA[area]?.[held]?.includes(required) === true
  );
}

/** The resource a granted scope is limited to: `null` for area-wide, `undefined` when it grants nothing here. */
function grantedResource(granted: string, required: RequiredScope): string | null | undefined {
  if (granted === '*') return null;
  const parts = granted.split(':');
  if (parts.length < 2 || parts.length > 3) return undefined;
  const [area, permission, resourceId] = parts as [string, string, string | undefined];
  const [requiredArea, requiredPermission] = required.split(':') as [string, string];
  if (area !== requiredArea || !permissionIncludes(area, permission, requiredPermission)) return undefined;
  return resourceId === undefined ? null : resourceId.toLowerCase();
}

/**
 * Whether one granted scope allows `required`: on the whole area when no `resourceId` is given, or
 * on that one resource (an area-wide grant allows every resource).
 */
export function scopeGrants(granted: string, required: RequiredScope, resourceId?: string): boolean {
  const resource = grantedResource(granted, required);
  if (resource === undefined) return false;
  return resource === null || resource === resourceId?.toLowerCase();
}

/** Whether the granted scopes allow `required` on the whole area, or on the one resource named. */
export function hasScope(granted: readonly string[], required: RequiredScope, resourceId?: string): boolean {
  return granted.some((scope) => scopeGrants(scope, required, resourceId));
}

/**
 * The resources on which the granted scopes allow `required`: `all` with an area-wide grant, else the
 * ids the resource scopes name (possibly none).
 */
export function grantedResources(granted: readonly string[], required: RequiredScope): 'all' | string[] {
  const ids = new Set<string>();
  for (const scope of granted) {
    const resource = grantedResource(scope, required);
    if (resource === null) return 'all';
    if (resource !== undefined) ids.add(resource);
  }
  return [...ids];
}

/** Whether the granted scopes allow `required` anywhere: on the whole area or on at least one resource. */
export function hasScopeSomewhere(granted: readonly string[], required: RequiredScope): boolean {
  const resources = grantedResources(granted, required);
  return resources === 'all' || resources.length > 0;
}

/**
 * Whether any granted scope, of any permission, reaches this resource of the area (area-wide grants
 * included): such a caller knows the resource exists, so a missing permission on it is a 403, not a 404.
 */
export function hasAnyGrantOn(granted: readonly string[], area: Area, resourceId: string): boolean {
  return AREA_PERMISSIONS[area].some((permission) =>
    hasScope(granted, `${area}:${permission}` as RequiredScope, resourceId),
  );
}

/** A scope taken apart: `*` is every area with every permission, and `resource` null is area-wide. */
interface ScopeParts {
  area: string;
  permission: string;
  resource: string | null;
}

function partsOf(scope: string): ScopeParts | undefined {
  if (scope === '*') return { area: '*', permission: '*', resource: null };
  const parts = scope.split(':');
  if (parts.length < 2 || parts.length > 3) return undefined;
  const [area, permission, resourceId] = parts as [string, string, string | undefined];
  return { area, permission, resource: resourceId?.toLowerCase() ?? null };
}

function scopeOf({ area, permission, resource }: ScopeParts): string {
  if (area === '*') return '*';
  return resource === null ? `${area}:${permission}` : `${area}:${permission}:${resource}`;
}

/**
 * The permissions of `area` that both `a` and `b` allow, as the fewest permissions that say so: the
 * greatest of them (`manage` and `view` → `view`; `databases:admin` and `databases:write` → `write`;
 * `*` and anything → that thing).
 */
function permissionsOfBoth(area: string, a: string, b: string): string[] {
  if (a === '*') return [b];
  if (b === '*') return [a];
  const known: readonly string[] = Object.hasOwn(AREA_PERMISSIONS, area)
    ? AREA_PERMISSIONS[area as Area]
    : [];
  const both = known.filter(
    (permission) => permissionIncludes(area, a, permission) && permissionIncludes(area, b, permission),
  );
  return both.filter(
    (permission) =>
      !both.some((other) => other !== permission && permissionIncludes(area, other, permission)),
  );
}

/** What two scopes both grant, as scopes (none when they share nothing). */
function bothOf(a: ScopeParts, b: ScopeParts): ScopeParts[] {
  if (a.area === '*') return [b];
  if (b.area === '*') return [a];
  if (a.area !== b.area) return [];
  if (a.resource !== null && b.resource !== null && a.resource !== b.resource) return [];
  const resource = a.resource ?? b.resource;
  return permissionsOfBoth(a.area, a.permission, b.permission).map((permission) => ({
    area: a.area,
    permission,
    resource,
  }));
}

/** Whether `outer` grants everything `inner` grants. */
function covers(outer: ScopeParts, inner: ScopeParts): boolean {
  const both = bothOf(inner, outer);
  return both.length === 1 && scopeOf(both[0]!) === scopeOf(inner);
}

/**
 * Whether `granted` gives everything `scope` gives: one granted scope covers it whole (`databases:*`
 * covers `databases:read:<id>`; `logging:view` does not cover `logging:*`). An API token may be
 * given only the scopes its creator holds.
 */
export function holdsScope(granted: readonly string[], scope: string): boolean {
  const wanted = partsOf(scope);
  if (!wanted) return false;
  return granted.some((one) => {
    const held = partsOf(one);
    return held !== undefined && covers(held, wanted);
  });
}

/**
 * What a token narrowed to `tokenScopes` may do for a user holding `userScopes`: exactly what both
 * lists grant, as the fewest scopes that say so. A token's `*` is the user's scopes; the token's
 * `databases:read:<id>` under the user's `databases:*` is `databases:read:<id>`; a scope the user no
 * longer holds is gone. Computed at each authentication, so a user who loses a scope loses it on
 * every token at once.
 */
export function intersectScopes(tokenScopes: readonly string[], userScopes: readonly string[]): string[] {
  const parsed = (list: readonly string[]) =>
    list.map(partsOf).filter((parts): parts is ScopeParts => parts !== undefined);
  const users = parsed(userScopes);
  const found = new Map<string, ScopeParts>();
  for (const token of parsed(tokenScopes))
    for (const user of users) for (const both of bothOf(token, user)) found.set(scopeOf(both), both);
  const candidates = [...found.entries()];
  // A scope another one covers says nothing more (two scopes that cover each other are the same).
  return candidates
    .filter(([scope, parts]) => !candidates.some(([other, wider]) => other !== scope && covers(wider, parts)))
    .map(([scope]) => scope);
}

const SCOPE_FORMS = 'must be *, <area>:<permission> or <area>:<permission>:<resource id>';

/**
 * A scope as a group may hold it, or why it cannot: a known area, one of its permissions or `*`, and
 * for a resource scope an area that has resources and a resource id (a UUID, kept in lower case).
 * Whether the resource exists is not checked: a scope naming a removed resource grants nothing.
 */
export function checkGrantableScope(scope: string): { scope: string } | { problem: string } {
  if (scope === '*') return { scope };
  const parts = scope.split(':');
  if (parts.length < 2 || parts.length > 3) return { problem: SCOPE_FORMS };
  const [area, permission, resourceId] = parts as [string, string, string | undefined];
  if (!Object.hasOwn(AREA_PERMISSIONS, area))
    return { problem: `unknown area "${area}" (one of ${Object.keys(AREA_PERMISSIONS).join(', ')})` };
  const permissions: readonly string[] = AREA_PERMISSIONS[area as Area];
  if (permission !== '*' && !permissions.includes(permission))
    return {
      problem: `unknown permission "${permission}" in ${area} (one of ${permissions.join(', ')} or *)`,
    };
  if (resourceId === undefined) return { scope };
  if (!Object.hasOwn(RESOURCE_AREAS, area))
    return {
      problem: `${area} scopes cannot name a resource (only ${Object.keys(RESOURCE_AREAS).join(', ')})`,
    };
  if (!isUuid(resourceId))
    return {
      problem: `the resource id must be a UUID: the id of the ${RESOURCE_AREAS[area as ResourceArea]}`,
    };
  return { scope: `${area}:${permission}:${resourceId.toLowerCase()}` };
}
