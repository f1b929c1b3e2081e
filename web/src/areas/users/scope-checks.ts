import {
  AREA_PERMISSIONS,
  type Area,
  checkGrantableScope,
  hasScope,
  type RequiredScope,
} from '../../../../src/core/auth/scopes';
import { sentence } from '../../api/field-messages';
import type { ResourceChoice } from './scope-suggestions';

/** What the scopes box says about one scope: its text with the resource named, and what is wrong. */
export interface ScopeCheck {
  scope: string;
  /** `databases:read: orders-cache`: the resource's name in place of its id, when it is known. */
  label: string;
  /** Why the gateway would refuse it (unknown area, permission or resource), in words. */
  problem?: string;
}

/**
 * Checks a scope as it is added, with the rules the gateway applies (checkGrantableScope), and a
 * resource scope also against the resources the admin can see: an id none of them has is flagged,
 * since it grants nothing (the gateway does not check, a removed resource's scope stays harmless).
 */
export function checkScope(scope: string, resources: readonly ResourceChoice[]): ScopeCheck {
  const checked = checkGrantableScope(scope);
  if ('problem' in checked) return { scope, label: scope, problem: sentence(checked.problem) };
  const [area, permission, id] = checked.scope.split(':');
  if (id === undefined) return { scope, label: scope };
  const resource = resources.find((choice) => choice.area === area && choice.id === id);
  const areaListed = resources.some((choice) => choice.area === area);
  if (resource) return { scope, label: `${area}:${permission}: ${resource.name}` };
  return areaListed
    ? { scope, label: scope, problem: `No ${area} resource you can see has this id, so it grants nothing.` }
    : { scope, label: scope };
}

/**
 * Grants that cannot be used as given: every area's page and lists need its `view` permission, so
 * `databases:read` without `databases:view` (on the area or that resource) leaves the area hidden.
 */
export function unusableGrants(scopes: readonly string[]): string[] {
  return scopes.flatMap((scope) => {
    const [area, permission, id] = scope.split(':') as [string, string?, string?];
    if (!permission || permission === 'view' || permission === '*') return [];
    const permissions = AREA_PERMISSIONS[area as Area] as readonly string[] | undefined;
    if (!permissions?.includes('view') || !permissions.includes(permission)) return [];
    if (hasScope(scopes, `${area}:view` as RequiredScope, id)) return [];
    const view = id ? `${area}:view:${id}` : `${area}:view`;
    return [`${scope} cannot be used without ${view}: the ${area} area stays hidden. Add ${view} too.`];
  });
}
