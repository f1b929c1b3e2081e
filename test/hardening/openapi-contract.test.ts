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

/** Operations clients script against, with their path parameters and operationId. */
const CONTRACT: [string, string, string[], string][] = [
  ['GET', '/auth/me', [], 'getMe'],
  ['POST', '/auth/me/sessions/revoke-others', [], 'revokeOtherSessions'],
  ['PUT', '/api/logging/schema-folders/{id}/move', ['id'], 'moveSchemaFolder'],
  [
    'POST',
    '/api/containerhost/nodes/{nodeId}/networks/{networkId}/disconnect',
    ['nodeId', 'networkId'],
    'disconnectNetwork',
  ],
  ['POST', '/api/databases/{id}/keyvalue/command', ['id'], 'runKeyValueCommand'],
  ['PATCH', '/api/admin/users/{id}/name', ['id'], 'updateUserName'],
  [
    'POST',
    '/api/containerhost/nodes/{nodeId}/containers/{containerId}/files/move',
    ['nodeId', 'containerId'],
    'moveContainerFile',
  ],
  ['PUT', '/api/nodes/{id}/files/uploads/{uploadId}/chunks', ['id', 'uploadId'], 'uploadChunk'],
  ['POST', '/api/audit/siem/deliveries/{id}/requeue', ['id'], 'requeueSiemDelivery'],
  [
    'POST',
    '/api/containerhost/nodes/{nodeId}/containers/{containerName}/health-check/test',
    ['nodeId', 'containerName'],
    'testContainerHealthCheck',
  ],
  ['POST', '/api/logging/environment-folders/move-environments', [], 'moveEnvironments'],
  ['GET', '/api/inference/providers/catalog', [], 'getProviderCatalog'],
  ['GET', '/api/audit/siem/deliveries', [], 'listSiemDeliveries'],
  ['POST', '/api/ssl-certificates/upload', [], 'uploadSslCertificate'],
  ['PUT', '/api/logging/environment-folders/{id}/move', ['id'], 'moveEnvironmentFolder'],
  [
    'PATCH',
    '/api/pages/{projectId}/deployments/{deploymentId}/pin',
    ['projectId', 'deploymentId'],
    'pinDeployment',
  ],
  ['POST', '/api/integrations/repohost/connectors/preview-test', [], 'testConnectorPreview'],
  ['POST', '/api/inference/providers/oauth/{id}/complete', ['id'], 'completeOauthSession'],
  [
    'PUT',
    '/api/containerhost/nodes/{nodeId}/volumes/{name}/files/write',
    ['nodeId', 'name'],
    'writeVolumeFile',
  ],
  ['GET', '/api/pages/by-slug/{slug}', ['slug'], 'getPageBySlug'],
  ['PUT', '/api/containerhost/folders/reorder-resources', [], 'reorderResources'],
  [
    'POST',
    '/api/containerhost/nodes/{nodeId}/containers/{containerId}/stop',
    ['nodeId', 'containerId'],
    'stopContainer',
  ],
  [
    'GET',
    '/api/containerhost/nodes/{nodeId}/containers/{containerId}/terminal',
    ['nodeId', 'containerId'],
    'openContainerTerminal',
  ],
];

/**
 * Redocly `recommended` warnings that stay, each for a reason; anything else fails the lint test.
 * - no-ambiguous-paths: some paths put fixed words where other paths have ids
 *   (`/api/pages/by-slug/{slug}` beside `/api/pages/{projectId}/domains`); the router prefers the
 *   fixed segment, so each request still reaches exactly one route.
 * - operation-4xx-response: the probes `/healthz` and `/readyz` and the sign-in page's list of identity
 *   providers take no input and no credentials, so they have no client error to document.
 * - operation-2xx-response: the single sign-on start and callback answer only redirects (302, 303),
 *   and the container terminal and an agent's tunnel (`/agent/connect`) only their WebSocket upgrade (101).
 */
