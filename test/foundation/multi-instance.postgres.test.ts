import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { BackgroundJobs } from '../../src/core/background-jobs.js';
import { openDatabase } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { createDatabase } from '../services/postgres.js';
import { createAdminWithCli, type ServeProcess, startServeProcess } from '../support/cli.js';
import { eventually } from '../support/eventually.js';

describe('two gateway processes on one PostgreSQL', () => {
  let env: Record<string, string>;
  let servers: ServeProcess[] = [];

  beforeAll(async () => {
    const url = await createDatabase(inject('postgresUrl'));
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-multi-'));
    env = {
      DATABASE_URL: url,
      INFRAGATE_DATA_DIR: dataDir,
      INFRAGATE_MASTER_KEY: crypto.randomBytes(32).toString('hex'),
    };
    // Both start at once: migrations and the first-admin creation must take turns, not collide.
    const started = await Promise.allSettled([startServeProcess(env), startServeProcess(env)]);
    // One that started is stopped after the file even when the other failed to.
    servers = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    for (const result of started) if (result.status === 'rejected') throw result.reason;
    await createAdminWithCli(env, 'ops@test', 'a shared password');
  });

  afterAll(async () => {
    for (const server of servers) await server.stop();
  });

  it('creates exactly one first admin when both start together', () => {
    const printedTokens = servers.filter((server) => /igw_/.test(server.output()));
    expect(printedTokens).toHaveLength(1);
  });

  it('a session logged out on one instance is refused on the other', async () => {
    const [a, b] = servers.map((server) => server.baseUrl);
    const login = await fetch(`${a}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ops@test', password: 'a shared password' }),
    });
    const { token } = ((await login.json()) as { data: { token: string } }).data;
    const headers = { authorization: `Bearer ${token}` };
    expect((await fetch(`${b}/auth/me`, { headers })).status).toBe(200); // now cached on b
    expect((await fetch(`${a}/auth/logout`, { method: 'POST', headers })).status).toBe(200);
    // NOTIFY crosses processes in milliseconds; the poll only absorbs that delivery.
    await eventually(
      async () => (await fetch(`${b}/auth/me`, { headers })).status === 401,
      'revocation on the other instance',
      3_000,
    );
  });
});

describe('background job leases', () => {
  it('run a job in one process at a time', async () => {
    const url = await createDatabase(inject('postgresUrl'));
    const databases = [await openDatabase({ url }), await openDatabase({ url })];
    await migrate(databases[0]!.db);
    const silent = { error: () => {} } as never;
    let runs = 0;
    const job = { name: 'sweep', intervalMs: 60_000, run: async () => void runs++ };
    const instances = databases.map(
      (database) => new BackgroundJobs({ log: silent, db: database.db, instanceId: crypto.randomUUID() }),
    );
    for (const instance of instances) instance.register(job);
    await Promise.all(instances.map((instance) => instance.runNow('sweep')));
    await Promise.all(instances.map((instance) => instance.runNow('sweep')));
    expect(runs).toBe(2); // both rounds ran, each in only one of the two processes
    for (const instance of instances) await instance.stop();
    for (const database of databases) await database.close();
  });
});
