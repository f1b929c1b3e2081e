import SwaggerParser from '@apidevtools/swagger-parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READABLE_NAMES } from '../../src/core/openapi/operation-ids.js';
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

/** The 22 operations of ../shared/spec/gateway-api.md, with their path parameters and operationId. */
const CONTRACT: [number, string, string, string[], string][] = [
  [1, 'get', '/auth/me', [], 'getMe'],
  [2, 'post', '/auth/me/sessions/revoke-others', [], 'revokeOtherSessions'],
  [3, 'put', '/api/logging/schema-folders/{id}/move', ['id'], 'moveSchemaFolder'],
  [
    4,
    'post',
    '/api/containerhost/nodes/{nodeId}/networks/{networkId}/disconnect',
    ['nodeId', 'networkId'],
    'disconnectNetwork',
  ],
  [5, 'post', '/api/databases/{id}/keyvalue/command', ['id'], 'runKeyValueCommand'],
  [6, 'patch', '/api/admin/users/{id}/name', ['id'], 'updateUserName'],
  [
    7,
    'post',
    '/api/containerhost/nodes/{nodeId}/containers/{containerId}/files/move',
    ['nodeId', 'containerId'],
    'moveContainerFile',
  ],
  [8, 'put', '/api/nodes/{id}/files/uploads/{uploadId}/chunks', ['id', 'uploadId'], 'uploadChunk'],
  [9, 'post', '/api/audit/siem/deliveries/{id}/requeue', ['id'], 'requeueSiemDelivery'],
  [
    10,
    'post',
    '/api/containerhost/nodes/{nodeId}/containers/{containerName}/health-check/test',
    ['nodeId', 'containerName'],
    'testContainerHealthCheck',
  ],
  [11, 'post', '/api/logging/environment-folders/move-environments', [], 'moveEnvironments'],
  [12, 'get', '/api/inference/providers/catalog', [], 'getProviderCatalog'],
  [13, 'get', '/api/audit/siem/deliveries', [], 'listSiemDeliveries'],
  [14, 'post', '/api/ssl-certificates/upload', [], 'uploadSslCertificate'],
  [15, 'put', '/api/logging/environment-folders/{id}/move', ['id'], 'moveEnvironmentFolder'],
  [
    16,
    'patch',
    '/api/pages/{projectId}/deployments/{deploymentId}/pin',
    ['projectId', 'deploymentId'],
    'pinDeployment',
  ],
  [17, 'post', '/api/integrations/repohost/connectors/preview-test', [], 'testConnectorPreview'],
  [18, 'post', '/api/inference/providers/oauth/{id}/complete', ['id'], 'completeOauthSession'],
  [
    19,
    'put',
    '/api/containerhost/nodes/{nodeId}/volumes/{name}/files/write',
    ['nodeId', 'name'],
    'writeVolumeFile',
  ],
  [20, 'get', '/api/pages/by-slug/{slug}', ['slug'], 'getPageBySlug'],
  [21, 'put', '/api/containerhost/folders/reorder-resources', [], 'reorderResources'],
  [
    22,
    'post',
    '/api/containerhost/nodes/{nodeId}/containers/{containerId}/stop',
    ['nodeId', 'containerId'],
    'stopContainer',
  ],
];

/**
 * Redocly `recommended` warnings that stay, each for a reason; anything else fails the lint test.
 * - no-ambiguous-paths: the contract's paths put fixed words where other paths have ids
 *   (`/api/pages/by-slug/{slug}` beside `/api/pages/{projectId}/domains`); the router prefers the
 *   fixed segment, so each request still reaches exactly one route.
 * - operation-4xx-response: the probes `/healthz` and `/readyz` and the sign-in page's list of identity
 *   providers take no input and no credentials, so they have no client error to document.
 */
const EXPLAINED_WARNINGS: Record<string, string[]> = {
  'no-ambiguous-paths': [
    '/api/ssl-certificates/dns-providers/{id}',
    '/api/pages/{projectId}/deployments',
    '/api/pages/{projectId}/domains',
    '/api/pages/{projectId}/deploy-tokens',
  ],
  'operation-4xx-response': ['/healthz/get', '/readyz/get', '/auth/oidc/providers/get'],
};

const everyOperation = (): [string, string, Json][] =>
  Object.entries<Json>(document.paths).flatMap(([path, item]) =>
    Object.entries<Json>(item).map(([method, documented]): [string, string, Json] => [
      method,
      path,
      documented,
    ]),
  );
