import crypto from 'node:crypto';
import fc from 'fast-check';

// biome-ignore lint/suspicious/noExplicitAny: JSON schemas from the OpenAPI document are plain JSON
export type JsonSchema = Record<string, any>;

const FORMAT_SAMPLES: Record<string, () => string> = {
  uuid: () => crypto.randomUUID(),
  uri: () => 'http://127.0.0.1:9/',
  'date-time': () => new Date().toISOString(),
  email: () => 'fuzz@example.org',
};

const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  '💥',
  'a\u202Eb',
  '\uFFFF',
  '../../etc/passwd',
  "'; drop table users; --",
  '%00',
];

/** Values that satisfy a schema (as far as length, range, enum and format go). */
export function validSample(schema: JsonSchema): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return fc.oneof(...union.map((member: JsonSchema) => validSample(member)));
  const type = Array.isArray(schema.type)
    ? (schema.type.find((t: string) => t !== 'null') ?? 'null')
    : schema.type;
  switch (type) {
    case 'string': {
      if (schema.format && FORMAT_SAMPLES[schema.format])
        return fc.constant(null).map(FORMAT_SAMPLES[schema.format]!);
      if (schema.pattern) return fc.constant('a');
      const min = schema.minLength ?? 0;
      const max = Math.min(schema.maxLength ?? 40, min + 40);
      return fc.string({ minLength: min, maxLength: max, unit: 'grapheme' });
    }
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 100000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 100000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const min = schema.minItems ?? 0;
      return fc.array(validSample(schema.items ?? {}), {
        minLength: min,
        maxLength: Math.min(schema.maxItems ?? 3, min + 3),
      });
    }
    case 'object': {
      const properties: Record<string, JsonSchema> = schema.properties ?? {};
      const required = new Set<string>(schema.required ?? []);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, property] of Object.entries(properties)) record[name] = validSample(property);
      return fc.record(record, {
        requiredKeys: Object.keys(properties).filter((name) => required.has(name)),
      });
    }
    default:
      return fc.oneof(fc.string(), fc.integer(), fc.boolean());
  }
}

export interface Violation {
  /** Where the broken field is, as the error's `details[].path` should name it. */
  path: (string | number)[];
  value: unknown;
  /** Remove the field instead of setting `value`. */
  remove?: boolean;
  what: string;
}

/** Ways to break one field of a schema: wrong type, out-of-range values, bad formats, missing. */
export function violationsOf(
  schema: JsonSchema,
  path: (string | number)[] = [],
  required = true,
): Violation[] {
  const out: Violation[] = [];
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const nullable =
    types.includes('null') || (schema.anyOf ?? []).some((member: JsonSchema) => member.type === 'null');
  if (schema.anyOf || schema.oneOf) return out;
  if (required && path.length > 0) out.push({ path, value: undefined, remove: true, what: 'missing' });
  if (types.includes('string')) {
    out.push({ path, value: 12345, what: 'number instead of string' });
    if (schema.maxLength !== undefined)
      out.push({ path, value: 'x'.repeat(schema.maxLength + 1), what: `longer than ${schema.maxLength}` });
    if (schema.minLength) out.push({ path, value: '', what: 'empty' });
    if (schema.enum) out.push({ path, value: 'not-one-of-them', what: 'outside the enum' });
    if (schema.format === 'uuid') out.push({ path, value: 'not-a-uuid', what: 'malformed uuid' });
  } else if (types.includes('integer') || types.includes('number')) {
    out.push({ path, value: 'seven', what: 'string instead of number' });
    if (schema.minimum !== undefined)
      out.push({ path, value: schema.minimum - 1, what: `below ${schema.minimum}` });
    if (schema.maximum !== undefined)
      out.push({ path, value: schema.maximum + 1, what: `above ${schema.maximum}` });
    if (types.includes('integer')) out.push({ path, value: 1.5, what: 'fraction' });
  } else if (types.includes('boolean')) {
    out.push({ path, value: 'yes', what: 'string instead of boolean' });
  } else if (types.includes('array')) {
    out.push({ path, value: { not: 'an array' }, what: 'object instead of array' });
    if (schema.minItems) out.push({ path, value: [], what: `fewer than ${schema.minItems} items` });
    if (schema.items?.type === 'object') out.push(...violationsOf(schema.items, [...path, 0], false));
  } else if (types.includes('object') && path.length > 0) {
    out.push({ path, value: 'not an object', what: 'string instead of object' });
  }
  if (types.includes('object')) {
    const requiredNames = new Set<string>(schema.required ?? []);
    for (const [name, property] of Object.entries<JsonSchema>(schema.properties ?? {})) {
      out.push(...violationsOf(property, [...path, name], requiredNames.has(name)));
    }
  }
  return nullable ? out.filter((violation) => violation.value !== null) : out;
}

export { ODD_STRINGS };

/** One deterministic valid value of a schema. */
export function sampleOnce(schema: JsonSchema, seed: number): unknown {
  return fc.sample(validSample(schema), { seed, numRuns: 1 })[0];
}

/** A copy of `base` with the violation applied (array parents get one valid item to break). */
export function applyViolation(
  base: unknown,
  violation: Violation,
  schema: JsonSchema,
  seed: number,
): unknown {
  if (violation.path.length === 0) return violation.value;
  const copy = structuredClone(base) as Record<string | number, unknown>;
  let target: Record<string | number, unknown> = copy;
  let targetSchema = schema;
  for (const key of violation.path.slice(0, -1)) {
    targetSchema = typeof key === 'number' ? targetSchema.items : targetSchema.properties?.[key];
    if (target[key] === undefined || target[key] === null)
      target[key] = Array.isArray(targetSchema) ? [] : targetSchema?.type === 'array' ? [] : {};
    if (Array.isArray(target[key]) && (target[key] as unknown[]).length === 0) {
      (target[key] as unknown[]).push(sampleOnce(targetSchema.items ?? {}, seed));
    }
    target = target[key] as Record<string | number, unknown>;
  }
  const last = violation.path.at(-1)!;
  if (violation.remove) delete target[last];
  else target[last] = violation.value;
  return copy;
}
