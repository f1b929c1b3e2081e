import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { systemActor } from '../../src/core/actor.js';
import { AuditRecorder } from '../../src/core/audit-recorder.js';
import { openDatabase } from '../../src/db/client.js';
import { createDatabase } from '../services/postgres.js';
import { type SiemSink, startSiemSink } from '../services/siem-sink.js';
import { type ServeProcess, startServeProcess } from '../support/cli.js';
import { eventually } from '../support/eventually.js';
import { WEBHOOK_SECRET } from './helpers.js';

const EVENTS = 600;

describe('two gateway processes on one PostgreSQL', () => {
  const gateways: ServeProcess[] = [];
  const dirs: string[] = [];
  let sink: SiemSink | undefined;
  afterAll(async () => {
    for (const gateway of gateways) await gateway.stop();
    await sink?.stop();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('deliver every event exactly once between them', { timeout: 180_000 }, async () => {
    const url = await createDatabase(inject('postgresUrl'));
    const env = (name: string) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), `infragate-${name}-`));
      dirs.push(dir);
      return {
        DATABASE_URL: url,
        INFRAGATE_DATA_DIR: dir,
        // Both processes must open the destination's sealed secret.
        INFRAGATE_MASTER_KEY: masterKey,
        INFRAGATE_SIEM_POLL_INTERVAL_MS: '20',
        INFRAGATE_SIEM_FLUSH_INTERVAL_MS: '0',
        INFRAGATE_SIEM_CONCURRENCY: '4',
      };
    };
    const masterKey = crypto.randomBytes(32).toString('hex');
    sink = await startSiemSink({ secret: WEBHOOK_SECRET });
    const first = await startServeProcess(env('a'));
    gateways.push(first);
    const token = first.firstToken!;
    const created = await first.call('POST', '/api/audit/siem/destinations', token, {
      name: 'shared-sink',
      kind: 'webhook',
      url: sink.webhookUrl,
      secret: WEBHOOK_SECRET,
      batchSize: 5,
    });
    expect(created.status).toBe(201);
    gateways.push(await startServeProcess(env('b')));

    // Events committed by a third party (this test) so neither gateway is favoured by a wake-up.
    const database = await openDatabase({ url, poolSize: 2 });
    const recorder = new AuditRecorder();
    try {
      for (let i = 0; i < EVENTS; i += 20) {
        await database.db.transaction(async (tx) => {
          for (let j = 0; j < 20; j++) {
            await recorder.record(tx, systemActor(), {
              action: 'audit.siem.test',
              targetType: 'test',
              targetId: String(i + j),
            });
          }
        });
      }
    } finally {
      await database.close();
    }

    const expected = EVENTS + 1; // the destination's own creation event, then the test's events
    await eventually(() => sink!.webhookEvents.length >= expected, 'all events at the sink', 120_000);
    const deliveries = (status = '') =>
      first
        .call(
          'GET',
          `/api/audit/siem/deliveries?destinationId=${created.body.data.id}&limit=1${status}`,
          token,
        )
        .then((answer) => answer.body.pagination.total as number);
    await eventually(
      async () => (await deliveries('&status=delivered')) === (await deliveries()),
      'every delivery settled as delivered',
    );
    // A gateway stops once its round in progress is over: after both, no duplicate is on its way.
    await Promise.all(gateways.map((gateway) => gateway.stop()));

    const ids = sink.webhookEvents.map((event) => event.id as string);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
    expect(new Set(ids).size).toBe(expected);
    expect(sink.rejectedSignatures).toBe(0);
    expect(new Set(sink.requests.map((request) => request.headers['x-infragate-delivery'])).size).toBe(
      sink.requests.length,
    );
  });
});