const EXPLAINED_WARNINGS: Record<string, string[]> = {
  'no-ambiguous-paths': [
    '/api/ssl-certificates/dns-providers/{id}',
    '/api/pages/{projectId}/deployments',
    '/api/pages/{projectId}/domains',
    '/api/pages/{projectId}/deploy-tokens',
  ],
  'operation-4xx-response': ['/healthz/get', '/readyz/get', '/auth/oidc/providers/get'],
  'operation-2xx-response': [
    '/auth/oidc/{providerId}/start/get',
    '/auth/oidc/callback/get',
    '/api/containerhost/nodes/{nodeId}/containers/{containerId}/terminal/get',
    '/agent/connect/get',
  ],
};

const everyOperation = (): [string, string, Json][] =>
  Object.entries<Json>(document.paths).flatMap(([path, item]) =>
    Object.entries<Json>(item).map(([method, documented]): [string, string, Json] => [
      method,
      path,
      documented,
    ]),
  );
const responseRef = (documented: Json, status: number) => documented.responses[status]?.$ref;

const operation = (method: string, path: string): Json => document.paths[path]?.[method];
/** A schema, with a reference to a named component followed. */
const resolved = (schema: Json): Json =>
  schema?.$ref ? document.components.schemas[schema.$ref.replace('#/components/schemas/', '')] : schema;
