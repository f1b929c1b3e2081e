import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createRule,
  createWebhookChannel,
  deliveriesSettle,
  startNotifyGateway,
} from '../notifications/helpers.js';
import { type NotificationReceiver, startNotificationReceiver } from '../services/notification-receiver.js';
import { type SiemSink, startSiemSink } from '../services/siem-sink.js';
import { eventually } from '../support/eventually.js';
import type { TestGateway } from '../support/gateway.js';
import { createWebhook, fastSiem, makeEvents, WEBHOOK_SECRET } from './helpers.js';

// The SIEM exporter reports to the notification outbox: a destination's circuit opening (and closing
// again) and a delivery that used up its attempts.
const DELIVERIES = '/api/audit/siem/deliveries';

let gateway: TestGateway;
let receiver: NotificationReceiver;
let channelId: string;
const sinks: SiemSink[] = [];
const failingSink = async () => {
  const sink = await startSiemSink({ secret: WEBHOOK_SECRET });
  sink.mode = 'fail';
  sinks.push(sink);
  return sink;
};

beforeAll(async () => {
  gateway = await startNotifyGateway({}, fastSiem({ circuitThreshold: 2, retryBaseMs: 20, retryMaxMs: 50 }));
  receiver = await startNotificationReceiver();
  channelId = await createWebhookChannel(gateway, receiver.webhookUrl);
});
afterAll(async () => {
  await gateway?.close();
  await receiver?.stop();
  for (const sink of sinks) await sink.stop();
});

const notified = (ruleId: string) => receiver.accepted.filter((request) => request.json?.rule?.id === ruleId);
const deliveriesOf = async (destinationId: string) =>
  (await gateway.call('GET', DELIVERIES, { query: { destinationId, limit: 100 } })).body.data as {
    id: string;
    status: string;
  }[];

describe('siem.destination.circuit_opened', () => {
  it('notifies once when the circuit opens and once when it closes again', async () => {
    const sink = await failingSink();
    const destination = await createWebhook(gateway, sink.webhookUrl, { batchSize: 1, maxAttempts: 100 });
    const ruleId = await createRule(gateway, 'siem.destination.circuit_opened', [channelId], {
      filters: { destinationId: destination.id },
    });
    await makeEvents(gateway, 2, 'circuit');
    // The circuit opens, and stays open through further failed probes: one notification.
    await eventually(async () => {
      const rows = await deliveriesOf(destination.id);
      return rows.some((row) => row.status === 'retrying') && sink.requests.length >= 4;
    }, 'failures past the threshold');
    await deliveriesSettle(gateway, `ruleId=${ruleId}`, 'delivered', 1);
    expect(notified(ruleId)).toHaveLength(1);
    expect(notified(ruleId)[0]!.json).toMatchObject({
      kind: 'siem.destination.circuit_opened',
      state: 'open',
      recovered: false,
      resource: { type: 'siem_destination', id: destination.id, name: destination.name },
      labels: { destinationId: destination.id },
    });

    sink.mode = 'ok';
    await eventually(
      async () => (await deliveriesOf(destination.id)).every((row) => row.status === 'delivered'),
      'all delivered after recovery',
    );
    await deliveriesSettle(gateway, `ruleId=${ruleId}`, 'delivered', 2);
    expect(notified(ruleId)).toHaveLength(2);
    expect(notified(ruleId)[1]!.json).toMatchObject({
      state: 'closed',
      previousState: 'open',
      recovered: true,
    });
  });
});

describe('siem.delivery.failed', () => {
  it('notifies once per delivery that used up its attempts, and again when a requeued one fails again', async () => {
    const sink = await failingSink();
    const destination = await createWebhook(gateway, sink.webhookUrl, { batchSize: 1, maxAttempts: 2 });
    const ruleId = await createRule(gateway, 'siem.delivery.failed', [channelId], {
      filters: { destinationId: destination.id },
    });
    await makeEvents(gateway, 1, 'exhausted');
    const failed = await eventually(async () => {
      const rows = await deliveriesOf(destination.id);
      return rows.length > 0 && rows.every((row) => row.status === 'failed') && rows;
    }, 'deliveries failed');
    await deliveriesSettle(gateway, `ruleId=${ruleId}`, 'delivered', failed.length);
    expect(
      notified(ruleId)
        .map((request) => request.json.resource.id)
        .sort(),
    ).toEqual(failed.map((row) => row.id).sort());
    expect(notified(ruleId)[0]!.json).toMatchObject({
      kind: 'siem.delivery.failed',
      resource: { type: 'siem_delivery', name: destination.name },
      labels: { destinationId: destination.id },
      details: { attempts: 2 },
    });

    const requeued = await gateway.call('POST', `${DELIVERIES}/${failed[0]!.id}/requeue`);
    expect(requeued.status).toBe(200);
    await eventually(async () => {
      const rows = await deliveriesOf(destination.id);
      return rows.find((row) => row.id === failed[0]!.id)?.status === 'failed';
    }, 'the requeued delivery failed again');
    // The requeue is audited, so the destination has one more (failing) delivery by now too.
    const all = await eventually(async () => {
      const rows = await deliveriesOf(destination.id);
      return rows.length > failed.length && rows.every((row) => row.status === 'failed') && rows;
    }, 'the new delivery failed too');
    await deliveriesSettle(gateway, `ruleId=${ruleId}`, 'delivered', all.length + 1);
    expect(notified(ruleId).filter((request) => request.json.resource.id === failed[0]!.id)).toHaveLength(2);
  });
});
