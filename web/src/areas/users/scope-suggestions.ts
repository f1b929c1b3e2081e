import { consoleAreas } from '..';
import type { Group } from './queries';

/** What the scopes box suggests: the wildcard, every area's scopes, and those groups hold already. */
export function scopeSuggestions(groups: readonly Group[]): string[] {
  const known = [
    '*',
    ...consoleAreas.flatMap((area) => area.anyOf),
    ...groups.flatMap((group) => group.scopes),
  ];
  return [...new Set(known)].sort();
}
