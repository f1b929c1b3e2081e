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
