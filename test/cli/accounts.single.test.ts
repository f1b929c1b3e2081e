import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPasswordUser, enrolTotp, passwordLogin, sessionTokenOf } from '../identity/helpers.js';
import { type ApiCli, apiCli, gatewayWithCli } from '../support/cli.js';
import type { TestGateway } from '../support/gateway.js';

let gateway: TestGateway;
let cli: ApiCli;
beforeAll(async () => {
  ({ gateway, cli } = await gatewayWithCli());
});
afterAll(() => gateway.close());

describe('infragate admin groups and admin users (through the API)', () => {
  it('creates a group, lists it, and replaces its scopes', async () => {
    const group = await cli.json([
      'admin',
      'groups',
      'create',
      '--name',
      'ops',
      '--scopes',
      'logging:view,pages:*',
    ]);
    expect(group).toMatchObject({ name: 'ops', scopes: ['logging:view', 'pages:*'] });
    const listed = await cli.json(['admin', 'groups', 'ls']);
    expect(listed.map((row: { name: string }) => row.name)).toContain('ops');
    const changed = await cli.json(['admin', 'groups', 'set-scopes', 'ops', 'pages:view']);
    expect(changed.scopes).toEqual(['pages:view']);
  });

  it('creates a user with a password from stdin, finds it by email, disables and enables it', async () => {
    await cli.json(['admin', 'groups', 'create', '--name', 'support', '--scopes', '']);
    const user = await cli.json(
      [
        'admin',
        'users',
        'create',
        '--email',
        'sam@example.org',
        '--name',
        'Sam',
        '--group',
        'support',
        '--password-stdin',
      ],
      'a long password\n',
    );
    expect(user).toMatchObject({ email: 'sam@example.org', groupName: 'support', hasPassword: true });
    expect((await cli.json(['admin', 'users', 'get', 'sam@example.org'])).id).toBe(user.id);
    expect((await cli.json(['admin', 'users', 'disable', 'sam@example.org'])).disabled).toBe(true);
    expect((await cli.json(['admin', 'users', 'enable', user.id])).disabled).toBe(false);
    const found = await cli.json(['admin', 'users', 'ls', '--q', 'sam@']);
    expect(found.map((row: { email: string }) => row.email)).toEqual(['sam@example.org']);
  });

  it('shows a group by name, renames it, makes it require a second factor, and deletes it once empty', async () => {
    const group = await cli.json([
      'admin',
      'groups',
      'create',
      '--name',
      'auditors',
      '--scopes',
      'audit:view',
    ]);
    expect(await cli.json(['admin', 'groups', 'get', 'auditors'])).toEqual(group);
    expect((await cli.json(['admin', 'groups', 'rename', 'auditors', 'reviewers'])).name).toBe('reviewers');
    const strict = await cli.json(['admin', 'groups', 'update', 'reviewers', '--require-mfa']);
    expect(strict).toMatchObject({ id: group.id, name: 'reviewers', requireMfa: true });
    expect((await cli.run(['admin', 'groups', 'delete', 'reviewers'])).code).toBe(0);
    const gone = await cli.run(['admin', 'groups', 'get', group.id]);
    expect(gone.code).toBe(1);
    expect(gone.stderr.trim()).toBe(`infragate: no group with id ${group.id}`);
  });

  it('refuses to delete a group that still has members, with the reason', async () => {
    const member = await createPasswordUser(gateway);
    const result = await cli.run(['admin', 'groups', 'delete', member.group]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('GROUP_HAS_MEMBERS');
  });

  it("resets a user's authenticator, then deletes the user", async () => {
    const user = await createPasswordUser(gateway);
    await enrolTotp(gateway, await sessionTokenOf(gateway, user));
    const reset = await cli.json(['admin', 'users', 'reset-totp', user.email]);
    expect(reset).toMatchObject({ id: user.id, totpEnabled: false });
    expect((await passwordLogin(gateway, user)).body.data.token).toMatch(/^igw_/);
    expect((await cli.run(['admin', 'users', 'delete', user.email])).code).toBe(0);
    expect((await gateway.call('GET', `/api/admin/users/${user.id}`)).status).toBe(404);
  });

  it('names an unknown user in one line', async () => {
    const result = await cli.run(['admin', 'users', 'get', 'nobody@example.org']);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe('infragate: no user with email nobody@example.org');
  });
});

describe('infragate auth tokens (the caller’s own, through the API)', () => {
  it('creates a token shown once, lists it without its secret and revokes it by name', async () => {
    const created = await cli.json(['auth', 'tokens', 'create', '--name', 'ci', '--expires-in-days', '7']);
    expect(created.token).toMatch(/^igw_/);
    const listed = await cli.json(['auth', 'tokens', 'ls']);
    expect(listed.find((token: { name: string }) => token.name === 'ci')).not.toHaveProperty('token');
    expect((await gateway.call('GET', '/auth/me', { token: created.token })).status).toBe(200);
    expect((await cli.run(['auth', 'tokens', 'revoke', 'ci'])).code).toBe(0);
    expect((await gateway.call('GET', '/auth/me', { token: created.token })).status).toBe(401);
  });

  it('narrows a new token to the scopes given, and lists them', async () => {
    const created = await cli.json([
      'auth',
      'tokens',
      'create',
      '--name',
      'reader',
      '--scopes',
      'logging:view, audit:view',
    ]);
    expect(created.scopes).toEqual(['logging:view', 'audit:view']);
    const me = await gateway.call('GET', '/auth/me', { token: created.token });
    expect(me.body.data.scopes).toEqual(['logging:view', 'audit:view']);
    const table = await cli.terminal(['auth', 'tokens', 'ls']);
    expect(table.stdout).toMatch(/reader\s+logging:view,audit:view\s/);
  });

  it('refuses a scope the caller does not hold, naming it', async () => {
    const own = apiCli(cli.env.INFRAGATE_URL!, await gateway.tokenWithScopes(['logging:view']));
    const result = await own.run([
      'auth',
      'tokens',
      'create',
      '--name',
      'wider',
      '--scopes',
      'logging:manage',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('SCOPE_NOT_HELD');
    expect(result.stderr).toContain('logging:manage');
  });
});
