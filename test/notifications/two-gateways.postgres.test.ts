import crypto from 'node:crypto';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { App } from '../../src/core/app.js';
import { openDatabase } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import {
  notificationChannels,
  notificationRuleChannels,
  notificationRules,
} from '../../src/db/schema/index.js';
import { buildServer } from '../../src/server.js';
import { type NotificationReceiver, startNotificationReceiver } from '../services/notification-receiver.js';
import { createDatabase } from '../services/postgres.js';
import { eventually } from '../support/eventually.js';
import { testConfig } from '../support/gateway.js';

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
    const url = await createDatabase(inject('postgresUrl'));
    const masterKey = crypto.randomBytes(32);
    const migrating = await openDatabase({ url, poolSize: 1 });
    await migrate(migrating.db);
    await migrating.close();
    for (let i = 0; i < 2; i++) {
      const database = await openDatabase({ url, poolSize: 5 });
      const base = testConfig();
      const app = await buildServer({
        config: { ...base, notify: { ...base.notify, pollIntervalMs: 60_000, concurrency: 3 } },
        database,
        masterKey,
        logger: false,
      });
      app.addHook('onClose', async () => database.close());
      await app.ready();
      apps.push(app);
    }
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
