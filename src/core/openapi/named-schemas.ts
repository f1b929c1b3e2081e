/**
 * Named components. A schema given a `title` where it is defined (`NamedObject('User', {…})` in its
 * area's schemas.ts, or a `title` option) is documented once, as `components.schemas.User`, and every
 * answer or body that holds it refers to it with `$ref`. Only the document changes: routes keep their inline schemas,
 * so validation and serialization (which strips unlisted fields) work as before.
 */
import { isDeepStrictEqual } from 'node:util';

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI objects are plain JSON
type Json = any;

/** Names generators can turn into type names. */
const COMPONENT_NAME = /^[A-Z][A-Za-z0-9]*$/;

const isNamedSchema = (node: Json): boolean =>
  typeof node.title === 'string' && (node.type !== undefined || node.anyOf !== undefined);

/**
 * Replaces every titled schema below `node` with a reference to `schemas[title]`, adding the
 * component on first sight (inner named schemas are hoisted first). Two different schemas under one
 * name are a mistake in the routes, refused when the document is built.
 */
export function hoistNamedSchemas(node: Json, schemas: Record<string, Json>): Json {
  if (Array.isArray(node)) return node.map((item) => hoistNamedSchemas(item, schemas));
  if (!node || typeof node !== 'object') return node;
  const hoisted = Object.fromEntries(
    Object.entries<Json>(node).map(([key, value]) => [key, hoistNamedSchemas(value, schemas)]),
  );
  if (!isNamedSchema(node)) return hoisted;
  const name: string = node.title;
  if (!COMPONENT_NAME.test(name))
    throw new Error(`schema title ${JSON.stringify(name)} is not a component name`);
  const known = schemas[name];
  if (known !== undefined && !isDeepStrictEqual(known, hoisted))
    throw new Error(`two different schemas are titled ${name}: give one of them another title`);
  schemas[name] = hoisted;
  return { $ref: `#/components/schemas/${name}` };
}
