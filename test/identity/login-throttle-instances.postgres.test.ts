import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase } from '../services/postgres.js';
import { createAdminWithCli, type ServeProcess, startServeProcess } from '../support/cli.js';

// The throttle's count lives in the database, so gateways sharing one take turns on it as the
// requests of one gateway do: attempts spread over both are limited as one.
const LIMIT = 5;
const TOGETHER = 20;

describe('wrong passwords sent together to two gateways on one PostgreSQL', () => {
  let servers: ServeProcess[] = [];
  let dataDir: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-throttle-'));
    const env = {
      DATABASE_URL: await createDatabase(inject('postgresUrl')),
      INFRAGATE_DATA_DIR: dataDir,
      INFRAGATE_MASTER_KEY: crypto.randomBytes(32).toString('hex'),
      INFRAGATE_LOGIN_MAX_FAILURES: String(LIMIT),
    };
    servers.push(await startServeProcess(env));
    servers.push(await startServeProcess(env));
    await createAdminWithCli(env, 'ops@test', 'the right password');
  });

  afterAll(async () => {
    for (const server of servers) await server.stop();
    servers = [];
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it(`are checked at most ${LIMIT} times in all; the others are throttled`, async () => {
    const answers = await Promise.all(
      Array.from({ length: TOGETHER }, async (_, index) => {
        const response = await fetch(`${servers[index % 2]!.baseUrl}/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'ops@test', password: 'wrong password' }),
        });
        const body = (await response.json()) as { details?: { reason?: string } };
        return body.details?.reason ?? String(response.status);
      }),
    );
    expect(answers.filter((answer) => answer === '401')).toHaveLength(LIMIT);
    expect(answers.filter((answer) => answer === 'TOO_MANY_FAILED_LOGINS')).toHaveLength(TOGETHER - LIMIT);
  });
});
