/**
 * Writes the gateway's OpenAPI document to docs/openapi.json, the reviewed copy that
 * test/foundation/openapi.test.ts compares with the served one: run after changing a route.
 *   npm run openapi
 */
import fs from 'node:fs';
import path from 'node:path';
import { servedOpenApiDocument } from '../test/support/openapi-snapshot.js';

const target = path.resolve(import.meta.dirname, '../docs/openapi.json');
fs.writeFileSync(target, `${JSON.stringify(await servedOpenApiDocument(), null, 2)}\n`);
console.log(`wrote ${path.relative(process.cwd(), target)}`);
