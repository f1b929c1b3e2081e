import type { DbOrTx } from '../db/client.js';
import type { NotificationEventKind, NotificationLabels } from '../db/schema/index.js';
import { ServedPort } from './served-port.js';

/** Something that happened, as a producer reports it (see NotificationMode for what each kind needs). */
export interface NotificationEvent {
  kind: NotificationEventKind;
  /** What it happened to; `type` and `id` pick the console page, `name` is what people read. */
  resource: { type: string; id: string; name: string };
  /** condition events: the state observed now (e.g. `offline`). */
  state?: string;
  /** deadline events: when the resource expires. */
  deadline?: Date;
  /** occurrence events: events with the same key are one event (e.g. a delivery id); default: none is. */
  key?: string;
  /** Values rules filter on (`nodeId`, `certificateId`, …). */
  labels?: NotificationLabels;
  /** Default: now. */
  occurredAt?: Date;
  /** Shown in the message and sent in webhook payloads; never a secret. */
  details?: Record<string, unknown>;
  /**
   * A condition that one rule watches for itself (a log query's threshold): only that rule notifies
   * it and its reminders, and each observation keeps its details for them (the latest count).
   */
  rule?: { id: string; name: string };
}

/** What producers may do with notifications: report an event, in the transaction of its cause. */
export interface Notifications {
  /** Queues the deliveries the event calls for; answers how many it queued. */
  emit(tx: DbOrTx, event: NotificationEvent): Promise<number>;
}

/**
 * The port in `Deps` (`deps.notifications`), served by the notifications module, whose outbox
 * (modules/notifications/outbox.ts) matches the rules and queues the deliveries in the caller's transaction.
 */
export class NotificationPort extends ServedPort<Notifications> implements Notifications {
  constructor() {
    super('notifications');
  }

  async emit(tx: DbOrTx, event: NotificationEvent): Promise<number> {
    return (await this.served()).emit(tx, event);
  }
}
