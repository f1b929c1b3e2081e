/**
 * Scopes are `<area>:<permission>`. A granted `*` covers everything, `<area>:*` covers the area,
 * and `manage` implies `view`.
 */
export const SCOPE_PATTERN = /^(\*|[a-z][a-z0-9-]*:(\*|[a-z][a-z0-9-]*))$/;

export function scopeGrants(granted: string, required: string): boolean {
  if (granted === '*' || granted === required) return true;
  const [grantedArea, grantedPermission] = granted.split(':');
  const [requiredArea, requiredPermission] = required.split(':');
  if (grantedArea !== requiredArea) return false;
  return grantedPermission === '*' || (grantedPermission === 'manage' && requiredPermission === 'view');
}

export function hasScope(granted: readonly string[], required: string): boolean {
  return granted.some((scope) => scopeGrants(scope, required));
}
