/**
 * Field names as the CLI spells them, typed from the API's records and bodies: table columns, the
 * body fields flags set, the query parameters of filters. A renamed field of the API document then
 * fails the build where the CLI names it.
 */

type Deeper = [never, 0, 1, 2, 3];

/**
 * The fields of `T` and, dot-joined, those of its nested objects (`health.status`, `tls.caPem`),
 * four levels deep; of each member of a union. Lists are fields, not walked into. Anything goes
 * under a field the document leaves open (`unknown`).
 */
export type FieldPath<T, Depth extends number = 4> = unknown extends T
  ? string
  : [Depth] extends [never]
    ? never
    : T extends readonly unknown[]
      ? never
      : T extends object
        ? {
            [K in keyof T & string]: K | `${K}.${FieldPath<NonNullable<T[K]>, Deeper[Depth]>}`;
          }[keyof T & string]
        : never;

/** The key of the record `FlagValues` carry the names of the fields their flags may set under. */
export const FLAG_FIELDS: unique symbol = Symbol('flag fields');

/**
 * A body or query gathered from flags: the values as the flags parsed them (the gateway checks
 * them), and the fields the flags may set under FLAG_FIELDS, so a typed call can check those
 * against its operation. JSON and query strings leave a symbol key out.
 */
export type FlagValues<Field extends string> = Record<string, unknown> & {
  readonly [FLAG_FIELDS]: readonly Field[];
};
