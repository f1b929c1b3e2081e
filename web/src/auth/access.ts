// The gateway's own rules (wildcards, `manage` includes `view`, the key-value ladder, resource
// scopes), imported rather than restated so the console never shows what the API would refuse, or
// hides what it allows.
import { hasScope, hasScopeSomewhere, type RequiredScope } from '../../../src/core/auth/scopes';

/** Who may open an area or see a section: any one of these scopes is enough; none means anyone signed in. */
export interface AccessRule {
  anyOf: readonly RequiredScope[];
}

/**
 * Whether an area or section is for this user: one of its scopes held on the whole area or on some
 * resource of it (the area's lists then show those resources only).
 */
export function mayAccess(granted: readonly string[], rule: AccessRule): boolean {
  return rule.anyOf.length === 0 || rule.anyOf.some((scope) => hasScopeSomewhere(granted, scope));
}

/**
 * Whether the user may do something that needs `scope`: on the one resource named, or, without one,
 * on the whole area (creating a resource, area-wide settings).
 */
export function mayUse(granted: readonly string[], scope: RequiredScope, resourceId?: string): boolean {
  return hasScope(granted, scope, resourceId);
}
