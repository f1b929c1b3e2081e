import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { AuditActor } from '../../core/actor.js';
import type { AuditRecorder } from '../../core/audit-recorder.js';
import { conflict, notFound } from '../../core/errors.js';
import { isUuid } from '../../core/ids.js';
import { fetchPage, type PageRequest } from '../../core/pagination.js';
import type { Db, DbOrTx } from '../../db/client.js';
import { type DeliveryStatus, siemDeliveries, siemDestinations } from '../../db/schema/index.js';

export interface DeliveryFilter extends PageRequest {
  destinationId?: string | undefined;
  status?: DeliveryStatus | undefined;
}

type DeliveryRow = typeof siemDeliveries.$inferSelect;

export interface DeliveryView {
  id: string;
  destinationId: string;
  status: DeliveryStatus;
  eventCount: number;
  firstEventId: string;
  lastEventId: string;
  firstEventSeq: number;
  lastEventSeq: number;
  attempts: number;
  maxAttempts: number;
  lastError: string | null;
  lastAttemptAt: Date | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  deliveredAt: Date | null;
}

const SCHEDULED: DeliveryStatus[] = ['queued', 'retrying', 'paused'];

function toDeliveryView(row: DeliveryRow): DeliveryView {
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

/** Delivery records of the SIEM export: listing, inspection and requeue of failed ones. */
export class DeliveryService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditRecorder,
    /** Tells the export worker there is work now. */
    private readonly wake: () => void,
  ) {}

  async list(filter: DeliveryFilter) {
    const conditions: SQL[] = [];
    if (filter.destinationId) conditions.push(eq(siemDeliveries.destinationId, filter.destinationId));
    if (filter.status) conditions.push(eq(siemDeliveries.status, filter.status));
    const where = and(...conditions);
    return fetchPage(
      filter,
      ({ limit, offset }) =>
        this.db
          .select()
          .from(siemDeliveries)
          .where(where)
          .orderBy(desc(siemDeliveries.createdAt), desc(siemDeliveries.firstEventSeq))
          .limit(limit)
          .offset(offset),
      this.db.select({ value: count() }).from(siemDeliveries).where(where),
      toDeliveryView,
    );
  }

  async get(id: string, db: DbOrTx = this.db): Promise<DeliveryView> {
    const [row] = isUuid(id) ? await db.select().from(siemDeliveries).where(eq(siemDeliveries.id, id)) : [];
    if (!row) throw notFound({ deliveryId: id });
    return toDeliveryView(row);
  }

  /**
   * Gives a failed delivery a fresh set of attempts. Only `failed` qualifies: anything else is either
   * still being worked on or finished. A requeued delivery of a disabled destination waits as `paused`.
   */
  async requeue(actor: AuditActor, id: string): Promise<DeliveryView> {
    if (!isUuid(id)) throw notFound({ deliveryId: id });
    const view = await this.db.transaction(async (tx) => {
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
      await this.audit.record(tx, actor, {
        action: 'audit.siem_delivery.requeued',
        targetType: 'siem_delivery',
        targetId: id,
        metadata: { status },
      });
      return this.get(id, tx);
    });
    this.wake();
    return view;
  }
}