const bodySchema = (method: string, path: string): Json =>
  resolved(operation(method, path)?.requestBody?.content?.['application/json']?.schema);

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    await expect(SwaggerParser.validate(structuredClone(document))).resolves.toMatchObject({
      openapi: document.openapi,
    });
  });

  it.each(CONTRACT)(
    'documents %s %s with its path parameters and operationId',
    (method, path, params, operationId) => {
      const documented = operation(method.toLowerCase(), path);
      expect(documented, `${method} ${path}`).toBeDefined();
      expect(documented.operationId).toBe(operationId);
      const inPath = (documented.parameters ?? [])
        .filter((p: Json) => p.in === 'path')
        .map((p: Json) => p.name);
      expect(inPath.sort()).toEqual([...params].sort());
    },
  );

  it('states the limits of the operations clients script against', () => {
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

  it('names the required scope of every operation that takes an API token or the session', () => {
    for (const [method, path, documented] of everyOperation())
      if (documented.security.some((requirement: Json) => 'bearer' in requirement))
        expect(documented['x-required-scope'], `${method} ${path}`).toMatch(
          /^(\*|authenticated|[a-z]+:[a-z*]+)$/,
        );
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

  it('declares the security of every operation: a token or the session (with the CSRF header for changes)', () => {
    for (const [method, path, documented] of everyOperation()) {
      if (!documented['x-required-scope']) continue;
      const session = method === 'get' ? { session: [] } : { session: [], csrf: [] };
      expect(documented.security.slice(0, 2), `${method} ${path}`).toEqual([{ bearer: [] }, session]);
    }
  });

  it('declares no security on the open operations, and their own token on the ingest endpoints', () => {
    for (const path of ['/healthz', '/readyz', '/auth/login', '/auth/setup', '/sites/{slug}/{path}'])
      expect(Object.values<Json>(document.paths[path])[0].security, path).toEqual([]);
    for (const path of ['/api/logging/ingest', '/v1/logs'])
      expect(operation('post', path).security, path).toEqual([{ ingestToken: [] }]);
    expect(document.components.securitySchemes.ingestToken).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('declares the deploy token on the routes that accept it', () => {
    const withDeployToken = everyOperation()
      .filter(([, , documented]) => documented.security.some((one: Json) => 'deployToken' in one))
      .map(([method, path]) => `${method.toUpperCase()} ${path}`);
    expect(withDeployToken.sort()).toEqual([
      'GET /api/pages/deploy-token',
      'GET /api/pages/{projectId}/deployments/{deploymentId}',
      'POST /api/pages/{projectId}/deployments',
    ]);
  });

  it('documents 400 for input, 401 and 403 when guarded, 404 for a named resource, 413 and 415 for a body', () => {
    for (const [method, path, documented] of everyOperation()) {
      const where = `${method} ${path}`;
      if (documented.parameters?.length || documented.requestBody)
        expect(responseRef(documented, 400), where).toBe('#/components/responses/BadRequest');
      if (documented['x-required-scope']) {
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

  it.each([
    ['POST', '/auth/login', 401],
    ['POST', '/auth/login/totp', 401],
    ['POST', '/auth/login/totp/enrol', 401],
    ['PUT', '/auth/me/password', 422],
    ['POST', '/auth/me/totp', 409],
    ['DELETE', '/api/admin/groups/{id}', 409],
    ['POST', '/api/admin/users', 409],
    ['POST', '/api/integrations/repohost/connectors/preview-test', 422],
    ['POST', '/api/audit/siem/deliveries/{id}/requeue', 409],
    ['POST', '/api/containerhost/nodes/{nodeId}/containers/{containerId}/start', 422],
    ['GET', '/readyz', 503],
    ['POST', '/v1/logs', 429],
  ])('documents that %s %s may answer %i, as a shared error response', (method, path, status) => {
    const ref = responseRef(operation(method.toLowerCase(), path), status);
    expect(ref, `${method} ${path}`).toMatch(/^#\/components\/responses\/[A-Za-z]+$/);
    const shared = document.components.responses[ref.split('/').pop()];
    expect(shared.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
  });

  it('declares every status an operation mentions in its summary or description', () => {
    const undeclared = everyOperation().flatMap(([method, path, documented]) =>
      [...`${documented.summary} ${documented.description ?? ''}`.matchAll(/\b([1-5][0-9]{2})\b/g)]
        .map(([, status]) => status!)
        .filter((status) => !documented.responses[status] && !documented.responses[`${status[0]}XX`])
        .map((status) => `${method.toUpperCase()} ${path} mentions ${status}`),
    );
    expect(undeclared).toEqual([]);
  });

  it('keeps the error envelope as one component', () => {
    expect(document.components.responses.NotFound.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Error',
    });
    expect(document.components.schemas.Error.required).toEqual(['code', 'message']);
  });

  it.each([
    ['GET', '/api/admin/users/{id}', 'User'],
    ['GET', '/api/admin/groups', 'Group'],
    ['GET', '/api/logging/schema-folders/{id}', 'LogFolder'],
    ['GET', '/api/logging/schemas/{id}', 'LogSchema'],
    ['GET', '/api/logging/environments/{id}', 'LogEnvironment'],
    ['GET', '/api/pages/{projectId}/deployments/{deploymentId}', 'Deployment'],
    ['GET', '/api/pages/{projectId}', 'Project'],
    ['GET', '/api/ssl-certificates/{id}', 'Certificate'],
    ['GET', '/api/integrations/repohost/connectors/{id}', 'Connector'],
    ['GET', '/api/nodes/{id}/files/uploads/{uploadId}', 'Upload'],
    ['GET', '/api/containerhost/nodes/{nodeId}/containers/{containerId}', 'Container'],
  ])('answers %s %s with the named component %s', (method, path, name) => {
    const answer = operation(method.toLowerCase(), path).responses['200'].content['application/json'].schema;
    expect(JSON.stringify(answer), `${method} ${path}`).toContain(`"$ref":"#/components/schemas/${name}"`);
    expect(document.components.schemas[name].type).toBe('object');
  });

  it('shares one request body between the operations that take it', () => {
    for (const path of ['/api/logging/schema-folders', '/api/logging/environment-folders'])
      expect(operation('post', path).requestBody.content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/NewLogFolder',
      });
  });

  it('documents the container terminal WebSocket: its upgrade, query, errors and scope', () => {
    const terminal = operation('get', '/api/containerhost/nodes/{nodeId}/containers/{containerId}/terminal');
    expect(Object.keys(terminal.responses).sort()).toEqual(['101', '400', '401', '403', '404', '409', '422']);
    expect(terminal.parameters.map((parameter: Json) => parameter.name).sort()).toEqual([
      'cmd',
      'cols',
      'containerId',
      'nodeId',
      'rows',
    ]);
    expect(terminal['x-required-scope']).toBe('containerhost:manage');
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
