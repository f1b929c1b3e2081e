import type { AllowlistEntry, AllowlistRequest } from './queries';

/** An entry's key in a picker: `group:11`, `project:1001`. */
export const entryKey = (entry: Pick<AllowlistEntry, 'entryType' | 'remoteId'>) =>
  `${entry.entryType}:${entry.remoteId}`;

/** The picker's options: every entry once (the first seen wins), groups before projects, by path. */
export function allowlistOptions(...lists: readonly (readonly AllowlistEntry[])[]): AllowlistEntry[] {
  const byKey = new Map<string, AllowlistEntry>();
  for (const entry of lists.flat()) if (!byKey.has(entryKey(entry))) byKey.set(entryKey(entry), entry);
  return [...byKey.values()].sort(
    (a, b) => a.entryType.localeCompare(b.entryType) || a.fullPath.localeCompare(b.fullPath),
  );
}

/** The picked keys as the API takes them, in the options' order. */
export function pickedEntries(
  options: readonly AllowlistEntry[],
  picked: readonly string[],
): AllowlistRequest {
  const wanted = new Set(picked);
  return options
    .filter((entry) => wanted.has(entryKey(entry)))
    .map(({ entryType, remoteId, fullPath }) => ({ entryType, remoteId, fullPath }));
}
