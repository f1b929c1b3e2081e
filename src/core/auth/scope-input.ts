import { Type } from 'typebox';
import { forbidden, validationError } from '../errors.js';
import { checkGrantableScope, holdsScope } from './scopes.js';

/** The schema of a list of scopes sent to be given; each is then checked by `grantableScopes`. */
export const ScopeList = (description: string) =>
  Type.Array(Type.String({ maxLength: 100 }), { maxItems: 200, description });

/**
 * Scopes sent to be given (a group's, an API token's): every one checked, each problem a 400 at its
 * index, and each kept once, resource ids in lower case.
 */
export function grantableScopes(scopes: readonly string[], path: string[] = ['scopes']): string[] {
  const checked = scopes.map(checkGrantableScope);
  const issues = checked.flatMap((result, index) =>
    'problem' in result ? [{ path: [...path, index], message: result.problem }] : [],
  );
  if (issues.length > 0) throw validationError(issues);
  return [...new Set(checked.map((result) => (result as { scope: string }).scope))];
}

/**
 * The scopes an API token is asked to be narrowed to: grantable (400 otherwise) and each one held
 * by `held`, the scopes of whoever it is made for (403 naming those that are not: a token never
 * grants more than its maker may do).
 */
export function tokenScopes(requested: readonly string[], held: readonly string[]): string[] {
  const scopes = grantableScopes(requested);
  const notHeld = scopes.filter((scope) => !holdsScope(held, scope));
  if (notHeld.length > 0)
    throw forbidden({
      reason: 'SCOPE_NOT_HELD',
      explanation: `a token can only be given scopes its user holds; not held: ${notHeld.join(', ')}`,
      scopes: notHeld,
    });
  return scopes;
}
