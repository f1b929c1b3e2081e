import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, redisBinary, startRedis } from '../services/redis.js';
import { type SmtpSink, startSmtpSink } from '../services/smtp-sink.js';
import { ensureConsoleBuilt } from '../support/build.js';
import { type ServeProcess, startServeProcess } from '../support/cli.js';

// The other suites build gateways from src/; this one runs the bundle `npm start` runs
// (scripts/build-server.mjs), through the parts a bundle can get wrong: files found beside the
// package's code, and packages loaded on first use.
const redis = redisBinary();
describe.skipIf(Boolean(redis.skipReason))('the built server (node dist/cli.js serve)', () => {
  let dataDir: string;
  let gateway: ServeProcess;
  let token: string;
  let redisServer: RedisServer;
  let smtp: SmtpSink;
  beforeAll(async () => {
    await ensureConsoleBuilt();
    [redisServer, smtp] = await Promise.all([startRedis(), startSmtpSink()]);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-built-'));
    gateway = await startServeProcess({ INFRAGATE_DATA_DIR: dataDir });
    token = gateway.firstToken!;
  });
  afterAll(async () => {
    await gateway?.stop();
    await Promise.all([redisServer?.stop(), smtp?.stop()]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('applies the migrations it ships and answers the API', async () => {
    const me = await gateway.call('GET', '/auth/me', token);
    expect(me.status).toBe(200);
  });

  it('serves the console it ships', async () => {
    const page = await fetch(`${gateway.baseUrl}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
  });

  it('serves the API description and its UI', async () => {
    const document = await fetch(`${gateway.baseUrl}/openapi.json`);
    expect(document.status).toBe(200);
    expect(((await document.json()) as { openapi: string }).openapi).toMatch(/^3\./);
    expect((await fetch(`${gateway.baseUrl}/docs/`)).status).toBe(200);
  });

  it('lists the inference providers of the catalog it ships', async () => {
    const catalog = await gateway.call('GET', '/api/inference/providers/catalog', token);
    expect(catalog.status).toBe(200);
    expect(catalog.body.length).toBeGreaterThan(0);
  });

  it('runs a key-value command (its client loaded on first use)', async () => {
    const database = await gateway.call('POST', '/api/databases', token, {
      name: 'cache',
      type: 'keyvalue',
      url: redisServer.url,
    });
    expect(database.status).toBe(201);
    const command = `/api/databases/${database.body.data.id}/keyvalue/command`;
    expect((await gateway.call('POST', command, token, { command: 'SET built yes' })).status).toBe(200);
    const read = await gateway.call('POST', command, token, { command: 'GET built' });
    expect(read.body.data.result).toBe('yes');
  });

  it('sends a test mail (its mailer loaded on first use)', async () => {
    const channel = await gateway.call('POST', '/api/notifications/channels', token, {
      name: 'mail',
      kind: 'email',
      smtp: { host: '127.0.0.1', port: smtp.port, starttls: 'off' },
      from: 'infragate@example.test',
      to: ['ops@example.test'],
    });
    expect(channel.status).toBe(201);
    const test = await gateway.call(
      'POST',
      `/api/notifications/channels/${channel.body.data.id}/test`,
      token,
    );
    expect(test.body.data).toEqual({ ok: true });
    expect(smtp.mails).toHaveLength(1);
  });
});
