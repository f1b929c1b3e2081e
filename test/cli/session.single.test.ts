import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../services/peers.js';
import { apiCliEnv, runCli } from '../support/cli.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

let gateway: TestGateway;
let baseUrl: string;
beforeAll(async () => {
  gateway = await startTestGateway();
  baseUrl = await gateway.listen();
});
afterAll(() => gateway.close());

/** A home of its own with no saved login and no INFRAGATE_URL/INFRAGATE_TOKEN. */
function freshHome() {
  const env: Record<string, string> = { ...apiCliEnv('', ''), INFRAGATE_URL: '', INFRAGATE_TOKEN: '' };
  return { env, configFile: path.join(env.XDG_CONFIG_HOME!, 'infragate', 'config.json') };
}

async function loggedIn(token = gateway.adminToken) {
  const home = freshHome();
  const result = await runCli(['login', '--url', baseUrl, '--token-stdin'], home.env, `${token}\n`);
  expect(result.code).toBe(0);
  return home;
}

describe('infragate login', () => {
  it('checks the token, then saves the URL and token readable by the owner only', async () => {
    const { configFile } = await loggedIn();
    expect(fs.statSync(configFile).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(configFile)).mode & 0o777).toBe(0o700);
    expect(JSON.parse(fs.readFileSync(configFile, 'utf8'))).toEqual({
      url: baseUrl,
      token: gateway.adminToken,
    });
  });

  it('tightens a config file that existed with wider permissions', async () => {
    const { env, configFile } = freshHome();
    fs.mkdirSync(path.dirname(configFile), { recursive: true, mode: 0o755 });
    fs.writeFileSync(configFile, '{}', { mode: 0o644 });
    expect((await runCli(['login', '--url', baseUrl, '--token', gateway.adminToken], env)).code).toBe(0);
    expect(fs.statSync(configFile).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(configFile)).mode & 0o777).toBe(0o700);
  });

  it('refuses a token the gateway rejects and saves nothing', async () => {
    const { env, configFile } = freshHome();
    const result = await runCli(['login', '--url', baseUrl, '--token', 'igw_not-a-real-token'], env);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toMatch(/^infragate: 401 UNAUTHORIZED/);
    expect(fs.existsSync(configFile)).toBe(false);
  });

  it('needs a URL', async () => {
    const result = await runCli(['login', '--token', gateway.adminToken], freshHome().env);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe('infragate: login needs --url <base URL> (or INFRAGATE_URL)');
  });
});

describe('infragate whoami and where the token comes from', () => {
  it('uses the saved login', async () => {
    const { env } = await loggedIn();
    const result = await runCli(['whoami'], env);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      url: baseUrl,
      email: 'admin@test',
      scopes: ['*'],
      urlFrom: 'saved login',
      tokenFrom: 'saved login',
    });
  });

  it('INFRAGATE_TOKEN overrides the saved token, and --token overrides both', async () => {
    const { env } = await loggedIn();
    const viewer = await gateway.tokenWithScopes(['pages:view']);
    const fromEnv = JSON.parse((await runCli(['whoami'], { ...env, INFRAGATE_TOKEN: viewer })).stdout);
    expect(fromEnv).toMatchObject({ scopes: ['pages:view'], tokenFrom: 'environment' });
    const fromFlag = JSON.parse(
      (await runCli(['whoami', '--token', gateway.adminToken], { ...env, INFRAGATE_TOKEN: viewer })).stdout,
    );
    expect(fromFlag).toMatchObject({ email: 'admin@test', tokenFrom: 'flag' });
  });

  it('never sends the saved token to another gateway named by INFRAGATE_URL or --url', async () => {
    const { env } = await loggedIn();
    const seen: (string | undefined)[] = [];
    const other = http.createServer((request, response) => {
      seen.push(request.headers.authorization);
      response.end('{}');
    });
    const port = await listenOnLoopback(other);
    try {
      const viaEnv = await runCli(['whoami'], { ...env, INFRAGATE_URL: `http://127.0.0.1:${port}` });
      const viaFlag = await runCli(['whoami', '--url', `http://127.0.0.1:${port}`], env);
      for (const result of [viaEnv, viaFlag]) {
        expect(result.code).toBe(1);
        expect(result.stderr.trim()).toBe('infragate: set INFRAGATE_TOKEN or pass --token');
      }
      expect(seen).toEqual([]);
    } finally {
      other.close();
    }
  });

  it('says how to give a URL when there is none', async () => {
    const result = await runCli(['whoami'], freshHome().env);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe('infragate: set INFRAGATE_URL or pass --url');
  });
});

describe('infragate logout', () => {
  it('forgets the saved login; the token itself stays valid', async () => {
    const { env, configFile } = await loggedIn();
    expect((await runCli(['logout'], env)).code).toBe(0);
    expect(fs.existsSync(configFile)).toBe(false);
    expect((await gateway.call('GET', '/auth/me')).status).toBe(200);
    const after = await runCli(['whoami'], env);
    expect(after.code).toBe(1);
  });

  it('with --revoke also revokes the token on the gateway', async () => {
    const token = await gateway.tokenWithScopes(['pages:view']);
    const { env } = await loggedIn(token);
    expect((await runCli(['logout', '--revoke'], env)).code).toBe(0);
    expect((await gateway.call('GET', '/auth/me', { token })).status).toBe(401);
  });

  it('fails when nobody is logged in', async () => {
    const result = await runCli(['logout'], freshHome().env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('not logged in');
  });
});
