import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logStore } from '../logging/log-store.js';
import { type ApiCli, gatewayWithCli } from '../support/cli.js';
import { eventually } from '../support/eventually.js';
import type { TestGateway } from '../support/gateway.js';

let gateway: TestGateway;
let cli: ApiCli;
beforeAll(async () => {
  ({ gateway, cli } = await gatewayWithCli());
});
afterAll(() => gateway.close());

describe('infragate logging', () => {
  it('builds a folder tree with folders named by name, and moves a folder to the top level', async () => {
    const apps = await cli.json(['logging', 'schema-folders', 'create', '--name', 'apps']);
    const web = await cli.json(['logging', 'schema-folders', 'create', '--name', 'web', '--parent', 'apps']);
    expect(web.parentId).toBe(apps.id);
    const tree = await cli.json(['logging', 'schema-folders', 'tree']);
    expect(tree).toMatchObject([{ name: 'apps', children: [{ name: 'web' }] }]);
    expect(
      (await cli.json(['logging', 'schema-folders', 'move', 'web', '--parent', 'root'])).parentId,
    ).toBeNull();
  });

  it('creates a schema with its fields, lists it by folder, gets and deletes it', async () => {
    await cli.json(['logging', 'schema-folders', 'create', '--name', 'http']);
    const schema = await cli.json([
      'logging',
      'schemas',
      'create',
      '--name',
      'access',
      '--folder',
      'http',
      '--schema-field',
      'message:string:required',
      '--schema-field',
      'latencyMs:number',
    ]);
    expect(schema.fields).toEqual([
      { name: 'message', type: 'string', required: true },
      { name: 'latencyMs', type: 'number', required: false },
    ]);
    const listed = await cli.json(['logging', 'schemas', 'ls', '--folder', 'http']);
    expect(listed.map((row: { name: string }) => row.name)).toEqual(['access']);
    expect((await cli.json(['logging', 'schemas', 'get', 'access'])).id).toBe(schema.id);
    expect((await cli.run(['logging', 'schemas', 'delete', 'access'])).code).toBe(0);
    expect((await gateway.call('GET', `/api/logging/schemas/${schema.id}`)).status).toBe(404);
  });

  it('creates an environment that follows a schema named by name, and filters environments by schema', async () => {
    const schema = await cli.json(['logging', 'schemas', 'create', '--name', 'audit-log']);
    await cli.json(['logging', 'environment-folders', 'create', '--name', 'prod']);
    const environment = await cli.json([
      'logging',
      'environments',
      'create',
      '--name',
      'api',
      '--folder',
      'prod',
      '--schema',
      'audit-log',
      '--retention-days',
      '7',
    ]);
    expect(environment).toMatchObject({ schemaId: schema.id, retentionDays: 7 });
    const listed = await cli.json(['logging', 'environments', 'ls', '--schema', 'audit-log']);
    expect(listed.map((row: { id: string }) => row.id)).toEqual([environment.id]);
    const moved = await cli.json(['logging', 'environments', 'move', 'api', '--folder', 'root']);
    expect(moved.environments[0].folderId).toBeNull();
  });

  it('refuses to delete a non-empty folder unless --recursive', async () => {
    await cli.json(['logging', 'environment-folders', 'create', '--name', 'staging']);
    await cli.json(['logging', 'environments', 'create', '--name', 'web', '--folder', 'staging']);
    const refused = await cli.run(['logging', 'environment-folders', 'delete', 'staging']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('409 CONFLICT');
    expect(refused.stderr).toContain('FOLDER_NOT_EMPTY');
    expect((await cli.run(['logging', 'environment-folders', 'delete', 'staging', '--recursive'])).code).toBe(
      0,
    );
  });
});

describe('infragate logging records and ingest tokens', () => {
  /** A minute ago plus `seconds`: inside the retention of a new environment. */
  const at = (seconds: number) => new Date(Date.now() - 60_000 + seconds * 1000).toISOString();

  /** An environment with an ingest token made through the CLI, and a way to send records with it. */
  async function environmentWithToken(name: string) {
    await cli.json(['logging', 'environments', 'create', '--name', name]);
    const issued = await cli.json([
      'logging',
      'ingest-tokens',
      'create',
      '--environment',
      name,
      '--name',
      'agent',
    ]);
    expect(issued.token).toMatch(/^igl_/);
    const send = async (records: Record<string, unknown>[]) => {
      const result = await logStore(gateway).ingest(issued.token, records);
      expect(result.status, result.text).toBe(200);
    };
    return { issued, send };
  }

  it('creates an ingest token shown once, lists it without its secret, and revokes it', async () => {
    const { issued, send } = await environmentWithToken('tokens-env');
    await send([{ message: 'hello' }]);
    const [listed] = await cli.json(['logging', 'ingest-tokens', 'ls', '--environment', 'tokens-env']);
    expect(listed).toMatchObject({ id: issued.id, name: 'agent', revokedAt: null });
    expect(listed.lastUsedAt).not.toBeNull();
    expect(listed).not.toHaveProperty('token');
    expect(
      (await cli.run(['logging', 'ingest-tokens', 'revoke', 'agent', '--environment', 'tokens-env'])).code,
    ).toBe(0);
    expect((await logStore(gateway).ingest(issued.token, [{ message: 'refused' }])).status).toBe(401);
  });

  it('searches records by level, service and field, a page at a time', async () => {
    const { send } = await environmentWithToken('search-env');
    await send([
      {
        timestamp: at(0),
        level: 'info',
        service: 'api',
        message: 'signed in',
        user: 'alice',
      },
      {
        timestamp: at(1),
        level: 'error',
        service: 'api',
        message: 'database down',
        user: 'bob',
      },
      {
        timestamp: at(2),
        level: 'error',
        service: 'worker',
        message: 'job failed',
        user: 'bob',
      },
    ]);
    const errors = await cli.json(['logging', 'records', 'search', 'search-env', '--level', 'error']);
    expect(errors.map((record: { message: string }) => record.message)).toEqual([
      'job failed',
      'database down',
    ]);
    const bobOnApi = await cli.json([
      'logging',
      'records',
      'search',
      'search-env',
      '--service',
      'api',
      '--field',
      'user=bob',
    ]);
    expect(bobOnApi.map((record: { message: string }) => record.message)).toEqual(['database down']);
    const first = await cli.run(['logging', 'records', 'search', 'search-env', '--limit', '2']);
    const cursor = /more: --cursor (\S+)/.exec(first.stderr)?.[1];
    expect(cursor).toBeDefined();
    const rest = await cli.json([
      'logging',
      'records',
      'search',
      'search-env',
      '--limit',
      '2',
      '--cursor',
      cursor!,
    ]);
    expect(rest.map((record: { message: string }) => record.message)).toEqual(['signed in']);
  });

  it('tails the last records oldest first, as lines at a terminal', async () => {
    const { send } = await environmentWithToken('tail-env');
    const [at1, at2] = [at(1), at(2)];
    await send([
      { timestamp: at(0), level: 'info', message: 'one' },
      { timestamp: at1, level: 'warn', service: 'api', message: 'two' },
      { timestamp: at2, level: 'error', service: 'api', message: 'three' },
    ]);
    const shown = await cli.terminal(['logging', 'records', 'tail', 'tail-env', '-n', '2']);
    expect(shown.code).toBe(0);
    expect(shown.stdout.trim().split('\r\n')).toEqual([`${at1} WARN  api  two`, `${at2} ERROR api  three`]);
  });

  it('follows the records as they are ingested (-f), one JSON line each when piped', async () => {
    const { send } = await environmentWithToken('follow-env');
    await send([{ level: 'error', message: 'before the tail' }]);
    const tail = await cli.start([
      'logging',
      'records',
      'tail',
      'follow-env',
      '-n',
      '1',
      '-f',
      '--level',
      'error',
    ]);
    try {
      // The last records are read once the stream is open: from then on, nothing is missed.
      await eventually(() => tail.stdout().includes('before the tail'), 'the last record', 60_000);
      await send([
        { level: 'info', message: 'filtered out' },
        { level: 'error', message: 'arrived' },
      ]);
      await eventually(() => tail.stdout().includes('"arrived"'), 'the new record');
      const lines = tail
        .stdout()
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(lines.map((line: { message: string }) => line.message)).toEqual(['before the tail', 'arrived']);
    } finally {
      tail.child.kill('SIGINT');
      await tail.exited;
    }
  });
});
