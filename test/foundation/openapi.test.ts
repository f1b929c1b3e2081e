import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

let gateway: TestGateway;
// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is read as plain JSON
let document: any;
beforeAll(async () => {
  gateway = await startTestGateway();
  document = (await gateway.call('GET', '/openapi.json', { token: null })).body;
});
afterAll(() => gateway.close());

/** Contract operations whose areas have landed; the list grows with each area. */
const CONTRACT_OPERATIONS: [string, string][] = [
  ['get', '/auth/me'],
  ['post', '/auth/me/sessions/revoke-others'],
  ['patch', '/api/admin/users/{id}/name'],
];

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 with a bearer security scheme applied by default', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer' });
    expect(document.security).toEqual([{ bearer: [] }]);
  });

  it.each(CONTRACT_OPERATIONS)('documents the contract operation %s %s', (method, path) => {
    expect(document.paths[path]?.[method], `${method} ${path}`).toBeDefined();
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
