import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotificationOutbox } from '../../src/modules/notifications/outbox.js';
import { type NotificationReceiver, startNotificationReceiver } from '../services/notification-receiver.js';
import type { TestGateway } from '../support/gateway.js';
import { createRule, createWebhookChannel, emit, healthEvent, startNotifyGateway } from './helpers.js';

const DAY = 86_400_000;
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

/** The outbox's reminders, which the sweep asks for on its schedule, asked for here at chosen times. */
const reminders = () => new NotificationOutbox({ maxAttempts: gateway.deps.config.notify.maxAttempts });

let counter = 0;
/** A fresh resource id per test, so conditions of one test never meet another's. */
const freshId = () => `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`;

async function payloadsOf(ruleId: string) {
  const list = await gateway.call('GET', `/api/notifications/deliveries?ruleId=${ruleId}&limit=100`);
  const details = await Promise.all(
    list.body.data.map((row: { id: string }) =>
      gateway.call('GET', `/api/notifications/deliveries/${row.id}`),
    ),
  );
  return details.map((detail) => detail.body.data.payload).reverse();
}

describe('emit, for a state that changes (health check)', () => {
  let channelId: string;
  let ruleId: string;
  beforeAll(async () => {
    channelId = await createWebhookChannel(gateway, receiver.webhookUrl);
    ruleId = await createRule(gateway, 'containerhost.health_check.changed', [channelId]);
  });

  it('notifies nothing when the first state seen is a normal one', async () => {
    expect(await emit(gateway, healthEvent('online', freshId()))).toBe(0);
  });

  it('notifies once per change, not for every observation of the same state', async () => {
    const id = freshId();
    expect(await emit(gateway, healthEvent('online', id))).toBe(0);
    expect(await emit(gateway, healthEvent('offline', id))).toBe(1);
    expect(await emit(gateway, healthEvent('offline', id))).toBe(0);
    expect(await emit(gateway, healthEvent('offline', id))).toBe(0);
  });

  it('notifies a change from one bad state to another and the recovery, naming the previous state', async () => {
    const id = freshId();
    await emit(gateway, healthEvent('degraded', id));
    await emit(gateway, healthEvent('offline', id));
    await emit(gateway, healthEvent('online', id));
    const mine = (await payloadsOf(ruleId)).filter((payload) => payload.resource.id === id);
    expect(mine.map(({ state, previousState, recovered }) => ({ state, previousState, recovered }))).toEqual([
      { state: 'degraded', previousState: null, recovered: false },
      { state: 'offline', previousState: 'degraded', recovered: false },
      { state: 'online', previousState: 'offline', recovered: true },
    ]);
  });

  it('writes nothing when the producer’s transaction rolls back', async () => {
    const id = freshId();
    await expect(
      gateway.deps.db.transaction(async (tx) => {
        await gateway.deps.notifications.emit(tx, healthEvent('offline', id));
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    const payloads = await payloadsOf(ruleId);
    expect(payloads.filter((payload) => payload.resource.id === id)).toEqual([]);
    // Nor was the state recorded: the next observation is still a change.
    expect(await emit(gateway, healthEvent('offline', id))).toBe(1);
  });

  it('lists a bad state as an open alert until it recovers', async () => {
    const id = freshId();
    await emit(gateway, healthEvent('offline', id));
    const open = await gateway.call('GET', '/api/notifications/alerts?limit=100');
    expect(
      open.body.data.find((alert: { resource: { id: string } }) => alert.resource.id === id),
    ).toMatchObject({
      event: 'containerhost.health_check.changed',
      state: 'offline',
      summary: 'Health check of web is offline',
    });
    await emit(gateway, healthEvent('online', id));
    const after = await gateway.call('GET', '/api/notifications/alerts?limit=100');
    expect(after.body.data.some((alert: { resource: { id: string } }) => alert.resource.id === id)).toBe(
      false,
    );
  });
});

describe('reminders while a bad state lasts', () => {
  it('are queued once per interval of the rule’s renotifyMinutes since the change', async () => {
    const channelId = await createWebhookChannel(gateway, receiver.webhookUrl);
    const id = freshId();
    const ruleId = await createRule(gateway, 'containerhost.health_check.changed', [channelId], {
      renotifyMinutes: 30,
      filters: { containerName: `reminded-${id}` },
    });
    const began = Date.now() - 65 * 60_000;
    await emit(gateway, {
      ...healthEvent('offline', id),
      labels: { containerName: `reminded-${id}` },
      occurredAt: new Date(began),
    });
    const remind = (at: number) => gateway.deps.db.transaction((tx) => reminders().remind(tx, new Date(at)));
    expect(await remind(began + 20 * 60_000)).toBe(0);
    expect(await remind(began + 65 * 60_000)).toBe(1);
    expect(await remind(began + 70 * 60_000)).toBe(0);
    expect(await remind(began + 95 * 60_000)).toBe(1);
    const payloads = await payloadsOf(ruleId);
    expect(payloads.map((payload) => payload.reminder)).toEqual([0, 2, 3]);
  });

  it('stop once the condition recovered', async () => {
    const channelId = await createWebhookChannel(gateway, receiver.webhookUrl);
    const id = freshId();
    const ruleId = await createRule(gateway, 'containerhost.health_check.changed', [channelId], {
      renotifyMinutes: 1,
      filters: { containerName: `recovered-${id}` },
    });
    const labels = { containerName: `recovered-${id}` };
    await emit(gateway, {
      ...healthEvent('offline', id),
      labels,
      occurredAt: new Date(Date.now() - 10 * 60_000),
    });
    await emit(gateway, { ...healthEvent('online', id), labels });
    await gateway.deps.db.transaction((tx) => reminders().remind(tx));
    const payloads = await payloadsOf(ruleId);
    expect(payloads.map((payload) => payload.state)).toEqual(['offline', 'online']);
  });
});

describe('rules and channels that match an event', () => {
  it('queue one delivery per channel even when two rules send the same event there', async () => {
    const channelId = await createWebhookChannel(gateway, receiver.webhookUrl);
    const other = await createWebhookChannel(gateway, receiver.webhookUrl);
    await createRule(gateway, 'audit.chain.broken', [channelId]);
    await createRule(gateway, 'audit.chain.broken', [channelId, other]);
    expect(
      await emit(gateway, {
        kind: 'audit.chain.broken',
        resource: { type: 'audit_chain', id: freshId(), name: 'audit trail' },
        state: 'broken',
      }),
    ).toBe(2);
  });

  it('skip rules whose filters do not match the event’s labels', async () => {
    const channelId = await createWebhookChannel(gateway, receiver.webhookUrl);
    const nodeId = '7e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b';
    await createRule(gateway, 'containerhost.health_check.changed', [channelId], {
      filters: { nodeId, containerName: 'db' },
    });
    const event = healthEvent('offline', freshId());
    const before = await gateway.call('GET', `/api/notifications/deliveries?channelId=${channelId}`);
    await emit(gateway, event);
    await emit(gateway, { ...healthEvent('offline', freshId()), labels: { nodeId, containerName: 'db' } });
    const after = await gateway.call('GET', `/api/notifications/deliveries?channelId=${channelId}`);
    expect(after.body.pagination.total - before.body.pagination.total).toBe(1);
  });

  it('skip disabled rules and disabled channels', async () => {
    const channelId = await createWebhookChannel(gateway, receiver.webhookUrl, { enabled: false });
    const live = await createWebhookChannel(gateway, receiver.webhookUrl);
    await createRule(gateway, 'auth.login.throttled', [channelId]);
    await createRule(gateway, 'auth.login.throttled', [live], { enabled: false });
    expect(
      await emit(gateway, {
        kind: 'auth.login.throttled',
        resource: { type: 'login', id: 'someone@example.test', name: 'someone@example.test' },
      }),
    ).toBe(0);
  });
});

describe('emit, for a one-off occurrence', () => {
  it('queues events with the same key once, and events without a key each time', async () => {
    const channelId = await createWebhookChannel(gateway, receiver.webhookUrl);
    await createRule(gateway, 'siem.delivery.failed', [channelId]);
    const event = {
      kind: 'siem.delivery.failed',
      resource: { type: 'siem_delivery', id: freshId(), name: 'splunk' },
      labels: { destinationId: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d' },
    } as const;
    expect(await emit(gateway, { ...event, key: event.resource.id })).toBe(1);
    expect(await emit(gateway, { ...event, key: event.resource.id })).toBe(0);
    expect(await emit(gateway, event)).toBe(1);
    expect(await emit(gateway, event)).toBe(1);
  });
});

describe('emit, for a deadline (expiry)', () => {
  const expiring = (deadline: Date, now: Date, id: string) => ({
    kind: 'certificates.expiring' as const,
    resource: { type: 'ssl_certificate', id, name: 'app.example.test' },
    labels: { certificateId: id },
    deadline,
    occurredAt: now,
  });

  it('notifies once for the smallest threshold crossed, then again at the next one, then when expired', async () => {
    const channelId = await createWebhookChannel(gateway, receiver.webhookUrl);
    const ruleId = await createRule(gateway, 'certificates.expiring', [channelId]);
    const id = freshId();
    const now = Date.now();
    const deadline = new Date(now + 3 * DAY);
    expect(await emit(gateway, expiring(deadline, new Date(now - 40 * DAY), id))).toBe(0);
    expect(await emit(gateway, expiring(deadline, new Date(now), id))).toBe(1);
    expect(await emit(gateway, expiring(deadline, new Date(now + DAY), id))).toBe(0);
    expect(await emit(gateway, expiring(deadline, new Date(now + 2.5 * DAY), id))).toBe(1);
    expect(await emit(gateway, expiring(deadline, new Date(now + 4 * DAY), id))).toBe(1);
    expect(await emit(gateway, expiring(deadline, new Date(now + 5 * DAY), id))).toBe(0);
    const payloads = await payloadsOf(ruleId);
    expect(payloads.map(({ threshold, daysLeft }) => ({ threshold, daysLeft }))).toEqual([
      { threshold: 7, daysLeft: 3 },
      { threshold: 1, daysLeft: 0 },
      { threshold: null, daysLeft: -1 },
    ]);
  });

  it('follows the rule’s own thresholds', async () => {
    const channelId = await createWebhookChannel(gateway, receiver.webhookUrl);
    await createRule(gateway, 'certificates.expiring', [channelId], { withinDays: [60] });
    const now = Date.now();
    expect(await emit(gateway, expiring(new Date(now + 45 * DAY), new Date(now), freshId()))).toBe(1);
  });

  it('starts over for a renewed certificate (a new deadline)', async () => {
    const channelId = await createWebhookChannel(gateway, receiver.webhookUrl);
    const id = freshId();
    const ruleId = await createRule(gateway, 'certificates.expiring', [channelId], {
      withinDays: [5],
      filters: { certificateId: id },
    });
    const now = Date.now();
    await emit(gateway, expiring(new Date(now + 2 * DAY), new Date(now), id));
    await emit(gateway, expiring(new Date(now + 2 * DAY), new Date(now + DAY), id));
    await emit(gateway, expiring(new Date(now + 4 * DAY), new Date(now + DAY), id));
    const payloads = await payloadsOf(ruleId);
    expect(payloads.map((payload) => payload.deadline)).toEqual([
      new Date(now + 2 * DAY).toISOString(),
      new Date(now + 4 * DAY).toISOString(),
    ]);
  });
});
