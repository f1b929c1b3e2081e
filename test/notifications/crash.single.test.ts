import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NotificationReceiver, startNotificationReceiver } from '../services/notification-receiver.js';
import { makeTestPki, openssl } from '../services/openssl-pki.js';
import { type ServeProcess, startServeProcess } from '../support/cli.js';
import { eventually } from '../support/eventually.js';
import { certificateValidFor, WEBHOOK_SECRET } from './helpers.js';

interface Delivery {
  id: string;
  status: string;
  attempts: number;
  resource: { id: string };
}

describe.skipIf(!openssl.path)(
  'a gateway killed with SIGKILL while one notification was being sent and another was committed but not picked up yet',
  () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-notify-crash-'));
    const env = {
      INFRAGATE_DATA_DIR: dataDir,
      DATABASE_URL: '',
      INFRAGATE_NOTIFY_SWEEP_SECONDS: '1',
      INFRAGATE_NOTIFY_POLL_INTERVAL_MS: '50',
      INFRAGATE_NOTIFY_RETRY_BASE_MS: '50',
      // A send that hangs holds the worker (a job never overlaps itself) until the kill.
      INFRAGATE_NOTIFY_TIMEOUT_MS: '100000',
      INFRAGATE_NOTIFY_LEASE_SECONDS: '120',
      INFRAGATE_PUBLIC_URL: 'https://console.example.test',
    };
    let receiver: NotificationReceiver;
    let gateway: ServeProcess | undefined;
    let token: string;
    let ruleId: string;
    let onItsWay: string;
    let waiting: string;
    const call = (method: string, url: string, body?: unknown) => gateway!.call(method, url, token, body);
    const upload = async (name: string, material: ReturnType<typeof certificateValidFor>) => {
      const uploaded = await call('POST', '/api/ssl-certificates/upload', {
        name,
        certificatePem: material.certificatePem,
        privateKeyPem: material.privateKeyPem,
      });
      expect(uploaded.status).toBe(201);
      return uploaded.body.data.id as string;
    };
    const deliveryFor = async (certificateId: string): Promise<Delivery | undefined> => {
      const list = await call('GET', `/api/notifications/deliveries?ruleId=${ruleId}&limit=100`);
      const mine = (list.body.data as Delivery[]).filter(
        (delivery) => delivery.resource.id === certificateId,
      );
      expect(mine.length).toBeLessThanOrEqual(1);
      return mine[0];
    };
    const requestsFor = (certificateId: string) =>
      receiver.requests.filter((request) => request.json?.resource?.id === certificateId);
    const attemptOutcomes = async (delivery: Delivery) =>
      (await call('GET', `/api/notifications/deliveries/${delivery.id}`)).body.data.attemptLog.map(
        (attempt: { outcome: string }) => attempt.outcome,
      );

    beforeAll(async () => {
      receiver = await startNotificationReceiver({ secret: WEBHOOK_SECRET });
      gateway = await startServeProcess(env);
      token = gateway.firstToken!;
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
      ruleId = rule.body.data.id;

      // The receiver takes the first notification and never answers: the gateway dies after it sent
      // it, before it learnt the outcome.
      receiver.mode = 'hang';
      onItsWay = await upload('on-its-way', certificateValidFor(3, 'on-its-way.example.test'));
      await eventually(() => requestsFor(onItsWay).length === 1, 'the first send');
      // The second upload commits its notification while the worker is stuck in the first send.
      waiting = await upload('waiting', certificateValidFor(3, 'waiting.example.test'));
      expect(await deliveryFor(waiting)).toMatchObject({ status: 'queued', attempts: 0 });

      await gateway.stop('SIGKILL');
      expect(gateway.child.signalCode).toBe('SIGKILL');
      receiver.mode = 'ok';
      gateway = await startServeProcess(env);
      await eventually(
        async () =>
          (await deliveryFor(onItsWay))?.status === 'delivered' &&
          (await deliveryFor(waiting))?.status === 'delivered',
        'both delivered after the restart',
        60_000,
      );
    }, 300_000);
    afterAll(async () => {
      await gateway?.stop();
      await receiver?.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('sends the notification that was on its way again, with the same X-Infragate-Delivery id', async () => {
      const delivery = (await deliveryFor(onItsWay))!;
      const [cutShort, again] = requestsFor(onItsWay);
      expect(requestsFor(onItsWay)).toHaveLength(2);
      expect(cutShort!.headers['x-infragate-delivery']).toBe(delivery.id);
      expect(again!.headers['x-infragate-delivery']).toBe(delivery.id);
      expect(again!.json.deliveryId).toBe(delivery.id);
      expect(delivery.attempts).toBe(2);
      expect(await attemptOutcomes(delivery)).toEqual(['interrupted', 'succeeded']);
    });

    it('delivers the notification that was committed but not picked up exactly once', async () => {
      const delivery = (await deliveryFor(waiting))!;
      expect(requestsFor(waiting)).toHaveLength(1);
      expect(receiver.accepted.filter((request) => request.json?.resource?.id === waiting)).toHaveLength(1);
      expect(delivery.attempts).toBe(1);
      expect(await attemptOutcomes(delivery)).toEqual(['succeeded']);
    });

    it('queues nothing new for either in the sweeps after the restart', { timeout: 120_000 }, async () => {
      // An expired certificate's alert that only a sweep closes once the certificate is gone: when it
      // is closed, a sweep has run (and reported every certificate again).
      const pki = makeTestPki();
      try {
        const expired = await call('POST', '/api/ssl-certificates/upload', {
          name: 'long-gone',
          certificatePem: pki.expiredLeaf.certificatePem,
          privateKeyPem: pki.expiredLeaf.keyPem,
          allowExpired: true,
        });
        expect(expired.status).toBe(201);
        expect((await call('DELETE', `/api/ssl-certificates/${expired.body.data.id}`)).status).toBe(200);
        await eventually(
          async () =>
            !(await call('GET', '/api/notifications/alerts?limit=100')).body.data.some(
              (alert: { resource: { id: string } }) => alert.resource.id === expired.body.data.id,
            ),
          'a sweep',
          60_000,
        );
      } finally {
        pki.cleanup();
      }
      expect(requestsFor(onItsWay)).toHaveLength(2);
      expect(requestsFor(waiting)).toHaveLength(1);
      expect(await deliveryFor(onItsWay)).toMatchObject({ status: 'delivered' });
      expect(await deliveryFor(waiting)).toMatchObject({ status: 'delivered' });
    });
  },
);
