import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  notificationAttempts,
  notificationChannels,
  notificationDeliveries,
  notificationRules,
} from '../../src/db/schema/index.js';
import { type NotificationReceiver, startNotificationReceiver } from '../services/notification-receiver.js';
import { openTestDatabase, type TestGateway } from '../support/gateway.js';
import {
  createRule,
  createWebhookChannel,
  deliveriesSettle,
  emit,
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

describe('a delivery the egress guard refuses when it is sent', () => {
  it('fails with the rule that refused it and reaches nothing, as when a narrower INFRAGATE_EGRESS came in force after the channel was saved', {
    timeout: 120_000,
  }, async () => {
    const database = await openTestDatabase();
    const restartOf = { database, masterKey: crypto.randomBytes(32) };
    try {
      const before = await startNotifyGateway({ maxAttempts: 1 }, {}, { restartOf });
      const channelId = await createWebhookChannel(before, receiver.webhookUrl);
      const ruleId = await createRule(before, 'containerhost.health_check.changed', [channelId]);
      await before.close();

      const after = await startNotifyGateway({ maxAttempts: 1 }, { egress: 'public' }, { restartOf });
      try {
        await emit(after, healthEvent('offline', 'b7c8d9e0-f1a2-4b3c-8d4e-5f6a7b8c9d03'));
        const [failed] = await deliveriesSettle(after, `ruleId=${ruleId}`, 'failed');
        expect(failed).toMatchObject({
          attempts: 1,
          lastError: expect.stringMatching(
            /^egress to 127\.0\.0\.1 \(127\.0\.0\.1\) refused: loopback addresses are not allowed by INFRAGATE_EGRESS=public$/,
          ),
        });
        expect(receiver.requests.filter((request) => request.json?.rule?.id === ruleId)).toEqual([]);
      } finally {
        await after.close();
      }
    } finally {
      await database.close();
    }
  });
});
