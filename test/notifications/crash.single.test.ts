import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type NotificationReceiver, startNotificationReceiver } from '../services/notification-receiver.js';
import { openssl } from '../services/openssl-pki.js';
import { type ServeProcess, startServeProcess } from '../support/cli.js';
import { eventually } from '../support/eventually.js';
import { certificateValidFor, WEBHOOK_SECRET } from './helpers.js';

describe.skipIf(!openssl.path)('a gateway killed with SIGKILL after a notification was committed', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-notify-crash-'));
  const env = {
    INFRAGATE_DATA_DIR: dataDir,
    DATABASE_URL: '',
    INFRAGATE_NOTIFY_SWEEP_SECONDS: '1',
    INFRAGATE_NOTIFY_POLL_INTERVAL_MS: '50',
    INFRAGATE_NOTIFY_RETRY_BASE_MS: '50',
    INFRAGATE_PUBLIC_URL: 'https://console.example.test',
  };
  let receiver: NotificationReceiver | undefined;
  let gateway: ServeProcess | undefined;
  afterAll(async () => {
    await gateway?.stop();
    await receiver?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('delivers it exactly once after the restart', { timeout: 120_000 }, async () => {
    receiver = await startNotificationReceiver({ secret: WEBHOOK_SECRET });
    gateway = await startServeProcess(env);
    const token = gateway.firstToken!;
    const call = (method: string, url: string, body?: unknown) => gateway!.call(method, url, token, body);

    const channel = await call('POST', '/api/notifications/channels', {
      name: 'crash hook',
      kind: 'webhook',
      url: receiver.webhookUrl,
      secret: WEBHOOK_SECRET,
    });
    expect(channel.status).toBe(201);
    const rule = await call('POST', '/api/notifications/rules', {
      name: 'certificates soon',
      event: 'certificates.expiring',
      channelIds: [channel.body.data.id],
    });
    expect(rule.status).toBe(201);

    // The receiver takes the request and never answers: the gateway dies after the delivery was
    // committed and sent, before it learnt the outcome.
    receiver.mode = 'hang';
    const killed = new Promise<void>((resolve) => {
      receiver!.onRequest = () => {
        receiver!.onRequest = undefined;
        void gateway!.stop('SIGKILL').then(() => resolve());
      };
    });
    const first = certificateValidFor(3, 'first.example.test');
    const upload = (name: string, material: ReturnType<typeof certificateValidFor>) =>
      call('POST', '/api/ssl-certificates/upload', {
        name,
        certificatePem: material.certificatePem,
        privateKeyPem: material.privateKeyPem,
      });
    const uploaded = await upload('first', first);
    expect(uploaded.status).toBe(201);
    await killed;
    expect(gateway.child.signalCode).toBe('SIGKILL');
    expect(receiver.accepted).toHaveLength(0);

    receiver.mode = 'ok';
    gateway = await startServeProcess(env);
    const forFirst = () => receiver!.accepted.filter((r) => r.json?.resource?.id === uploaded.body.data.id);
    await eventually(() => forFirst().length === 1, 'redelivery after restart', 60_000);

    // Later sweeps run (a second certificate gets its notification) and queue nothing new for the first.
    const second = await upload('second', certificateValidFor(3, 'second.example.test'));
    await eventually(
      () => receiver!.accepted.some((r) => r.json?.resource?.id === second.body.data.id),
      'a later sweep',
      60_000,
    );
    expect(forFirst()).toHaveLength(1);
    const deliveries = await call(
      'GET',
      `/api/notifications/deliveries?ruleId=${rule.body.data.id}&limit=100`,
    );
    const mine = deliveries.body.data.filter(
      (delivery: { resource: { id: string } }) => delivery.resource.id === uploaded.body.data.id,
    );
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ status: 'delivered', attempts: 2 });
    const detail = await call('GET', `/api/notifications/deliveries/${mine[0].id}`);
    expect(detail.body.data.attemptLog.map((attempt: { outcome: string }) => attempt.outcome)).toEqual([
      'interrupted',
      'succeeded',
    ]);
  });
});
