import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServeProcess, startServeProcess } from '../support/cli.js';
import { eventually } from '../support/eventually.js';

/**
 * A real `infragate serve` on the embedded database is killed with SIGKILL while ingest requests
 * are in flight, then started again on the same data dir: every batch it acknowledged is there in
 * full, and no batch is there in part.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-ingest-crash-'));
const env = { INFRAGATE_DATA_DIR: dataDir, DATABASE_URL: '' };
const BATCH = 50;
let server: ServeProcess;
let adminToken = '';

beforeAll(async () => {
  server = await startServeProcess(env);
  adminToken = server.firstToken!;
});
afterAll(async () => {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function ingest(token: string, batch: number): Promise<Response> {
  const lines = Array.from({ length: BATCH }, (_, i) => JSON.stringify({ message: `record ${i}`, batch }));
  return fetch(`${server.baseUrl}/api/logging/ingest`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' },
    body: lines.join('\n'),
  });
}

describe('kill -9 during ingest', () => {
  it('keeps every acknowledged record and no part of a batch', async () => {
    const environment = (
      await server.call('POST', '/api/logging/environments', adminToken, { name: 'crash' })
    ).body.data;
    const token = (
      await server.call('POST', `/api/logging/environments/${environment.id}/tokens`, adminToken, {
        name: 'shipper',
      })
    ).body.data.token as string;

    const acknowledged: number[] = [];
    let killed = false;
    const senders = Array.from({ length: 4 }, async (_, sender) => {
      for (let batch = sender; !killed; batch += 4) {
        const response = await ingest(token, batch).catch(() => undefined);
        if (response?.status !== 200) continue;
        const answer = (await response.json()) as { data: { accepted: number } };
        if (answer.data.accepted === BATCH) acknowledged.push(batch);
      }
    });
    await eventually(async () => acknowledged.length >= 10, '10 acknowledged batches');
    killed = true;
    await server.stop('SIGKILL');
    await Promise.all(senders);

    server = await startServeProcess(env);
    const counted = await server.call(
      'GET',
      `/api/logging/environments/${environment.id}/facets?field=batch&limit=100`,
      adminToken,
    );
    expect(counted.status).toBe(200);
    const perBatch = new Map<number, number>(
      counted.body.data.values.map((entry: { value: number; count: number }) => [entry.value, entry.count]),
    );
    for (const batch of acknowledged) expect(perBatch.get(batch), `batch ${batch}`).toBe(BATCH);
    for (const [batch, count] of perBatch) expect(count, `batch ${batch}`).toBe(BATCH);
  });
});
