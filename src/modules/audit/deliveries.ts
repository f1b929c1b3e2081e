import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { AuditActor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { conflict, notFound } from '../../core/errors.js';
import { isUuid } from '../../core/ids.js';
import { fetchPage } from '../../core/pagination.js';
import type { DbOrTx } from '../../db/client.js';
import { type DeliveryStatus, siemDeliveries, siemDestinations } from '../../db/schema/index.js';
import type { Delivery, DeliveryListQuery } from './schemas.js';

type DeliveryRow = typeof siemDeliveries.$inferSelect;

const SCHEDULED: DeliveryStatus[] = ['queued', 'retrying', 'paused'];

function toDelivery(row: DeliveryRow): Delivery {
  return {
    id: row.id,
    destinationId: row.destinationId,
    status: row.status,
    eventCount: row.eventCount,
    firstEventId: row.firstEventId,
    lastEventId: row.lastEventId,
    firstEventSeq: row.firstEventSeq,
    lastEventSeq: row.lastEventSeq,
    attempts: row.attempts,
    maxAttempts: row.maxAttempts,
    lastError: row.lastError,
    lastAttemptAt: row.lastAttemptAt,
    // Only a delivery that waits for its turn has a next attempt.
    nextAttemptAt: SCHEDULED.includes(row.status) ? row.nextAttemptAt : null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    deliveredAt: row.deliveredAt,
  };
}

export type DeliveryServiceDeps = Pick<Deps, 'db' | 'audit'> & {
  /** Tells the export worker there is work now. */
  wakeExporter: () => void;
};

/** Delivery records of the SIEM export: listing, inspection and requeue of failed ones. */
export class DeliveryService {
  constructor(private readonly deps: DeliveryServiceDeps) {}

  async list(filter: DeliveryListQuery) {
    const conditions: SQL[] = [];
    if (filter.destinationId) conditions.push(eq(siemDeliveries.destinationId, filter.destinationId));
    if (filter.status) conditions.push(eq(siemDeliveries.status, filter.status));
    const where = and(...conditions);
    return fetchPage(
      filter,
      ({ limit, offset }) =>
        this.deps.db
          .select()
          .from(siemDeliveries)
          .where(where)
          .orderBy(desc(siemDeliveries.createdAt), desc(siemDeliveries.firstEventSeq))
          .limit(limit)
          .offset(offset),
      this.deps.db.select({ value: count() }).from(siemDeliveries).where(where),
      toDelivery,
    );
  }

  async get(id: string, db: DbOrTx = this.deps.db): Promise<Delivery> {
    const [row] = isUuid(id) ? await db.select().from(siemDeliveries).where(eq(siemDeliveries.id, id)) : [];
    if (!row) throw notFound({ deliveryId: id });
    return toDelivery(row);
  }

  /**
   * Gives a failed delivery a fresh set of attempts. Only `failed` qualifies: anything else is either
   * still being worked on or finished. A requeued delivery of a disabled destination waits as `paused`.
   */
  async requeue(actor: AuditActor, id: string): Promise<Delivery> {
    if (!isUuid(id)) throw notFound({ deliveryId: id });
    const view = await this.deps.db.transaction(async (tx) => {
      const [row] = await tx
        .select({ status: siemDeliveries.status, enabled: siemDestinations.enabled })
        .from(siemDeliveries)
        .innerJoin(siemDestinations, eq(siemDestinations.id, siemDeliveries.destinationId))
        .where(eq(siemDeliveries.id, id))
        .for('update', { of: siemDeliveries });
      if (!row) throw notFound({ deliveryId: id });
      if (row.status !== 'failed') {
        throw conflict('DELIVERY_NOT_REQUEUEABLE', {
          status: row.status,
          explanation: `only a failed delivery can be requeued; this one is ${row.status}`,
        });
      }
      const status: DeliveryStatus = row.enabled ? 'queued' : 'paused';
      const now = new Date();
      await tx
        .update(siemDeliveries)
        .set({
          status,
          attempts: 0,
          nextAttemptAt: now,
          updatedAt: now,
          claimToken: null,
          leaseExpiresAt: null,
        })
        .where(eq(siemDeliveries.id, id));
      await this.deps.audit.record(tx, actor, {
        action: 'audit.siem_delivery.requeued',
        targetType: 'siem_delivery',
        targetId: id,
        metadata: { status },
      });
      return this.get(id, tx);
    });
    this.deps.wakeExporter();
    return view;
  }
}
