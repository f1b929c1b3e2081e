import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  notificationAttempts,
  notificationChannels,
  notificationDeliveries,
  notificationRules,
} from '../../src/db/schema/index.js';
import { type NotificationReceiver, startNotificationReceiver } from '../services/notification-receiver.js';
import type { TestGateway } from '../support/gateway.js';
import {
  createRule,
  createWebhookChannel,
  deliveriesSettle,
  healthEvent,
  runJob,
  startNotifyGateway,
} from './helpers.js';

let gateway: TestGateway;
let receiver: NotificationReceiver;
beforeAll(async () => {
  gateway = await startNotifyGateway();
  receiver = await startNotificationReceiver();
});
afterAll(async () => {
  await gateway?.close();
  await receiver?.stop();
});

const sentFor = (ruleId: string) => receiver.accepted.filter((request) => request.json?.rule?.id === ruleId);

describe('the delivery worker', () => {
  it('takes over a delivery whose worker’s lease ran out, and records the cut-short attempt', async () => {
    const channelId = await createWebhookChannel(gateway, receiver.webhookUrl);
    const ruleId = await createRule(gateway, 'audit.chain.broken', [channelId]);
    await gateway.deps.db.transaction(async (tx) => {
      await gateway.deps.notifications.emit(tx, {
        kind: 'audit.chain.broken',
        resource: { type: 'audit_chain', id: 'lease-test', name: 'audit trail' },
        state: 'broken',
      });
      // As a worker that died mid-send leaves it: claimed, attempt pending, lease over.
      const [delivery] = await tx
        .update(notificationDeliveries)
        .set({
          status: 'delivering',
          attempts: 1,
          claimToken: '11111111-1111-4111-8111-111111111111',
          leaseExpiresAt: sql`now() - interval '1 second'`,
        })
        .where(eq(notificationDeliveries.ruleId, ruleId))
        .returning();
      await tx
        .insert(notificationAttempts)
        .values({ deliveryId: delivery!.id, attempt: 1, outcome: 'pending' });
    });
    const [delivered] = await deliveriesSettle(gateway, `ruleId=${ruleId}`, 'delivered');
    expect(sentFor(ruleId)).toHaveLength(1);
    const detail = await gateway.call('GET', `/api/notifications/deliveries/${delivered!.id}`);
    expect(detail.body.data.attemptLog.map((attempt: { outcome: string }) => attempt.outcome)).toEqual([
      'interrupted',
      'succeeded',
    ]);
  });

  it('leaves the deliveries of a disabled channel queued and sends them once it is enabled again', async () => {
    const channelId = await createWebhookChannel(gateway, receiver.webhookUrl);
    const ruleId = await createRule(gateway, 'containerhost.health_check.changed', [channelId]);
    // Queued, and the channel disabled, in one commit: the worker never sees it enabled.
    await gateway.deps.db.transaction(async (tx) => {
      await gateway.deps.notifications.emit(
        tx,
        healthEvent('offline', 'e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a01'),
      );
      await tx
        .update(notificationChannels)
        .set({ enabled: false })
        .where(eq(notificationChannels.id, channelId));
    });
    await runJob(gateway, 'notifications.deliver');
    const waiting = await gateway.call('GET', `/api/notifications/deliveries?ruleId=${ruleId}`);
    expect(waiting.body.data.map((delivery: { status: string }) => delivery.status)).toEqual(['queued']);
    expect(sentFor(ruleId)).toHaveLength(0);

    await gateway.call('PATCH', `/api/notifications/channels/${channelId}`, { body: { enabled: true } });
    await deliveriesSettle(gateway, `ruleId=${ruleId}`, 'delivered');
    expect(sentFor(ruleId)).toHaveLength(1);
  });

  it('still sends what a rule queued before the rule was deleted', async () => {
    const channelId = await createWebhookChannel(gateway, receiver.webhookUrl);
    const ruleId = await createRule(gateway, 'containerhost.health_check.changed', [channelId]);
    await gateway.deps.db.transaction(async (tx) => {
      await gateway.deps.notifications.emit(
        tx,
        healthEvent('offline', 'e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a02'),
      );
      await tx.delete(notificationRules).where(eq(notificationRules.id, ruleId));
    });
    const [delivered] = await deliveriesSettle(gateway, `channelId=${channelId}`, 'delivered');
    expect(delivered).toMatchObject({ ruleId: null, summary: 'Health check of web is offline' });
  });
});
