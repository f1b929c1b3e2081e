import crypto from 'node:crypto';
import { consolePages } from '../../core/console-pages.js';
import type { Deps } from '../../core/deps.js';
import type { ChannelSecrets, NotificationPayload, notificationChannels } from '../../db/schema/index.js';
import { sendEmail } from './adapters/email.js';
import type { Outbound } from './adapters/outbound.js';
import { sendSlack } from './adapters/slack.js';
import { sendWebhook } from './adapters/webhook.js';
import { SECRETS_CONTEXT } from './channel-settings.js';
import { compose, type Message, renderMessage } from './messages.js';

type ChannelRow = typeof notificationChannels.$inferSelect;

/** Sends notifications to channels: opens the channel's secrets, renders the message, picks the adapter. */
export class ChannelSender {
  constructor(private readonly deps: Pick<Deps, 'egress' | 'secrets' | 'config'>) {}

  openSecrets(row: Pick<ChannelRow, 'secretsSealed'>): ChannelSecrets {
    return row.secretsSealed ? JSON.parse(this.deps.secrets.open(row.secretsSealed, SECRETS_CONTEXT)) : {};
  }

  sealSecrets(secrets: ChannelSecrets): string | null {
    return Object.keys(secrets).length > 0
      ? this.deps.secrets.seal(JSON.stringify(secrets), SECRETS_CONTEXT)
      : null;
  }

  /** One delivery of an event. Resolves when the channel took it; throws a DeliveryError otherwise. */
  deliver(channel: ChannelRow, deliveryId: string, payload: NotificationPayload) {
    const message = renderMessage(payload, this.deps.config.publicUrl);
    return this.send(channel, {
      deliveryId,
      kind: payload.kind,
      message,
      body: { deliveryId, ...payload, title: message.title, url: message.link },
      timeoutMs: this.deps.config.notify.sendTimeoutMs,
    });
  }

  /** A test message that names the channel; nothing is queued or retried. */
  sendTest(channel: ChannelRow) {
    const deliveryId = crypto.randomUUID();
    const link = `${this.deps.config.publicUrl}${consolePages.notifications()}`;
    const message: Message = compose(
      `Test notification for channel ${channel.name}`,
      [
        ['Event', 'notifications.test: a test send from the gateway; no action needed'],
        ['When', new Date().toISOString()],
      ],
      link,
    );
    return this.send(channel, {
      deliveryId,
      kind: 'notifications.test',
      message,
      body: {
        deliveryId,
        kind: 'notifications.test',
        test: true,
        title: message.title,
        url: link,
        occurredAt: new Date().toISOString(),
      },
      timeoutMs: this.deps.config.notify.sendTimeoutMs,
    });
  }

  private send(channel: ChannelRow, outbound: Outbound): Promise<{ httpStatus: number | null }> {
    const secrets = this.openSecrets(channel);
    const { settings } = channel;
    switch (channel.kind) {
      case 'webhook':
        return sendWebhook(
          this.deps.egress,
          { url: settings.url!, secret: secrets.secret, headers: secrets.headers ?? {} },
          outbound,
        );
      case 'slack':
        return sendSlack(this.deps.egress, secrets.url!, outbound);
      case 'email':
        return sendEmail(
          this.deps.egress,
          {
            smtp: settings.smtp!,
            password: secrets.password,
            from: settings.from!,
            to: settings.to!,
            messageIdDomain: new URL(this.deps.config.publicUrl).hostname,
          },
          outbound,
        );
    }
  }
}
