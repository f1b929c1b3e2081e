import type { ConsoleArea } from '../area';
import type { Group } from './queries';

/** What the scopes box suggests: the wildcard, every area's scopes, and those groups hold already. */
export function scopeSuggestions(areas: readonly ConsoleArea[], groups: readonly Group[]): string[] {
  const known = ['*', ...areas.flatMap((area) => area.anyOf), ...groups.flatMap((group) => group.scopes)];
  return [...new Set(known)].sort();
}
