/**
 * Scopes are `<area>:<permission>`. A granted `*` covers everything, `<area>:*` covers the area,
 * and `manage` implies `view`.
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

type Area = keyof typeof AREA_PERMISSIONS;
export type RequiredScope = { [A in Area]: `${A}:${(typeof AREA_PERMISSIONS)[A][number]}` }[Area];

/** A route any signed-in caller may use, whatever its scopes. */
export const AUTHENTICATED = 'authenticated';

export const SCOPE_PATTERN = /^(\*|[a-z][a-z0-9-]*:(\*|[a-z][a-z0-9-]*))$/;

export function scopeGrants(granted: string, required: RequiredScope): boolean {
  if (granted === '*' || granted === required) return true;
  const [grantedArea, grantedPermission] = granted.split(':');
  const [requiredArea, requiredPermission] = required.split(':');
  if (grantedArea !== requiredArea) return false;
  return grantedPermission === '*' || (grantedPermission === 'manage' && requiredPermission === 'view');
}

export function hasScope(granted: readonly string[], required: RequiredScope): boolean {
  return granted.some((scope) => scopeGrants(scope, required));
}
