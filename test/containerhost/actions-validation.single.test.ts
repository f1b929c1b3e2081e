import { describe, expect, it } from 'vitest';
import { expectError, expectValidationError } from '../support/expectations.js';
import { offlineNodeFor } from './helpers.js';

// Validation, auth and unknown-node answers of the container actions; none of them reaches an engine,
// so the node points at a socket that does not exist.
const MISSING = '00000000-0000-4000-8000-000000000000';
const offline = offlineNodeFor({ volumeWriteLimitBytes: 1024 });

const node = (id = offline.nodeId) => `/api/containerhost/nodes/${id}`;

describe('health-check test (POST …/containers/:containerName/health-check/test) limits', () => {
  const test = (body: unknown) =>
    offline.gateway.call('POST', `${node()}/containers/web/health-check/test`, { body });
  const cases: [string, unknown, (string | number)[]][] = [
    ['scheme other than http/https', { scheme: 'ftp' }, ['scheme']],
    ['hostPort 0', { hostPort: 0 }, ['hostPort']],
    ['hostPort 65536', { hostPort: 65536 }, ['hostPort']],
    ['containerPort 0', { containerPort: 0 }, ['containerPort']],
    ['containerPort 65536', { containerPort: 65536 }, ['containerPort']],
    ['empty path', { path: '' }, ['path']],
    ['path over 500 characters', { path: `/${'p'.repeat(500)}` }, ['path']],
    ['statusMin 99', { statusMin: 99 }, ['statusMin']],
    ['statusMin 600', { statusMin: 600 }, ['statusMin']],
    ['statusMax 99', { statusMax: 99 }, ['statusMax']],
    ['statusMax 600', { statusMax: 600 }, ['statusMax']],
    ['expectedBody over 5000 characters', { expectedBody: 'b'.repeat(5001) }, ['expectedBody']],
    ['unknown bodyMatchMode', { bodyMatchMode: 'regex' }, ['bodyMatchMode']],
    ['intervalSeconds 4', { intervalSeconds: 4 }, ['intervalSeconds']],
    ['intervalSeconds 86401', { intervalSeconds: 86401 }, ['intervalSeconds']],
    ['timeoutSeconds 0', { timeoutSeconds: 0 }, ['timeoutSeconds']],
    ['timeoutSeconds 121', { timeoutSeconds: 121 }, ['timeoutSeconds']],
    ['slowThreshold 0', { slowThreshold: 0 }, ['slowThreshold']],
    ['slowThreshold 120001', { slowThreshold: 120001 }, ['slowThreshold']],
    ['enabled that is not a boolean', { enabled: 'yes' }, ['enabled']],
    ['statusMin above statusMax', { statusMin: 500, statusMax: 400 }, ['statusMin']],
    ['statusMin above the default statusMax', { statusMin: 400 }, ['statusMin']],
    ['a path without a leading slash', { path: 'health' }, ['path']],
  ];
  for (const [name, body, path] of cases) {
    it(`refuses ${name} with 400`, async () => {
      expectValidationError(await test(body), path);
    });
  }

  it('accepts the boundary values and gets as far as the engine', async () => {
    const result = await test({
      hostPort: 65535,
      path: `/${'p'.repeat(499)}`,
      statusMin: 100,
      statusMax: 599,
      expectedBody: 'b'.repeat(5000),
      intervalSeconds: 86400,
      timeoutSeconds: 120,
      slowThreshold: 120000,
    });
    expect(result.body.details.reason).toBe('ENGINE_UNREACHABLE');
  });

  it('answers 404 for an unknown node', async () => {
    expectError(
      await offline.gateway.call('POST', `${node(MISSING)}/containers/web/health-check/test`),
      404,
      'NOT_FOUND',
    );
  });

  it('answers 401 without a token and 403 without containerhost:manage, before validation', async () => {
    const url = `${node()}/containers/web/health-check/test`;
    expectError(
      await offline.gateway.call('POST', url, { body: { hostPort: 0 }, token: null }),
      401,
      'UNAUTHORIZED',
    );
    expectError(
      await offline.gateway.call('POST', url, { body: { hostPort: 0 }, token: offline.viewer }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('saved health checks', () => {
  const url = (id = offline.nodeId, container = 'web') => `${node(id)}/containers/${container}/health-check`;

  it('applies the same limits when saving', async () => {
    expectValidationError(await offline.gateway.call('PUT', url(), { body: { intervalSeconds: 4 } }), [
      'intervalSeconds',
    ]);
    expectValidationError(
      await offline.gateway.call('PUT', url(), { body: { statusMin: 300, statusMax: 200 } }),
      ['statusMin'],
    );
  });

  it('saves, reads, lists results of and deletes a check, each audited', async () => {
    const saved = await offline.gateway.call('PUT', url(undefined, 'api'), {
      body: { containerPort: 8080, enabled: false },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ containerName: 'api', containerPort: 8080, enabled: false });
    const again = await offline.gateway.call('PUT', url(undefined, 'api'), { body: { containerPort: 9090 } });
    expect(again.body.data).toMatchObject({ id: saved.body.data.id, containerPort: 9090, enabled: true });
    const results = await offline.gateway.call('GET', `${url(undefined, 'api')}/results`);
    expect(results.body).toEqual({ data: [], pagination: { page: 1, limit: 20, total: 0, totalPages: 0 } });
    expect((await offline.gateway.call('DELETE', url(undefined, 'api'))).body).toEqual({ success: true });
    expectError(await offline.gateway.call('GET', url(undefined, 'api')), 404, 'NOT_FOUND');
  });

  it('answers 404 for a container without a saved check and for an unknown node', async () => {
    expectError(await offline.gateway.call('GET', url(undefined, 'nothing-saved')), 404, 'NOT_FOUND');
    expectError(
      await offline.gateway.call('GET', `${url(undefined, 'nothing-saved')}/results`),
      404,
      'NOT_FOUND',
    );
    expectError(await offline.gateway.call('PUT', url(MISSING), { body: {} }), 404, 'NOT_FOUND');
    expectError(await offline.gateway.call('DELETE', url(MISSING)), 404, 'NOT_FOUND');
  });

  it('answers 401 without a token and 403 without the scope', async () => {
    expectError(await offline.gateway.call('GET', url(), { token: null }), 401, 'UNAUTHORIZED');
    expectError(await offline.gateway.call('GET', url(), { token: offline.nobody }), 403, 'FORBIDDEN');
    expectError(
      await offline.gateway.call('GET', `${url()}/results`, { token: offline.nobody }),
      403,
      'FORBIDDEN',
    );
    expectError(
      await offline.gateway.call('PUT', url(), { body: {}, token: offline.viewer }),
      403,
      'FORBIDDEN',
    );
    expectError(await offline.gateway.call('DELETE', url(), { token: offline.viewer }), 403, 'FORBIDDEN');
  });
});

describe('stop (POST …/containers/:containerId/stop) limits', () => {
  const stop = (body: unknown) => offline.gateway.call('POST', `${node()}/containers/web/stop`, { body });

  it('refuses a timeout above 300, below 0, fractional or given as a string', async () => {
    for (const timeout of [301, -1, 1.5, '5']) expectValidationError(await stop({ timeout }), ['timeout']);
  });

  it('accepts timeout 300 and no body at all, and gets as far as the engine', async () => {
    expect((await stop({ timeout: 300 })).body.details.reason).toBe('ENGINE_UNREACHABLE');
    const bare = await offline.gateway.call('POST', `${node()}/containers/web/stop`);
    expect(bare.body.details.reason).toBe('ENGINE_UNREACHABLE');
  });

  it('answers 404 for an unknown node', async () => {
    expectError(await offline.gateway.call('POST', `${node(MISSING)}/containers/web/stop`), 404, 'NOT_FOUND');
  });

  it('answers 401 without a token and 403 without containerhost:manage', async () => {
    const url = `${node()}/containers/web/stop`;
    expectError(await offline.gateway.call('POST', url, { token: null }), 401, 'UNAUTHORIZED');
    expectError(await offline.gateway.call('POST', url, { token: offline.viewer }), 403, 'FORBIDDEN');
  });
});

describe('network disconnect (POST …/networks/:networkId/disconnect) limits', () => {
  const url = (id = offline.nodeId) => `${node(id)}/networks/app-net/disconnect`;

  it('requires a non-empty containerId', async () => {
    expectValidationError(await offline.gateway.call('POST', url(), { body: {} }), ['containerId']);
    expectValidationError(await offline.gateway.call('POST', url(), { body: { containerId: '' } }), [
      'containerId',
    ]);
  });

  it('refuses a force flag that is not a boolean', async () => {
    const result = await offline.gateway.call('POST', url(), {
      body: { containerId: 'web' },
      query: { force: 'maybe' },
    });
    expectValidationError(result, ['force']);
  });

  it('answers 404 for an unknown node', async () => {
    expectError(
      await offline.gateway.call('POST', url(MISSING), { body: { containerId: 'web' } }),
      404,
      'NOT_FOUND',
    );
  });

  it('answers 401 without a token and 403 without containerhost:manage', async () => {
    expectError(
      await offline.gateway.call('POST', url(), { body: { containerId: 'x' }, token: null }),
      401,
      'UNAUTHORIZED',
    );
    expectError(
      await offline.gateway.call('POST', url(), { body: { containerId: 'x' }, token: offline.viewer }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('file move (POST …/containers/:containerId/files/move) limits', () => {
  const move = (body: unknown, id = offline.nodeId) =>
    offline.gateway.call('POST', `${node(id)}/containers/web/files/move`, { body });

  it('requires fromPath and toPath', async () => {
    const result = await move({});
    expectValidationError(result, ['fromPath']);
    expectValidationError(result, ['toPath']);
  });

  it('refuses relative paths', async () => {
    const result = await move({ fromPath: 'etc/a', toPath: '../b' });
    expectValidationError(result, ['fromPath']);
    expectValidationError(result, ['toPath']);
  });

  it('refuses .. segments in either path, naming each field', async () => {
    const result = await move({ fromPath: '/srv/app/../../etc/shadow', toPath: '/tmp/..' });
    expectValidationError(result, ['fromPath']);
    expectValidationError(result, ['toPath']);
    expect(result.body.details[0].message).toBe('must not contain .. segments');
  });

  it('refuses a NUL character in a path', async () => {
    expectValidationError(await move({ fromPath: '/tmp/a\u0000b', toPath: '/tmp/c' }), ['fromPath']);
  });

  it('answers 404 for an unknown node', async () => {
    expectError(await move({ fromPath: '/a', toPath: '/b' }, MISSING), 404, 'NOT_FOUND');
  });

  it('answers 401 without a token and 403 without containerhost:manage', async () => {
    const url = `${node()}/containers/web/files/move`;
    const body = { fromPath: '/a', toPath: '/b' };
    expectError(await offline.gateway.call('POST', url, { body, token: null }), 401, 'UNAUTHORIZED');
    expectError(await offline.gateway.call('POST', url, { body, token: offline.viewer }), 403, 'FORBIDDEN');
  });
});

describe('volume file write (PUT …/volumes/:name/files/write) limits', () => {
  const url = (id = offline.nodeId) => `${node(id)}/volumes/data/files/write`;
  const raw = (content: Buffer, query?: Record<string, string>) =>
    offline.gateway.call('PUT', url(), {
      rawBody: content,
      headers: { 'content-type': 'application/octet-stream' },
      ...(query ? { query } : {}),
    });

  it('requires ?path= with a raw body', async () => {
    expectValidationError(await raw(Buffer.from('x')), ['path']);
  });

  it('answers 413 past the configured size limit, raw or JSON', async () => {
    expectError(await raw(Buffer.alloc(1025), { path: 'big.bin' }), 413, 'VALIDATION_ERROR');
    const json = await offline.gateway.call('PUT', url(), {
      body: { path: 'big.bin', content: Buffer.alloc(1025).toString('base64'), encoding: 'base64' },
    });
    expectError(json, 413, 'VALIDATION_ERROR');
  });

  it('requires path and content in a JSON body and knows only utf8 and base64', async () => {
    const missing = await offline.gateway.call('PUT', url(), { body: {} });
    expectValidationError(missing, ['path']);
    expectValidationError(missing, ['content']);
    expectValidationError(
      await offline.gateway.call('PUT', url(), { body: { path: 'a', content: 'x', encoding: 'hex' } }),
      ['encoding'],
    );
    expectValidationError(
      await offline.gateway.call('PUT', url(), { body: { path: 'a', content: '***', encoding: 'base64' } }),
      ['content'],
    );
  });

  it('refuses paths that leave the volume, contain NUL or name no file', async () => {
    for (const path of ['../etc/passwd', 'a/../../b', 'a\u0000b', '/', 'dir/']) {
      const result = await offline.gateway.call('PUT', url(), { body: { path, content: 'x' } });
      expect({ path, status: result.status }).toEqual({ path, status: 400 });
      expectValidationError(result, ['path']);
    }
  });

  it('answers 415 for a content type it does not read', async () => {
    const result = await offline.gateway.call('PUT', url(), {
      rawBody: 'x',
      headers: { 'content-type': 'text/plain' },
    });
    expectError(result, 415, 'VALIDATION_ERROR');
  });

  it('answers 404 for an unknown node', async () => {
    expectError(
      await offline.gateway.call('PUT', url(MISSING), { body: { path: 'a', content: 'x' } }),
      404,
      'NOT_FOUND',
    );
  });

  it('answers 401 without a token and 403 without containerhost:manage', async () => {
    const body = { path: 'a', content: 'x' };
    expectError(await offline.gateway.call('PUT', url(), { body, token: null }), 401, 'UNAUTHORIZED');
    expectError(await offline.gateway.call('PUT', url(), { body, token: offline.viewer }), 403, 'FORBIDDEN');
  });
});

describe('read models', () => {
  it('answer 401 without a token and 403 without containerhost:view', async () => {
    for (const path of [
      'containers',
      'containers/web',
      'networks',
      'networks/n',
      'volumes',
      'volumes/v',
      'images',
      'images/i',
    ]) {
      const url = `${node()}/${path}`;
      expect((await offline.gateway.call('GET', url, { token: null })).status).toBe(401);
      expect({
        path,
        status: (await offline.gateway.call('GET', url, { token: offline.nobody })).status,
      }).toEqual({
        path,
        status: 403,
      });
    }
  });

  it('refuses ?all that is not a boolean', async () => {
    expectValidationError(
      await offline.gateway.call('GET', `${node()}/containers`, { query: { all: 'sometimes' } }),
      ['all'],
    );
  });
});
