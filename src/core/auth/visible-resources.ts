import { type Column, inArray, type SQL, sql } from 'drizzle-orm';
import type { Actor } from '../actor.js';
import { isUuid } from '../ids.js';
import { grantedResources, type RequiredScope } from './scopes.js';

/**
 * The condition that keeps a list to the resources the caller may see with `required`: none with an
 * area-wide grant, else the ids its resource scopes name. It goes into the list's query (the page and
 * the count alike), so totals match what the caller sees.
 */
export function visibleResources(
  column: Column,
  actor: Pick<Actor, 'scopes'>,
  required: RequiredScope,
): SQL | undefined {
  const granted = grantedResources(actor.scopes, required);
  if (granted === 'all') return undefined;
  // A scope written before ids were checked may name no UUID; it matches nothing rather than fail the query.
  const ids = granted.filter(isUuid);
  return ids.length > 0 ? inArray(column, ids) : sql`false`;
}
