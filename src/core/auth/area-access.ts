import type { Area, RequiredScope } from './scopes.js';

/** The areas whose routes need one of the two levels, `view` and `manage`. */
type LeveledArea = {
  [A in Area]: `${A}:view` extends RequiredScope ? (`${A}:manage` extends RequiredScope ? A : never) : never;
}[Area];

/**
 * The `config` of an area's routes at its two levels, declared once for every route file:
 * `const { view, manage } = areaAccess('pages')`, then `{ config: manage }` or
 * `{ config: { ...manage, errors: [409] } }`.
 */
export function areaAccess<A extends LeveledArea>(area: A) {
  return {
    view: { scope: `${area}:view` as `${A}:view` },
    manage: { scope: `${area}:manage` as `${A}:manage` },
  } as const;
}
