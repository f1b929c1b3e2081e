import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OAuthTestBed, startOAuthTestBed } from '../inference/helpers.js';
import { seedGitlab, TOKENS } from '../repohost/helpers.js';
import { type FakeGitlab, startFakeGitlab } from '../services/fake-gitlab-v4.js';
import { type RedisServer, redisBinary, startRedis } from '../services/redis.js';
import { type ApiCli, apiCli } from '../support/cli.js';

// One gateway for the three areas: its catalog points at the OAuth peers, and egress reaches loopback.
let bed: OAuthTestBed;
let cli: ApiCli;
beforeAll(async () => {
  bed = await startOAuthTestBed();
  cli = apiCli(await bed.gateway.listen(), bed.gateway.adminToken);
});
afterAll(() => bed?.close());

describe('infragate repohost', () => {
  let fake: FakeGitlab;
  beforeAll(async () => {
    fake = await startFakeGitlab();
    seedGitlab(fake);
  });
  afterAll(() => fake?.close());

  it('preview-tests a URL and a token read from stdin without saving anything', async () => {
    const preview = await cli.json(
      ['repohost', 'preview-test', '--base-url', fake.url, '--host-token-stdin'],
      `${TOKENS.full}\n`,
    );
    expect(preview.capabilities).toMatchObject({ apiReachable: true, repoRead: true });
    expect(JSON.stringify(preview)).not.toContain(TOKENS.full);
    expect(await cli.json(['repohost', 'ls'])).toEqual([]);
  });

  it('creates a connector with an allowlist, re-tests it, and deletes it', async () => {
    const connector = await cli.json(
      [
        'repohost',
        'create',
        '--name',
        'gitlab',
        '--base-url',
        fake.url,
        '--host-token-stdin',
        '--allow',
        'group:11:platform',
        '--allow',
        'project:1001:platform/service-1',
      ],
      `${TOKENS.full}\n`,
    );
    expect(connector.allowlist.map((entry: { fullPath: string }) => entry.fullPath)).toEqual([
      'platform',
      'platform/service-1',
    ]);
    expect(await cli.json(['repohost', 'test', 'gitlab'])).toMatchObject({ ok: true });
    expect((await cli.json(['repohost', 'get', 'gitlab'])).id).toBe(connector.id);
    expect((await cli.run(['repohost', 'delete', 'gitlab'])).code).toBe(0);
  });

  it('reports a rejected token with its reason', async () => {
    const result = await cli.run(
      ['repohost', 'preview-test', '--base-url', fake.url, '--host-token-stdin'],
      `${TOKENS.revoked}\n`,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('TOKEN_REJECTED');
  });
});

describe('infragate inference', () => {
  it('lists the catalog', async () => {
    const catalog = await cli.json(['inference', 'catalog']);
    expect(catalog.map((entry: { id: string }) => entry.id)).toEqual(
      expect.arrayContaining(['test-local', 'test-device']),
    );
  });

  it('signs in with the device flow: start prints the code, poll waits for the approval', async () => {
    const started = await cli.json([
      'inference',
      'oauth',
      'start',
      '--provider',
      'test-device',
      '--name',
      'device-login',
    ]);
    expect(started).toMatchObject({ status: 'pending', completionMode: 'device_poll' });
    await bed.oidc.browser.approveDevice(started.authorizationUrl, started.userCode);
    const finished = await cli.json(['inference', 'oauth', 'poll', started.id]);
    expect(finished).toMatchObject({ status: 'complete' });
    const connection = await cli.json(['inference', 'connections', 'get', 'device-login']);
    expect(connection).toMatchObject({ id: finished.connectionId, authType: 'oauth', hasAccessToken: true });
  });

  it('a pending session read in a terminal says where to go next', async () => {
    const started = await cli.json(['inference', 'oauth', 'start', '--provider', 'test-device']);
    const shown = await cli.terminal(['inference', 'oauth', 'complete', started.id]);
    expect(shown.stdout).toContain(`enter ${started.userCode}`);
    expect(shown.stdout).toContain(`infragate inference oauth poll ${started.id}`);
  });

  it('creates a local connection, lists it by provider and deletes it', async () => {
    const connection = await cli.json([
      'inference',
      'connections',
      'create',
      '--provider',
      'test-local',
      '--name',
      'gpu',
      '--auth-type',
      'local',
    ]);
    expect(connection).toMatchObject({ providerId: 'test-local', authType: 'local', hasApiKey: false });
    const listed = await cli.json(['inference', 'connections', 'ls', '--provider', 'test-local']);
    expect(listed.map((row: { id: string }) => row.id)).toEqual([connection.id]);
    expect((await cli.run(['inference', 'connections', 'delete', 'gpu'])).code).toBe(0);
  });
});

const redis = redisBinary();
describe.skipIf(Boolean(redis.skipReason))('infragate databases and kv', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(() => server?.stop());

  it('registers a database, runs commands whose words keep their spaces, shows the history, and deletes it', async () => {
    const database = await cli.json([
      'databases',
      'create',
      '--name',
      'cache',
      '--db-url',
      server.url,
      '--db-index',
      '2',
    ]);
    expect(database).toMatchObject({ name: 'cache', type: 'keyvalue', dbIndex: 2, hasPassword: false });
    expect((await cli.json(['kv', 'run', 'cache', 'SET', 'greeting', 'hello world'])).result).toBe('OK');
    expect((await cli.json(['kv', 'run', 'cache', 'GET', 'greeting'])).result).toBe('hello world');
    expect((await cli.json(['kv', 'run', 'cache', 'INCRBY', 'counter', '-5'])).result).toBe(-5);
    const history = await cli.json(['kv', 'history', 'cache']);
    expect(history[0]).toMatchObject({ commandName: 'INCRBY', status: 'ok' });
    expect((await cli.json(['databases', 'get', 'cache'])).status.reachable).toBe(true);
    expect((await cli.run(['databases', 'delete', 'cache'])).code).toBe(0);
    expect(await cli.json(['databases', 'ls'])).toEqual([]);
  });

  it('prints the reply itself at a terminal', async () => {
    await cli.json(['databases', 'create', '--name', 'plain', '--db-url', server.url]);
    await cli.json(['kv', 'run', 'plain', 'SET', 'k', 'v v']);
    const shown = await cli.terminal(['kv', 'run', 'plain', 'GET', 'k']);
    expect(shown.stdout.trim()).toBe('v v');
  });

  it('a refused command exits 1 with its reason', async () => {
    await cli.json(['databases', 'create', '--name', 'strict', '--db-url', server.url]);
    const result = await cli.run(['kv', 'run', 'strict', 'BLPOP', 'queue', '0']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('BLOCKING_COMMAND');
  });
});
