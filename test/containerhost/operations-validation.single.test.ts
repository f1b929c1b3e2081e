import { describe, expect, it } from 'vitest';
import { expectError, expectValidationError } from '../support/expectations.js';
import type { CallOptions } from '../support/gateway.js';
import { offlineNodeFor } from './helpers.js';

// Auth, validation limits and unknown-node answers of the container lifecycle, streams, exec, files,
// volumes, networks and images. None of them reaches an engine: the node's socket does not exist, so
// a request that passed validation answers 422 ENGINE_UNREACHABLE.
const MISSING = '00000000-0000-4000-8000-000000000000';
const offline = offlineNodeFor();

interface Operation {
  method: string;
  /** Under /api/containerhost/nodes/<node>. */
  path: string;
  options?: CallOptions;
  scope: 'view' | 'manage';
}

const OPERATIONS: Record<string, Operation> = {
  create: {
    method: 'POST',
    path: '/containers',
    options: { body: { name: 'web', image: 'busybox' } },
    scope: 'manage',
  },
  start: { method: 'POST', path: '/containers/web/start', scope: 'manage' },
  restart: { method: 'POST', path: '/containers/web/restart', scope: 'manage' },
  kill: { method: 'POST', path: '/containers/web/kill', scope: 'manage' },
  pause: { method: 'POST', path: '/containers/web/pause', scope: 'manage' },
  unpause: { method: 'POST', path: '/containers/web/unpause', scope: 'manage' },
  remove: { method: 'DELETE', path: '/containers/web', scope: 'manage' },
  recreate: { method: 'POST', path: '/containers/web/recreate', scope: 'manage' },
  logs: { method: 'GET', path: '/containers/web/logs', scope: 'view' },
  stats: { method: 'GET', path: '/containers/web/stats', scope: 'view' },
  exec: {
    method: 'POST',
    path: '/containers/web/exec',
    options: { body: { cmd: ['true'] } },
    scope: 'manage',
  },
  terminal: { method: 'GET', path: '/containers/web/terminal', scope: 'manage' },
  list: { method: 'GET', path: '/containers/web/files', scope: 'view' },
  download: {
    method: 'GET',
    path: '/containers/web/files/content',
    options: { query: { path: '/a' } },
    scope: 'view',
  },
  upload: {
    method: 'PUT',
    path: '/containers/web/files/content',
    options: { rawBody: 'x', headers: { 'content-type': 'application/octet-stream' }, query: { path: '/a' } },
    scope: 'manage',
  },
  delete: {
    method: 'DELETE',
    path: '/containers/web/files',
    options: { query: { path: '/a' } },
    scope: 'manage',
  },
  mkdir: {
    method: 'POST',
    path: '/containers/web/files/mkdir',
    options: { body: { path: '/a' } },
    scope: 'manage',
  },
  'volume create': { method: 'POST', path: '/volumes', options: { body: { name: 'data' } }, scope: 'manage' },
  'volume delete': { method: 'DELETE', path: '/volumes/data', scope: 'manage' },
  'volume browse': { method: 'GET', path: '/volumes/data/files', scope: 'view' },
  'volume read': {
    method: 'GET',
    path: '/volumes/data/files/content',
    options: { query: { path: 'a' } },
    scope: 'view',
  },
  'network create': {
    method: 'POST',
    path: '/networks',
    options: { body: { name: 'lan' } },
    scope: 'manage',
  },
  'network delete': { method: 'DELETE', path: '/networks/lan', scope: 'manage' },
  connect: {
    method: 'POST',
    path: '/networks/lan/connect',
    options: { body: { containerId: 'web' } },
    scope: 'manage',
  },
  pull: {
    method: 'POST',
    path: '/images/pull',
    options: { body: { image: '127.0.0.1:5000/team/app:1' } },
    scope: 'manage',
  },
  'image delete': { method: 'DELETE', path: '/images/busybox', scope: 'manage' },
  prune: { method: 'POST', path: '/images/prune', scope: 'manage' },
};

const call = (operation: Operation, options: CallOptions = {}, node = offline.nodeId) =>
  offline.gateway.call(operation.method, `/api/containerhost/nodes/${node}${operation.path}`, {
    ...operation.options,
    ...options,
  });

