import { afterAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/core/app.js';
import {
  notificationChannels,
  notificationRuleChannels,
  notificationRules,
} from '../../src/db/schema/index.js';
import { type NotificationReceiver, startNotificationReceiver } from '../services/notification-receiver.js';
import { eventually } from '../support/eventually.js';
import { testConfig } from '../support/gateway.js';
import { startGatewaysOnOneDatabase } from '../support/gateways-on-postgres.js';

const EVENTS = 120;

describe('two gateways on one PostgreSQL', () => {
  const apps: App[] = [];
  let receiver: NotificationReceiver | undefined;
  afterAll(async () => {
    for (const app of apps) await app.close();
    await receiver?.stop();
  });

  it('send every queued notification exactly once between their delivery workers', {
    timeout: 120_000,
  }, async () => {
    const base = testConfig();
    apps.push(
      ...(await startGatewaysOnOneDatabase(2, {
        poolSize: 5,
        config: { ...base, notify: { ...base.notify, pollIntervalMs: 60_000, concurrency: 3 } },
      })),
    );
    receiver = await startNotificationReceiver();
    const [a, b] = apps as [App, App];
    const [channel] = await a.deps.db
      .insert(notificationChannels)
      .values({ name: 'shared', kind: 'webhook', settings: { url: receiver.webhookUrl, headerNames: [] } })
      .returning();
    const [rule] = await a.deps.db
      .insert(notificationRules)
      .values({ name: 'every failed SIEM delivery', event: 'siem.delivery.failed' })
      .returning();
    await a.deps.db.insert(notificationRuleChannels).values({ ruleId: rule!.id, channelId: channel!.id });

    await a.deps.db.transaction(async (tx) => {
      for (let i = 0; i < EVENTS; i++) {
        await a.deps.notifications.emit(tx, {
          kind: 'siem.delivery.failed',
          resource: { type: 'siem_delivery', id: `delivery-${i}`, name: 'splunk' },
          key: `delivery-${i}`,
        });
      }
    });
    await eventually(
      async () => {
        await Promise.all(apps.map((app) => app.deps.jobs.runNow('notifications.deliver')));
        return receiver!.accepted.length >= EVENTS;
      },
      'every notification sent',
      90_000,
    );
    await Promise.all([a, b].map((app) => app.deps.jobs.runNow('notifications.deliver')));
    const deliveryIds = receiver.accepted.map((request) => request.json.deliveryId);
    expect(deliveryIds).toHaveLength(EVENTS);
    expect(new Set(deliveryIds).size).toBe(EVENTS);
  });
});