const isGuarded = (documented: Json) => documented.security === undefined || documented.security.length > 0;
const responseRef = (documented: Json, status: number) => documented.responses[status]?.$ref;

const operation = (method: string, path: string): Json => document.paths[path]?.[method];
const bodySchema = (method: string, path: string): Json =>
  operation(method, path)?.requestBody?.content?.['application/json']?.schema;

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    await expect(SwaggerParser.validate(structuredClone(document))).resolves.toBeDefined();
  });

  it.each(CONTRACT)(
    'documents contract endpoint %i: %s %s with its path parameters and operationId',
    (_n, method, path, params, operationId) => {
      const documented = operation(method, path);
      expect(documented, `${method.toUpperCase()} ${path}`).toBeDefined();
      expect(documented.operationId).toBe(operationId);
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

  it('gives every operation a unique camelCase operationId, a summary and tags', () => {
    const ids = everyOperation().map(([, , documented]) => documented.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [method, path, documented] of everyOperation()) {
      expect(documented.operationId, `${method} ${path}`).toMatch(/^[a-z][a-zA-Z0-9]*$/);
      expect(documented.summary, `${method} ${path}`).toBeTruthy();
      expect(documented.tags?.length, `${method} ${path}`).toBeGreaterThan(0);
    }
  });

  it('keeps a readable name only for operations that exist', () => {
    const named = new Set(everyOperation().map(([method, path]) => `${method.toUpperCase()} ${path}`));
    for (const key of Object.keys(READABLE_NAMES)) expect(named, key).toContain(key);
  });

  it('declares the security of every operation: bearer or session when guarded, none when public', () => {
    for (const [method, path, documented] of everyOperation()) {
      expect(documented.security, `${method} ${path}`).toBeDefined();
      if (documented.security.length > 0)
        expect(documented.security, `${method} ${path}`).toEqual([{ bearer: [] }, { session: [] }]);
    }
    for (const path of ['/healthz', '/readyz', '/auth/login', '/api/logging/ingest', '/v1/logs'])
      expect(Object.values<Json>(document.paths[path])[0].security, path).toEqual([]);
  });

  it('documents 400 for input, 401 and 403 when guarded, 404 for a named resource, 413 and 415 for a body', () => {
    for (const [method, path, documented] of everyOperation()) {
      const where = `${method} ${path}`;
      if (documented.parameters?.length || documented.requestBody)
        expect(responseRef(documented, 400), where).toBe('#/components/responses/BadRequest');
      if (isGuarded(documented)) {
        expect(responseRef(documented, 401), where).toBe('#/components/responses/Unauthorized');
        expect(responseRef(documented, 403), where).toBe('#/components/responses/Forbidden');
      }
      if (path.includes('{'))
        expect(responseRef(documented, 404), where).toBe('#/components/responses/NotFound');
      if (documented.requestBody) {
        expect(responseRef(documented, 413), where).toBe('#/components/responses/PayloadTooLarge');
        expect(responseRef(documented, 415), where).toBe('#/components/responses/UnsupportedMediaType');
      }
    }
  });

  it('documents the extra errors a route declares, with the error envelope as one component', () => {
    expect(responseRef(operation('post', '/api/admin/users'), 409)).toBe('#/components/responses/Conflict');
    expect(responseRef(operation('post', '/v1/logs'), 429)).toBe('#/components/responses/TooManyRequests');
    expect(document.components.responses.NotFound.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Error',
    });
    expect(document.components.schemas.Error.required).toEqual(['code', 'message']);
  });

  it("passes Redocly's recommended rules with only the explained warnings", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({
      source: JSON.stringify(document),
      absoluteRef: '/openapi.json',
      config,
    });
    const unexplained = problems.filter((problem) => {
      const pointer = problem.location[0]?.pointer ?? '';
      const explained = EXPLAINED_WARNINGS[problem.ruleId] ?? [];
      return (
        problem.severity === 'error' ||
        !explained.some((where) => pointer.replaceAll('~1', '/').includes(`/paths/${where}`))
      );
    });
    expect(unexplained.map((problem) => `${problem.severity} ${problem.ruleId}: ${problem.message}`)).toEqual(
      [],
    );
  });

  it('generates TypeScript types with openapi-typescript', async () => {
    const types = astToString(await openapiTS(structuredClone(document)));
    expect(types).toContain('runKeyValueCommand: {');
  });
});
