import {
  AREA_PERMISSIONS,
  holdsScope,
  RESOURCE_AREAS,
  type ResourceArea,
} from '../../../../src/core/auth/scopes';
import type { AccessRule } from '../../auth/access';

/** A resource a group could be given alone: its area, id and name. */
export interface ResourceChoice {
  area: ResourceArea;
  id: string;
  name: string;
}

/** A heading of the scopes box's suggestions and the scopes under it. */
export interface SuggestionGroup {
  group: string;
  items: string[];
}

/**
 * What the scopes box suggests: the wildcard, every area's scopes and those groups hold already,
 * then, under the name of each resource the admin can see, the scopes naming it.
 */
export function scopeSuggestions(
  areas: readonly AccessRule[],
  groups: readonly { scopes: readonly string[] }[],
  resources: readonly ResourceChoice[] = [],
): SuggestionGroup[] {
  const known = ['*', ...areas.flatMap((area) => area.anyOf), ...groups.flatMap((group) => group.scopes)];
  const listed = new Set(known);
  const perResource = resources.map(({ area, id, name }) => ({
    group: `${RESOURCE_AREAS[area]} ${name}`,
    items: [...AREA_PERMISSIONS[area], '*']
      .map((permission) => `${area}:${permission}:${id}`)
      .filter((scope) => !listed.has(scope)),
  }));
  return [{ group: 'Areas', items: [...listed].sort() }, ...perResource];
}

/**
 * The suggestions a person may give on, such as to an API token of their own: those `held` covers
 * (the gateway refuses the others), without the headings left empty.
 */
export function heldSuggestions(groups: SuggestionGroup[], held: readonly string[]): SuggestionGroup[] {
  return groups
    .map(({ group, items }) => ({ group, items: items.filter((scope) => holdsScope(held, scope)) }))
    .filter(({ items }) => items.length > 0);
}
