import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { apiTypesPath, renderApiTypes } from '../../scripts/api-types.js';
import { openApiSnapshotPath } from '../support/openapi-snapshot.js';

describe("the API's types (read by the CLI and the console)", () => {
  it('are generated from the reviewed API document (run `npm run openapi` after changing a route)', async () => {
    const document = JSON.parse(fs.readFileSync(openApiSnapshotPath, 'utf8'));
    expect(fs.readFileSync(apiTypesPath, 'utf8')).toBe(await renderApiTypes(document));
  });
});
