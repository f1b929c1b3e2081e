import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiCli, gatewayWithCli } from '../support/cli.js';
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
