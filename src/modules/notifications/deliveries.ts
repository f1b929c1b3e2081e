import { and, asc, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { AuditActor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { conflict, notFound } from '../../core/errors.js';
import { fetchPage } from '../../core/pagination.js';
import type { DbOrTx } from '../../db/client.js';
import {
  type NotificationDeliveryStatus,
  notificationAttempts,
  notificationDeliveries,
} from '../../db/schema/index.js';
import { title } from './messages.js';
import type { Delivery, DeliveryDetail, DeliveryListQuery } from './schemas.js';

type DeliveryRow = typeof notificationDeliveries.$inferSelect;

/** Only a delivery waiting for its turn has a next attempt. */
const SCHEDULED: NotificationDeliveryStatus[] = ['queued', 'retrying'];

function toDeliveryView(row: DeliveryRow): Delivery {
  return {
    id: row.id,
    channelId: row.channelId,
    ruleId: row.ruleId,
    event: row.event,
    eventId: row.eventId,
    summary: title(row.payload),
    resource: row.payload.resource,
    status: row.status,
    attempts: row.attempts,
    maxAttempts: row.maxAttempts,
    lastError: row.lastError,
    lastAttemptAt: row.lastAttemptAt,
    nextAttemptAt: SCHEDULED.includes(row.status) ? row.nextAttemptAt : null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    deliveredAt: row.deliveredAt,
  };
}

/** The outbox as operators see it: deliveries with their attempts, and requeue of failed ones. */
export class DeliveryService {
  constructor(
    private readonly deps: Pick<Deps, 'db' | 'audit' | 'config'> & {
      /** Tells the delivery worker there is work now. */
      wakeWorker: () => void;
    },
  ) {}

  async list(query: DeliveryListQuery) {
    const conditions: SQL[] = [];
    if (query.status) conditions.push(eq(notificationDeliveries.status, query.status));
    if (query.channelId) conditions.push(eq(notificationDeliveries.channelId, query.channelId));
    if (query.ruleId) conditions.push(eq(notificationDeliveries.ruleId, query.ruleId));
    if (query.event) conditions.push(eq(notificationDeliveries.event, query.event));
    const where = and(...conditions);
    return fetchPage(
      query,
      ({ limit, offset }) =>
        this.deps.db
          .select()
          .from(notificationDeliveries)
          .where(where)
          .orderBy(desc(notificationDeliveries.createdAt), desc(notificationDeliveries.id))
          .limit(limit)
          .offset(offset),
      this.deps.db.select({ value: count() }).from(notificationDeliveries).where(where),
      toDeliveryView,
    );
  }

  async get(id: string, db: DbOrTx = this.deps.db): Promise<DeliveryDetail> {
    const [row] = await db.select().from(notificationDeliveries).where(eq(notificationDeliveries.id, id));
    if (!row) throw notFound({ deliveryId: id });
    const attempts = await db
      .select()
      .from(notificationAttempts)
      .where(eq(notificationAttempts.deliveryId, id))
      .orderBy(asc(notificationAttempts.attempt));
    return {
      ...toDeliveryView(row),
      payload: { ...row.payload },
      attemptLog: attempts.map(({ attempt, outcome, startedAt, finishedAt, httpStatus, error }) => ({
        attempt,
        outcome,
        startedAt,
        finishedAt,
        httpStatus,
        error,
      })),
    };
  }

  /**
   * Gives a failed delivery a fresh set of attempts (the count goes on, so the attempt log keeps every
   * try). Anything else is either still being worked on or done: 409.
   */
  async requeue(actor: AuditActor, id: string): Promise<DeliveryDetail> {
    const detail = await this.deps.db.transaction(async (tx) => {
      const [row] = await tx
        .select({ status: notificationDeliveries.status })
        .from(notificationDeliveries)
        .where(eq(notificationDeliveries.id, id))
        .for('update');
      if (!row) throw notFound({ deliveryId: id });
      if (row.status !== 'failed') {
        throw conflict('DELIVERY_NOT_REQUEUEABLE', {
          status: row.status,
          explanation: `only a failed delivery can be requeued; this one is ${row.status}`,
        });
      }
      await tx
        .update(notificationDeliveries)
        .set({
          status: 'queued',
          maxAttempts: sql`${notificationDeliveries.attempts} + ${this.deps.config.notify.maxAttempts}`,
          nextAttemptAt: new Date(),
          updatedAt: new Date(),
        })
        .where(eq(notificationDeliveries.id, id));
      await this.deps.audit.record(tx, actor, {
        action: 'notifications.delivery.requeued',
        targetType: 'notification_delivery',
        targetId: id,
      });
      return this.get(id, tx);
    });
    this.deps.wakeWorker();
    return detail;
  }
}
