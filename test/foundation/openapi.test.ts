import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_HEADER, SESSION_COOKIE } from '../../src/core/auth/authenticate.js';
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
  it('is OpenAPI 3.1 accepting a bearer token or the session cookie (with its CSRF header for changes)', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.components.securitySchemes.session).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: SESSION_COOKIE,
    });
    expect(document.components.securitySchemes.csrf).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: CSRF_HEADER,
    });
    expect(document.security).toEqual([{ bearer: [] }, { session: [] }]);
  });

  it("states the license of package.json and the gateway's public URL as its server", () => {
    const packageJson = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(document.info.license.identifier).toBe(packageJson.license);
    expect(document.servers).toEqual([{ url: gateway.config.publicUrl, description: 'This gateway' }]);
  });

  it('describes every tag its operations use', () => {
    const described = new Map(
      document.tags.map((tag: { name: string; description: string }) => [tag.name, tag]),
    );
    for (const item of Object.values<Record<string, { tags: string[] }>>(document.paths))
      for (const operation of Object.values(item))
        for (const tag of operation.tags) expect(described.get(tag), tag).toHaveProperty('description');
  });

  it('marks public routes as needing no security and names the scope of the others', () => {
    expect(document.paths['/auth/login'].post.security).toEqual([]);
    const rename = document.paths['/api/admin/users/{id}/name'].patch;
    expect(rename['x-required-scope']).toBe('admin:users');
    expect(rename.description).toContain('Requires scope `admin:users`.');
    expect(rename.security).toEqual([{ bearer: [] }, { session: [], csrf: [] }]);
  });

  it('lists the resource scope an operation on one resource accepts, naming its path parameter', () => {
    const remove = document.paths['/api/containerhost/nodes/{nodeId}/containers/{containerId}'].delete;
    expect(remove['x-resource-scope']).toEqual({
      scope: 'containerhost:manage:{nodeId}',
      param: 'nodeId',
      resource: 'engine node',
    });
    expect(remove.description).toContain('`containerhost:manage:{nodeId}`');
    const command = document.paths['/api/databases/{id}/keyvalue/command'].post;
    expect(command['x-resource-scope']).toMatchObject({ scope: 'databases:read:{id}', param: 'id' });
  });

  it('says which lists answer only the resources the caller’s resource scopes name', () => {
    const list = document.paths['/api/logging/environments'].get;
    expect(list['x-resource-filter']).toEqual({ scope: 'logging:view:<id>', resource: 'environment' });
  });

  it('lists no resource scope where an area-wide scope is needed', () => {
    const create = document.paths['/api/logging/environments'].post;
    const folders = document.paths['/api/containerhost/folders'].get;
    for (const operation of [create, folders]) {
      expect(operation['x-resource-scope']).toBeUndefined();
      expect(operation['x-resource-filter']).toBeUndefined();
    }
  });

  it('names the catch-all parameter of the site server in its path', () => {
    const serve = document.paths['/sites/{slug}/{path}'].get;
    expect(serve.parameters.map((parameter: { name: string }) => parameter.name).sort()).toEqual([
      'path',
      'slug',
    ]);
  });

  it('refers to one Pagination schema from every list', () => {
    const list = document.paths['/api/admin/users'].get.responses['200'].content['application/json'].schema;
    expect(list.properties.pagination).toEqual({ $ref: '#/components/schemas/Pagination' });
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
