import { type TObjectOptions, type TProperties, type TSchema, type TStringOptions, Type } from 'typebox';
import { PaginationSchema } from './pagination.js';

/** Schemas shared by route files. */
export const Uuid = (description?: string) =>
  Type.String({ format: 'uuid', ...(description ? { description } : {}) });

export const IdParams = Type.Object({ id: Uuid() });

/**
 * A record with a name: documented once in /openapi.json as `components.schemas.<title>` and referred to
 * with `$ref` wherever an answer or a body holds it (src/core/openapi/named-schemas.ts).
 */
export const NamedObject = <T extends TProperties>(title: string, properties: T, options?: TObjectOptions) =>
  Type.Object(properties, { ...options, title });

export const Success = NamedObject('Success', { success: Type.Boolean() });

export const DataOf = <T extends TSchema>(item: T) => Type.Object({ data: item });

export const PageOf = <T extends TSchema>(item: T) =>
  Type.Object({ data: Type.Array(item), pagination: PaginationSchema });

/** ISO-8601 UTC on the wire, handed over as the text itself (e.g. audit events, whose hash covers it). */
export const TimestampText = Type.String({ format: 'date-time' });
/** ISO-8601 UTC on the wire; services hand over Date objects, which the serializer formats. */
export const Timestamp = Type.Unsafe<Date>(TimestampText);
export const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);

/** A trimmed display name; `trimmedName()` in services rejects what is blank after trimming. */
export const Name = Type.String({ minLength: 1, maxLength: 255 });

/**
 * The `?q=` filter of a list: a case-insensitive substring, matched literally (`%` and `_` are
 * ordinary characters; see `containsText`). `of` names what it searches.
 */
export const SearchText = (of = 'the name') =>
  Type.Optional(
    Type.String({ maxLength: 255, description: `Case-insensitive substring of ${of}, matched literally` }),
  );

export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

/**
 * A secret the caller sends and the gateway never answers (a password, a token, a key): marked
 * `writeOnly` in /openapi.json. The secret-destination walk (test/hardening/secret-destinations.test.ts)
 * finds every record holding a secret by this marker, so every secret field of a request body wears it.
 */
export const WriteOnly = <T extends TSchema>(schema: T): T => ({ ...schema, writeOnly: true });

/** A string enum validated with the `enum` keyword, so a bad value is answered with the allowed list. */
export const StringEnum = <T extends string>(
  values: readonly T[],
  description?: string,
  options: { default?: unknown } = {},
) => Type.Unsafe<T>(Type.String({ enum: [...values], ...(description ? { description } : {}), ...options }));

/**
 * A string documented as a plain string (no `enum`: the route has always been declared that way) whose
 * values the code knows: services see the narrow type `T`.
 */
export const StringOf = <T extends string>(options: TStringOptions = {}) =>
  Type.Unsafe<T>(Type.String(options));

/**
 * One of a closed list of strings, documented as a union of constants (`anyOf`; a list of one is that
 * constant), for the lists whose routes have always been declared that way; `StringEnum` is the
 * `enum` form.
 */
export const LiteralUnion = <T extends string>(values: readonly T[], options: { default?: T } = {}) =>
  Type.Unsafe<T>(
    values.length === 1
      ? Type.Literal(values[0]!, options)
      : Type.Union(
          values.map((value) => Type.Literal(value)),
          options,
        ),
  );
