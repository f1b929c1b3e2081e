/**
 * Set up before every test file (vitest.config.ts): a file fails if what it loaded added properties
 * to a built-in prototype. A worker runs many files one after another with the modules it has
 * loaded, so such a property would reach every later file's `for … in` (drizzle-kit adds
 * `Array.prototype.random`, which broke response serialization in unrelated files; it now runs
 * in a process of its own, test/support/declared-schema-sql.ts).
 */
import { afterAll, expect } from 'vitest';

const BUILT_INS = { Object, Array, String, Number, Function, Promise, Error, Date, RegExp, Map, Set };

const keysOf = (prototype: object) => Reflect.ownKeys(prototype).map(String);
const before = Object.entries(BUILT_INS).map(([name, type]) => ({
  name,
  prototype: type.prototype as object,
  keys: new Set(keysOf(type.prototype)),
}));

afterAll(() => {
  const added = before.flatMap(({ name, prototype, keys }) =>
    keysOf(prototype)
      .filter((key) => !keys.has(key))
      .map((key) => `${name}.prototype.${key}`),
  );
  expect(added, 'properties this file added to built-in prototypes').toEqual([]);
});
