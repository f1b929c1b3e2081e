import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startServeProcess } from '../support/cli.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-cli-'));
const env = { INFRAGATE_DATA_DIR: dataDir, DATABASE_URL: '' };
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('infragate CLI on a fresh data dir (server stopped)', () => {
  it('migrate creates the database by itself', async () => {
    const result = await runCli(['migrate'], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('applied: 0001_foundation');
  });

  it('groups create accepts an empty scope list and groups list shows it as JSON', async () => {
    expect(
      (await runCli(['groups', 'create', '--name', 'ops', '--scopes', 'logging:view,pages:*'], env)).code,
    ).toBe(0);
    expect((await runCli(['groups', 'create', '--name', 'empty', '--scopes', ''], env)).code).toBe(0);
    const listed = await runCli(['groups', 'list', '--json'], env);
    const groups = JSON.parse(listed.stdout) as { name: string; scopes: string[] }[];
    expect(groups.find((g) => g.name === 'ops')?.scopes).toEqual(['logging:view', 'pages:*']);
    expect(groups.find((g) => g.name === 'empty')?.scopes).toEqual([]);
  });

  it('groups ls is groups list (every list command answers to both)', async () => {
    const ls = await runCli(['groups', 'ls', '--json'], env);
    expect(ls.code, ls.stderr).toBe(0);
    expect(JSON.parse(ls.stdout)).toEqual(
      JSON.parse((await runCli(['groups', 'list', '--json'], env)).stdout),
    );
  });

  it('users create reads the password from stdin', async () => {
    const result = await runCli(
      [
        'users',
        'create',
        '--email',
        'ops@example.org',
        '--name',
        'Ops',
        '--group',
        'ops',
        '--password-stdin',
      ],
      env,
      'a long password\n',
    );
    expect(result.code).toBe(0);
    const listed = JSON.parse((await runCli(['users', 'list', '--json'], env)).stdout) as {
      email: string;
      hasPassword: boolean;
    }[];
    expect(listed.find((u) => u.email === 'ops@example.org')?.hasPassword).toBe(true);
  });

  it('tokens create prints the token alone on the last line', async () => {
    const result = await runCli(
      ['tokens', 'create', '--email', 'ops@example.org', '--name', 'deploy', '--expires', '30d'],
      env,
    );
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n').at(-1)).toMatch(/^igw_[A-Za-z0-9_-]{43}$/);
  });

  it('tokens create --scopes narrows the token to some of the user’s scopes', async () => {
    const result = await runCli(
      ['tokens', 'create', '--email', 'ops@example.org', '--name', 'reader', '--scopes', 'logging:view'],
      env,
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('scopes logging:view');
    const server = await startServeProcess(env);
    try {
      const me = await server.call('GET', '/auth/me', result.stdout.trim().split('\n').at(-1)!);
      expect(me.body.data.scopes).toEqual(['logging:view']);
    } finally {
      await server.stop();
    }
  });

  it('tokens create --scopes refuses a scope the user does not hold, naming it', async () => {
    const result = await runCli(
      ['tokens', 'create', '--email', 'ops@example.org', '--scopes', 'logging:view,pages:*,audit:view'],
      env,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('SCOPE_NOT_HELD');
    expect(result.stderr).toContain('audit:view');
    expect(result.stderr).not.toContain('pages:*');
  });

  it('tokens create --scopes refuses what is not a scope, naming it', async () => {
    const result = await runCli(
      ['tokens', 'create', '--email', 'ops@example.org', '--scopes', 'logging:fly'],
      env,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('scopes.0 unknown permission "fly" in logging');
  });

  it('exits non-zero with a one-line message on an error', async () => {
    const result = await runCli(
      ['users', 'create', '--email', 'x@y', '--name', 'X', '--group', 'missing'],
      env,
    );
    expect(result.code).not.toBe(0);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('no group named missing');
  });

  it('rejects a bad --expires value', async () => {
    const result = await runCli(['tokens', 'create', '--email', 'ops@example.org', '--expires', 'soon'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--expires');
  });

  it('reports bad configuration one line per value', async () => {
    const result = await runCli(['migrate'], { ...env, PORT: 'x', INFRAGATE_EGRESS: 'y' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('PORT=x');
    expect(result.stderr).toContain('INFRAGATE_EGRESS=y');
  });
});

describe('infragate serve and the CLI together', () => {
  it('first start creates admin@localhost and prints a one-time token that works', async () => {
    const freshDir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-serve-'));
    const server = await startServeProcess({ INFRAGATE_DATA_DIR: freshDir, DATABASE_URL: '' });
    try {
      const token = server.firstToken;
      expect(server.output()).toContain('admin@localhost');
      expect(server.output()).toContain('/docs');
      const me = await fetch(`${server.baseUrl}/auth/me`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(((await me.json()) as { data: { scopes: string[] } }).data.scopes).toEqual(['*']);

      // The server holds the embedded database; the CLI's commands run through its admin socket.
      const created = await runCli(['tokens', 'create', '--email', 'admin@localhost'], {
        INFRAGATE_DATA_DIR: freshDir,
      });
      expect(created.code).toBe(0);
      const cliToken = created.stdout.trim().split('\n').at(-1);
      const again = await fetch(`${server.baseUrl}/auth/me`, {
        headers: { authorization: `Bearer ${cliToken}` },
      });
      expect(again.status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
      fs.rmSync(freshDir, { recursive: true, force: true });
    }
  });

  it('a second start does not create another admin or print a token', async () => {
    const freshDir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-serve-'));
    const start = () => startServeProcess({ INFRAGATE_DATA_DIR: freshDir, DATABASE_URL: '' });
    const first = await start();
    await first.stop();
    const second = await start();
    try {
      expect(second.output()).not.toMatch(/igw_/);
    } finally {
      await second.stop();
      fs.rmSync(freshDir, { recursive: true, force: true });
    }
  });
});
