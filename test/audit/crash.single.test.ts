import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type SiemSink, startSiemSink } from '../services/siem-sink.js';
import { type ServeProcess, startServeProcess } from '../support/cli.js';
import { eventually } from '../support/eventually.js';
import { WEBHOOK_SECRET } from './helpers.js';

describe('a gateway killed with SIGKILL in the middle of a delivery', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-crash-'));
  const env = {
    INFRAGATE_DATA_DIR: dataDir,
    INFRAGATE_SIEM_POLL_INTERVAL_MS: '50',
    INFRAGATE_SIEM_FLUSH_INTERVAL_MS: '0',
    INFRAGATE_SIEM_RETRY_BASE_MS: '50',
  };
  let sink: SiemSink | undefined;
  let gateway: ServeProcess | undefined;
  afterAll(async () => {
    await gateway?.stop();
    await sink?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('loses no event: the next start delivers the batch that was in flight', {
    timeout: 120_000,
  }, async () => {
    sink = await startSiemSink({ secret: WEBHOOK_SECRET });
    gateway = await startServeProcess(env);
    const token = gateway.firstToken!;
    expect(token).toMatch(/^igw_/);

    const created = await gateway.call('POST', '/api/audit/siem/destinations', token, {
      name: 'crash-sink',
      kind: 'webhook',
      url: sink.webhookUrl,
      secret: WEBHOOK_SECRET,
      enabled: false,
      batchSize: 1000,
    });
    expect(created.status).toBe(201);
    for (let i = 0; i < 5; i++) {
      const group = await gateway.call('POST', '/api/admin/groups', token, {
        name: `crash-${i}`,
        scopes: [],
      });
      expect(group.status).toBe(201);
    }

    // The sink takes the request and never answers; the gateway dies while it waits.
    sink.mode = 'hang';
    const killed = new Promise<void>((resolve) => {
      sink!.onRequest = () => {
        sink!.onRequest = undefined;
        void gateway!.stop('SIGKILL').then(() => resolve());
      };
    });
    const enabled = await gateway.call(
      'PATCH',
      `/api/audit/siem/destinations/${created.body.data.id}`,
      token,
      {
        enabled: true,
      },
    );
    expect(enabled.status).toBe(200);
    await killed;
    expect(gateway.child.signalCode).toBe('SIGKILL');
    expect(sink.webhookEvents).toHaveLength(0);

    sink.mode = 'ok';
    gateway = await startServeProcess(env);
    // Events committed before the kill may be sequenced only by the new process.
    const expected = await eventually(async () => {
      const events = (await gateway!.call('GET', '/api/audit/events?limit=100', token)).body.data;
      const inRange = events.filter(
        (event: { seq: number | null }) =>
          event.seq !== null &&
          event.seq > created.body.data.cursorSeq &&
          event.seq <= created.body.data.cursorSeq + 7,
      );
      return inRange.length === 7 ? inRange : undefined; // created, 5 groups, enabled
    }, 'the events before the kill sequenced');
    await eventually(
      () => {
        const ids = new Set(sink!.webhookEvents.map((event) => event.id));
        return expected.every((event: { id: string }) => ids.has(event.id));
      },
      'redelivery after restart',
      60_000,
    );

    const deliveries = await gateway.call(
      'GET',
      `/api/audit/siem/deliveries?destinationId=${created.body.data.id}&limit=100`,
      token,
    );
    const first = deliveries.body.data.find(
      (row: { firstEventSeq: number }) => row.firstEventSeq === created.body.data.cursorSeq + 1,
    );
    expect(first).toMatchObject({ status: 'delivered', attempts: 2 });
  });
});
