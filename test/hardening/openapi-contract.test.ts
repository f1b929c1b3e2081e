import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is read as plain JSON
type Json = any;

let gateway: TestGateway;
let document: Json;
beforeAll(async () => {
  gateway = await startTestGateway();
  document = (await gateway.call('GET', '/openapi.json', { token: null })).body;
});
afterAll(() => gateway.close());

/** The 22 operations of ../shared/spec/gateway-api.md, with their path parameters. */
const CONTRACT: [number, string, string, string[]][] = [
  [1, 'get', '/auth/me', []],
  [2, 'post', '/auth/me/sessions/revoke-others', []],
  [3, 'put', '/api/logging/schema-folders/{id}/move', ['id']],
  [4, 'post', '/api/containerhost/nodes/{nodeId}/networks/{networkId}/disconnect', ['nodeId', 'networkId']],
  [5, 'post', '/api/databases/{id}/keyvalue/command', ['id']],
  [6, 'patch', '/api/admin/users/{id}/name', ['id']],
  [
    7,
    'post',
    '/api/containerhost/nodes/{nodeId}/containers/{containerId}/files/move',
    ['nodeId', 'containerId'],
  ],
  [8, 'put', '/api/nodes/{id}/files/uploads/{uploadId}/chunks', ['id', 'uploadId']],
  [9, 'post', '/api/audit/siem/deliveries/{id}/requeue', ['id']],
  [
    10,
    'post',
    '/api/containerhost/nodes/{nodeId}/containers/{containerName}/health-check/test',
    ['nodeId', 'containerName'],
  ],
  [11, 'post', '/api/logging/environment-folders/move-environments', []],
  [12, 'get', '/api/inference/providers/catalog', []],
  [13, 'get', '/api/audit/siem/deliveries', []],
  [14, 'post', '/api/ssl-certificates/upload', []],
  [15, 'put', '/api/logging/environment-folders/{id}/move', ['id']],
  [16, 'patch', '/api/pages/{projectId}/deployments/{deploymentId}/pin', ['projectId', 'deploymentId']],
  [17, 'post', '/api/integrations/repohost/connectors/preview-test', []],
  [18, 'post', '/api/inference/providers/oauth/{id}/complete', ['id']],
  [19, 'put', '/api/containerhost/nodes/{nodeId}/volumes/{name}/files/write', ['nodeId', 'name']],
  [20, 'get', '/api/pages/by-slug/{slug}', ['slug']],
  [21, 'put', '/api/containerhost/folders/reorder-resources', []],
  [22, 'post', '/api/containerhost/nodes/{nodeId}/containers/{containerId}/stop', ['nodeId', 'containerId']],
];

const operation = (method: string, path: string): Json => document.paths[path]?.[method];
const bodySchema = (method: string, path: string): Json =>
  operation(method, path)?.requestBody?.content?.['application/json']?.schema;

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    await expect(SwaggerParser.validate(structuredClone(document))).resolves.toBeDefined();
  });

  it.each(CONTRACT)(
    'documents contract endpoint %i: %s %s with its path parameters',
    (_n, method, path, params) => {
      const documented = operation(method, path);
      expect(documented, `${method.toUpperCase()} ${path}`).toBeDefined();
      const inPath = (documented.parameters ?? [])
        .filter((p: Json) => p.in === 'path')
        .map((p: Json) => p.name);
      expect(inPath.sort()).toEqual([...params].sort());
    },
  );

  it('states the limits of the spec', () => {
    const healthCheck = bodySchema(
      'post',
      '/api/containerhost/nodes/{nodeId}/containers/{containerName}/health-check/test',
    ).properties;
    expect(healthCheck.path).toMatchObject({ minLength: 1, maxLength: 500 });
    expect(healthCheck.intervalSeconds).toMatchObject({ minimum: 5, maximum: 86400 });
    expect(healthCheck.timeoutSeconds).toMatchObject({ minimum: 1, maximum: 120 });
    expect(healthCheck.slowThreshold).toMatchObject({ minimum: 1, maximum: 120000 });
    expect(bodySchema('post', '/api/ssl-certificates/upload').properties.name).toMatchObject({
      minLength: 1,
      maxLength: 255,
    });
    expect(
      bodySchema('post', '/api/inference/providers/oauth/{id}/complete').properties.callback,
    ).toMatchObject({ maxLength: 8192 });
    expect(
      bodySchema('post', '/api/containerhost/nodes/{nodeId}/containers/{containerId}/stop').properties
        .timeout,
    ).toMatchObject({
      maximum: 300,
    });
    const reorder = bodySchema('put', '/api/containerhost/folders/reorder-resources');
    expect(reorder.properties.items).toMatchObject({ minItems: 1 });
    expect(reorder.properties.items.items.properties.resourceKey).toMatchObject({
      minLength: 1,
      maxLength: 512,
    });
    const deliveries = operation('get', '/api/audit/siem/deliveries').parameters.map((p: Json) => p.name);
    expect(deliveries).toEqual(expect.arrayContaining(['page', 'limit', 'destinationId', 'status']));
  });

  it('names the required scope of every non-public operation', () => {
    for (const [path, item] of Object.entries<Json>(document.paths)) {
      for (const [method, documented] of Object.entries<Json>(item)) {
        const isPublic = Array.isArray(documented.security) && documented.security.length === 0;
        if (!isPublic)
          expect(documented['x-required-scope'], `${method} ${path}`).toMatch(
            /^(\*|authenticated|[a-z]+:[a-z*]+)$/,
          );
      }
    }
  });
});
