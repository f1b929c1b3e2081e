import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase } from '../services/postgres.js';
import { type ServeProcess, startServeProcess } from '../support/cli.js';
import { openEventStreamClient } from './event-stream-client.js';

/** Two `infragate serve` processes on one PostgreSQL: a tail on one sees ingest through the other. */
let servers: ServeProcess[] = [];
let adminToken = '';
let dataDir = '';

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-tail-'));
  const env = {
    DATABASE_URL: await createDatabase(inject('postgresUrl')),
    INFRAGATE_DATA_DIR: dataDir,
    INFRAGATE_MASTER_KEY: crypto.randomBytes(32).toString('hex'),
  };
  servers = [await startServeProcess(env)];
  servers.push(await startServeProcess(env));
  adminToken = servers[0]!.firstToken!;
});
afterAll(async () => {
  for (const server of servers) await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('a tail across gateway processes', () => {
  it('receives records ingested through another gateway', async () => {
    const [ingesting, tailing] = servers as [ServeProcess, ServeProcess];
    const environment = (
      await ingesting.call('POST', '/api/logging/environments', adminToken, { name: 'shared' })
    ).body.data;
    const token = (
      await ingesting.call('POST', `/api/logging/environments/${environment.id}/tokens`, adminToken, {
        name: 'shipper',
      })
    ).body.data.token as string;
    const tail = await openEventStreamClient(
      `${tailing.baseUrl}/api/logging/environments/${environment.id}/tail?level=error`,
      adminToken,
    );
    expect(tail.status).toBe(200);

    const response = await fetch(`${ingesting.baseUrl}/api/logging/ingest`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' },
      body: ['{"message": "fine", "level": "info"}', '{"message": "broken", "level": "error"}'].join('\n'),
    });
    expect(response.status).toBe(200);
    const event = await tail.next();
    expect(event).toMatchObject({ event: 'record', data: { message: 'broken', level: 'error' } });
    tail.close();
  });
});
