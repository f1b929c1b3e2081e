/**
 * Writes the gateway's OpenAPI document to docs/openapi.json, the reviewed copy that
 * test/foundation/openapi.test.ts compares with the served one, and the API types generated from
 * it (for the CLI and the console) to src/core/openapi/api-types.d.ts: run after changing a route.
 *   npm run openapi
 */
import fs from 'node:fs';
import path from 'node:path';
import { servedOpenApiDocument } from '../test/support/openapi-snapshot.js';
import { apiTypesPath, renderApiTypes } from './api-types.js';

const document = await servedOpenApiDocument();
const target = path.resolve(import.meta.dirname, '../docs/openapi.json');
fs.writeFileSync(target, `${JSON.stringify(document, null, 2)}\n`);
console.log(`wrote ${path.relative(process.cwd(), target)}`);
fs.mkdirSync(path.dirname(apiTypesPath), { recursive: true });
fs.writeFileSync(apiTypesPath, await renderApiTypes(document));
console.log(`wrote ${path.relative(process.cwd(), apiTypesPath)}`);
