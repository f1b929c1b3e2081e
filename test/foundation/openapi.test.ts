import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { openApiSnapshotPath, servedOpenApiDocument } from '../support/openapi-snapshot.js';

let gateway: TestGateway;
// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is read as plain JSON
let document: any;
beforeAll(async () => {
  gateway = await startTestGateway();
  document = (await gateway.call('GET', '/openapi.json', { token: null })).body;
});
afterAll(() => gateway.close());

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 with a bearer security scheme applied by default', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer' });
    expect(document.security).toEqual([{ bearer: [] }]);
  });

  it('marks public routes as needing no security and names the scope of the others', () => {
    expect(document.paths['/auth/login'].post.security).toEqual([]);
    expect(document.paths['/api/admin/users/{id}/name'].patch['x-required-scope']).toBe('admin:users');
  });

  it('serves interactive docs at /docs', async () => {
    const result = await gateway.call('GET', '/docs', { token: null });
    expect(result.status).toBe(200);
  });
});

describe('the reviewed copy of the API document', () => {
  it('equals what the gateway serves (run `npm run openapi` after changing a route)', async () => {
    const reviewed = JSON.parse(fs.readFileSync(openApiSnapshotPath, 'utf8'));
    expect(await servedOpenApiDocument()).toEqual(reviewed);
  });
});