describe('every operation', () => {
  for (const [name, operation] of Object.entries(OPERATIONS)) {
    it(`${name}: 401 without a token, 403 without containerhost:${operation.scope}`, async () => {
      expectError(await call(operation, { token: null }), 401, 'UNAUTHORIZED');
      const lacking = operation.scope === 'manage' ? offline.viewer : offline.nobody;
      const refused = await call(operation, { token: lacking });
      expectError(refused, 403, 'FORBIDDEN');
      expect(refused.body.details).toEqual({ requiredScope: `containerhost:${operation.scope}` });
    });

    if (name !== 'terminal')
      it(`${name}: 404 for an unknown node, 422 ENGINE_UNREACHABLE past validation`, async () => {
        expectError(await call(operation, {}, MISSING), 404, 'NOT_FOUND');
        const result = await call(operation);
        expectError(result, 422, 'UNPROCESSABLE_ENTITY');
        expect(result.body.details.reason).toBe('ENGINE_UNREACHABLE');
      });
  }
});

describe('limits', () => {
  const cases: [string, keyof typeof OPERATIONS, CallOptions, (string | number)[]][] = [
    [
      'a container name that is not an engine name',
      'create',
      { body: { name: '-web', image: 'x' } },
      ['name'],
    ],
    [
      'a container name over 64 characters',
      'create',
      { body: { name: 'w'.repeat(65), image: 'x' } },
      ['name'],
    ],
    ['an empty image', 'create', { body: { name: 'web', image: '' } }, ['image']],
    ['an empty cmd', 'create', { body: { name: 'web', image: 'x', cmd: [] } }, ['cmd']],
    [
      'an environment name holding =',
      'create',
      { body: { name: 'web', image: 'x', env: { 'A=B': '1' } } },
      ['env', 'A=B'],
    ],
    [
      'a containerPort of 0',
      'create',
      { body: { name: 'web', image: 'x', ports: [{ containerPort: 0 }] } },
      ['ports', 0, 'containerPort'],
    ],
    [
      'a hostPort of 65536',
      'create',
      { body: { name: 'web', image: 'x', ports: [{ containerPort: 80, hostPort: 65536 }] } },
      ['ports', 0, 'hostPort'],
    ],
    [
      'a hostIp that is no address',
      'create',
      { body: { name: 'web', image: 'x', ports: [{ containerPort: 80, hostIp: 'localhost' }] } },
      ['ports', 0, 'hostIp'],
    ],
    [
      'an unknown protocol',
      'create',
      { body: { name: 'web', image: 'x', ports: [{ containerPort: 80, protocol: 'icmp' }] } },
      ['ports', 0, 'protocol'],
    ],
    [
      'a relative mount target',
      'create',
      { body: { name: 'web', image: 'x', mounts: [{ type: 'volume', source: 'v', target: 'data' }] } },
      ['mounts', 0, 'target'],
    ],
    [
      'a relative bind source',
      'create',
      { body: { name: 'web', image: 'x', mounts: [{ type: 'bind', source: 'srv', target: '/srv' }] } },
      ['mounts', 0, 'source'],
    ],
    [
      'an unknown mount type',
      'create',
      { body: { name: 'web', image: 'x', mounts: [{ type: 'tmpfs', source: 'v', target: '/t' }] } },
      ['mounts', 0, 'type'],
    ],
    [
      'the same network twice',
      'create',
      { body: { name: 'web', image: 'x', networks: ['lan', 'lan'] } },
      ['networks'],
    ],
    [
      'an unknown restart policy',
      'create',
      { body: { name: 'web', image: 'x', restartPolicy: 'sometimes' } },
      ['restartPolicy'],
    ],
    [
      'memory below 6 MiB',
      'create',
      { body: { name: 'web', image: 'x', memoryBytes: 1024 } },
      ['memoryBytes'],
    ],
    ['no CPU at all', 'create', { body: { name: 'web', image: 'x', cpus: 0 } }, ['cpus']],
    ['a restart timeout above 300', 'restart', { body: { timeout: 301 } }, ['timeout']],
    ['a signal that is no signal name', 'kill', { body: { signal: 'kill; rm' } }, ['signal']],
    ['?force that is not a boolean', 'remove', { query: { force: 'maybe' } }, ['force']],
    ['a pull that is not a boolean', 'recreate', { body: { pull: 'yes' } }, ['pull']],
    ['?tail of 0', 'logs', { query: { tail: 0 } }, ['tail']],
    ['?tail above 100000', 'logs', { query: { tail: 100001 } }, ['tail']],
    ['?tail that is neither a number nor all', 'logs', { query: { tail: 'some' } }, ['tail']],
    ['?since that is no time', 'logs', { query: { since: 'yesterday' } }, ['since']],
    ['?stdout=false with ?stderr=false', 'logs', { query: { stdout: false, stderr: false } }, ['stdout']],
    ['?stream that is not a boolean', 'stats', { query: { stream: 'yes' } }, ['stream']],
    ['an empty exec command', 'exec', { body: { cmd: [] } }, ['cmd']],
    [
      'an exec timeout above 600 s',
      'exec',
      { body: { cmd: ['true'], timeoutSeconds: 601 } },
      ['timeoutSeconds'],
    ],
    ['a relative working directory', 'exec', { body: { cmd: ['true'], workingDir: 'srv' } }, ['workingDir']],
    ['a user that is no user', 'exec', { body: { cmd: ['true'], user: 'root; id' } }, ['user']],
    ['a relative directory to list', 'list', { query: { path: 'etc' } }, ['path']],
    ['.. in a path to download', 'download', { query: { path: '/etc/../root' } }, ['path']],
    ['an upload path naming a directory', 'upload', { query: { path: '/srv/' } }, ['path']],
    ['deleting the root', 'delete', { query: { path: '/' } }, ['path']],
    ['creating the root', 'mkdir', { body: { path: '/' } }, ['path']],
    ['a volume name that is not an engine name', 'volume create', { body: { name: 'my volume' } }, ['name']],
    ['?force that is not a boolean', 'volume delete', { query: { force: 'maybe' } }, ['force']],
    ['.. in a volume path', 'volume browse', { query: { path: '../x' } }, ['path']],
    [
      'a subnet that is no CIDR',
      'network create',
      { body: { name: 'lan', subnet: '10.0.0.0/33' } },
      ['subnet'],
    ],
    ['an empty containerId', 'connect', { body: { containerId: '' } }, ['containerId']],
    ['the same alias twice', 'connect', { body: { containerId: 'web', aliases: ['a', 'a'] } }, ['aliases']],
    ['an image that is no reference', 'pull', { body: { image: 'Not A Reference' } }, ['image']],
    ['?force that is not a boolean', 'image delete', { query: { force: 'maybe' } }, ['force']],
    [
      'credentials without a password',
      'pull',
      { body: { image: 'busybox', credentials: { username: 'u' } } },
      ['credentials', 'password'],
    ],
  ];
  for (const [what, operation, options, path] of cases) {
    it(`refuses ${what} with 400 (${operation})`, async () => {
      expectValidationError(await call(OPERATIONS[operation]!, options), path);
    });
  }

  it('refuses a network id longer than an engine id with 400', async () => {
    const result = await offline.gateway.call(
      'DELETE',
      `/api/containerhost/nodes/${offline.nodeId}/networks/${'a'.repeat(65)}`,
    );
    expectValidationError(result, ['networkId']);
  });

  it('answers 400 before 404: a bad body on an unknown node', async () => {
    expectValidationError(await call(OPERATIONS.create!, { body: { name: '-', image: 'x' } }, MISSING), [
      'name',
    ]);
  });

  it('answers 413 for an upload past the limit', async () => {
    const limit = offline.gateway.config.volumeWriteLimitBytes;
    const result = await call(OPERATIONS.upload!, { rawBody: Buffer.alloc(limit + 1) });
    expectError(result, 413, 'VALIDATION_ERROR');
  });

  it('answers 415 for an upload that is not application/octet-stream', async () => {
    const result = await call(OPERATIONS.upload!, { headers: { 'content-type': 'text/plain' } });
    expectError(result, 415, 'VALIDATION_ERROR');
  });

  it('answers the terminal as a plain GET with 400: it needs a WebSocket upgrade', async () => {
    expectValidationError(await call(OPERATIONS.terminal!), []);
  });
});
