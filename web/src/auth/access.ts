// The gateway's own rule (`*` and `<area>:*` wildcards, `manage` implies `view`), imported rather
// than restated so the console never shows a link the API would refuse, or hides one it allows.
import { hasScope, type RequiredScope } from '../../../src/core/auth/scopes';

/** Who may open an area or see a section: any one of these scopes is enough; none means anyone signed in. */
export interface AccessRule {
  anyOf: readonly RequiredScope[];
}

export function mayAccess(granted: readonly string[], rule: AccessRule): boolean {
  return rule.anyOf.length === 0 || rule.anyOf.some((scope) => hasScope(granted, scope));
}
