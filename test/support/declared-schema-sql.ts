/**
 * Prints, as one JSON line, the SQL drizzle-kit generates to create the Drizzle schema's tables in
 * an empty database. Run in a process of its own by database-shape.ts: loading drizzle-kit adds
 * enumerable methods to built-in prototypes (`Array.prototype.random`, `String.prototype.camelCase`,
 * …), and a test process runs many files one after another (vitest.config.ts), whose code would
 * then meet them in every `for … in` over an array.
 */
import { generateDrizzleJson, generateMigration } from 'drizzle-kit/api';
import * as schema from '../../src/db/schema/index.js';

const statements = await generateMigration(
  generateDrizzleJson({}),
  generateDrizzleJson(schema as Record<string, unknown>),
);
process.stdout.write(`\n${JSON.stringify(statements)}\n`);
