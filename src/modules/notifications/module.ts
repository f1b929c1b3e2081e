import type { GatewayModule } from '../../core/app.js';
import { queueCollector } from '../../core/metrics/queue-metrics.js';
import { notificationDeliveries } from '../../db/schema/index.js';
import { channelRoutes } from './channel-routes.js';
import { ChannelSender } from './channel-sender.js';
import { ChannelService } from './channels.js';
import { DeliveryService } from './deliveries.js';
import { deliveryRoutes } from './delivery-routes.js';
import { NotificationEventService } from './events.js';
import { NotificationOutbox } from './outbox.js';
import { ruleRoutes } from './rule-routes.js';
import { RuleService } from './rules.js';
import { NotificationSweep } from './sweep.js';
import { DeliveryWorker } from './worker.js';

/** Notifications: builds the services once, registers the delivery worker and the sweeps, and the routes. */
const notificationsModule: GatewayModule = async (app) => {
  const { deps } = app;
  const outbox = new NotificationOutbox({ maxAttempts: deps.config.notify.maxAttempts });
  // Every module reports its events through deps.notifications into this outbox.
  deps.notifications.serve(outbox);
  const sender = new ChannelSender(deps);
  const worker = new DeliveryWorker({ ...deps, outbox, sender });
  worker.register();
  deps.metrics.collect(
    queueCollector(deps.db, {
      name: 'notification',
      what: 'Notification',
      table: notificationDeliveries,
      open: ['queued', 'delivering', 'retrying', 'failed'],
    }),
  );
  new NotificationSweep({ ...deps, outbox }).register();
  await app.register(channelRoutes, {
    prefix: '/api/notifications/channels',
    channels: new ChannelService({ ...deps, sender }),
  });
  await app.register(ruleRoutes, { prefix: '/api/notifications/rules', rules: new RuleService(deps) });
  await app.register(deliveryRoutes, {
    prefix: '/api/notifications',
    deliveries: new DeliveryService({ ...deps, wakeWorker: () => worker.wake() }),
    events: new NotificationEventService(deps),
  });
};

export default notificationsModule;
