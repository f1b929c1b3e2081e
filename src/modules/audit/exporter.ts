import crypto from 'node:crypto';
import { and, asc, between, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { backoffMs } from '../../core/backoff.js';
import type { Deps } from '../../core/deps.js';
import { DrainJob, releaseClaimsAfterRestart } from '../../core/drain-job.js';
import type { Tx } from '../../db/client.js';
import { queryRows } from '../../db/raw.js';
import { auditEvents, siemDeliveries, siemDestinations } from '../../db/schema/index.js';
import { destinationTarget, SECRET_CONTEXT } from './destination-settings.js';
import { toAuditEvent } from './events.js';
import { sendBatch } from './sinks.js';

/** The background job that runs the exporter (`module.ts` registers it); a wake runs it now. */
export const EXPORT_JOB = 'audit.siem-export';

/** Most events read per destination in one batching round (bounds memory and transaction length). */
const MAX_SCAN = 20_000;

type DestinationRow = typeof siemDestinations.$inferSelect;
type DeliveryRow = typeof siemDeliveries.$inferSelect;

/**
 * Ends a claim: writes the outcome only while the delivery is still `delivering` under this claim token
 * (a delivery discarded or taken over meanwhile is left alone). Answers whether it wrote.
 */
async function settle(
  tx: Tx,
  id: string,
  token: string,
  values: Partial<typeof siemDeliveries.$inferInsert>,
): Promise<boolean> {
  const rows = await tx
    .update(siemDeliveries)
    .set({ ...values, updatedAt: sql`now()`, claimToken: null, leaseExpiresAt: null })
    .where(
      and(
        eq(siemDeliveries.id, id),
        eq(siemDeliveries.claimToken, token),
        eq(siemDeliveries.status, 'delivering'),
      ),
    )
    .returning({ id: siemDeliveries.id });
  return rows.length > 0;
}

/**
 * The export worker, a drain job (`core/drain-job.ts`). Each round (1) cuts new audit events into
 * delivery records per destination, under a `FOR UPDATE SKIP LOCKED` lock on the destination row so that
 * one process batches a destination at a time and its cursor advances in the same transaction as the
 * records it creates; (2) claims due deliveries with `FOR UPDATE SKIP LOCKED` (a lease makes a crashed
 * worker's claim reclaimable), sends them, and settles each one only while its claim token still
 * matches. Events stay in audit_events and a delivery only points at a seq range, so a crash at any
 * point loses nothing: at-least-once.
 */
export class SiemExporter {
  private readonly job: DrainJob;
  private flushTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: Pick<
      Deps,
      'db' | 'dbKind' | 'secrets' | 'egress' | 'config' | 'log' | 'jobs' | 'notifications'
    >,
  ) {
    this.job = new DrainJob({
      jobs: deps.jobs,
      name: EXPORT_JOB,
      intervalMs: deps.config.siem.pollIntervalMs,
      round: async () => (await this.batchNewEvents()) + (await this.deliverDue()),
      prepare: () => releaseClaimsAfterRestart(deps.db, deps.dbKind, 'siem_deliveries'),
    });
  }

  register(): void {
    this.job.register();
  }

  /** Something happened (an event was recorded, a delivery requeued): run soon. */
  wake(delayMs = 15): void {
    this.job.wake(delayMs);
  }

  /** Cuts events after each destination's cursor into delivery records; answers how many it made. */
  async batchNewEvents(): Promise<number> {
    const { db } = this.deps;
    // Woken by every sequenced batch: without a destination behind the chain's head, one read.
    const [behind] = await queryRows<{ id: string }>(
      db,
      sql`select id from siem_destinations
          where deleted_at is null and cursor_seq < (select coalesce(max(seq), 0) from audit_events)
          limit 1`,
    );
    if (!behind) return 0;
    return db.transaction(async (tx) => {
      const destinations = await queryRows<{
        id: string;
        enabled: boolean;
        cursor_seq: string | number;
        batch_size: number;
        flush_interval_ms: number;
        max_attempts: number;
      }>(
        tx,
        sql`select id, enabled, cursor_seq, batch_size, flush_interval_ms, max_attempts
            from siem_destinations
            where deleted_at is null and cursor_seq < (select coalesce(max(seq), 0) from audit_events)
            for update skip locked`,
      );
      let created = 0;
      let nextFlushMs = Number.POSITIVE_INFINITY;
      for (const destination of destinations) {
        const cursor = Number(destination.cursor_seq);
        // Only sequenced events have a seq, so only they are ever cut into deliveries.
        const events = await tx
          .select({
            seq: sql<number>`${auditEvents.seq}`.mapWith(Number),
            id: auditEvents.id,
            occurredAt: auditEvents.occurredAt,
          })
          .from(auditEvents)
          .where(sql`${auditEvents.seq} > ${cursor}`)
          .orderBy(asc(auditEvents.seq))
          .limit(Math.max(destination.batch_size, Math.min(MAX_SCAN, destination.batch_size * 20)));
        const batches: (typeof events)[] = [];
        for (let start = 0; start < events.length; start += destination.batch_size) {
          batches.push(events.slice(start, start + destination.batch_size));
        }
        const last = batches.at(-1);
        if (last && last.length < destination.batch_size) {
          const waitMs = last[0]!.occurredAt.getTime() + destination.flush_interval_ms - Date.now();
          if (waitMs > 0) {
            batches.pop();
            nextFlushMs = Math.min(nextFlushMs, waitMs);
          }
        }
        if (batches.length === 0) continue;
        const status = destination.enabled ? 'queued' : 'paused';
        await tx.insert(siemDeliveries).values(
          batches.map((batch) => ({
            destinationId: destination.id,
            status: status as 'queued' | 'paused',
            eventCount: batch.length,
            firstEventSeq: batch[0]!.seq,
            lastEventSeq: batch.at(-1)!.seq,
            firstEventId: batch[0]!.id,
            lastEventId: batch.at(-1)!.id,
            maxAttempts: destination.max_attempts,
          })),
        );
        await tx
          .update(siemDestinations)
          .set({ cursorSeq: batches.at(-1)!.at(-1)!.seq })
          .where(eq(siemDestinations.id, destination.id));
        created += batches.length;
      }
      if (Number.isFinite(nextFlushMs)) this.scheduleFlush(nextFlushMs);
      return created;
    });
  }

  private scheduleFlush(waitMs: number): void {
    if (this.deps.jobs.stopped || this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      this.wake(0);
    }, waitMs + 5);
    this.flushTimer.unref();
  }

  /** Claims due deliveries (up to the concurrency), sends them in parallel; answers how many it sent. */
  async deliverDue(): Promise<number> {
    const { db, config } = this.deps;
    const dueDeliveries = (limit: number, lock: SQL) =>
      sql`select d.id from siem_deliveries d
          join siem_destinations s on s.id = d.destination_id
          where ((d.status in ('queued', 'retrying') and d.next_attempt_at <= now())
                 or (d.status = 'delivering' and d.lease_expires_at < now()))
            and s.enabled and s.deleted_at is null
            and (s.circuit_open_until is null or s.circuit_open_until <= now())
          order by d.next_attempt_at, d.first_event_seq
          limit ${limit} ${lock}`;
    // Nothing due (the common case between batches): one read, no transaction.
    if ((await queryRows(db, dueDeliveries(1, sql``))).length === 0) return 0;
    const token = crypto.randomUUID();
    const claimed = await db.transaction(async (tx) => {
      const due = await queryRows<{ id: string }>(
        tx,
        dueDeliveries(config.siem.concurrency, sql`for update of d skip locked`),
      );
      if (due.length === 0) return [];
      return tx
        .update(siemDeliveries)
        .set({
          status: 'delivering',
          attempts: sql`${siemDeliveries.attempts} + 1`,
          claimToken: token,
          lastAttemptAt: sql`now()`,
          leaseExpiresAt: sql`now() + make_interval(secs => ${config.siem.leaseSeconds})`,
          updatedAt: sql`now()`,
        })
        .where(
          inArray(
            siemDeliveries.id,
            due.map((row) => row.id),
          ),
        )
        .returning();
    });
    if (claimed.length === 0) return 0;
    const destinations = await db
      .select()
      .from(siemDestinations)
      .where(inArray(siemDestinations.id, [...new Set(claimed.map((delivery) => delivery.destinationId))]));
    const byId = new Map(destinations.map((destination) => [destination.id, destination]));
    await Promise.all(
      claimed.map((delivery) => this.send(delivery, byId.get(delivery.destinationId)!, token)),
    );
    return claimed.length;
  }

  private async send(delivery: DeliveryRow, destination: DestinationRow, token: string): Promise<void> {
    const { db, config, egress, secrets, log } = this.deps;
    try {
      const rows = await db
        .select()
        .from(auditEvents)
        .where(between(auditEvents.seq, delivery.firstEventSeq, delivery.lastEventSeq))
        .orderBy(asc(auditEvents.seq));
      const target = destinationTarget(destination, (sealed) => secrets.open(sealed, SECRET_CONTEXT));
      await sendBatch(egress, target, rows.map(toAuditEvent), {
        deliveryId: delivery.id,
        timeoutMs: config.siem.sendTimeoutMs,
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log.warn(
        { deliveryId: delivery.id, destinationId: destination.id, error: message },
        'SIEM delivery failed',
      );
      await this.settleFailure(delivery, token, message);
      return;
    }
    await this.settleSuccess(delivery, token);
  }

  private async settleSuccess(delivery: DeliveryRow, token: string): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const settled = await settle(tx, delivery.id, token, {
        status: 'delivered',
        deliveredAt: new Date(),
        // A delivered batch has no error any more; an attempt before a requeue must not linger.
        lastError: null,
      });
      if (!settled) return;
      const [destination] = await tx
        .update(siemDestinations)
        .set({ lastSuccessAt: sql`now()`, consecutiveFailures: 0, circuitOpenUntil: null })
        .where(eq(siemDestinations.id, delivery.destinationId))
        .returning();
      // Reported on every success: the outbox notifies only when this closes an open circuit.
      if (destination) await this.reportCircuit(tx, destination, 'closed');
    });
  }

  private async settleFailure(delivery: DeliveryRow, token: string, message: string): Promise<void> {
    const { siem } = this.deps.config;
    await this.deps.db.transaction(async (tx) => {
      const [destination] = await tx
        .select()
        .from(siemDestinations)
        .where(eq(siemDestinations.id, delivery.destinationId))
        .for('update');
      if (!destination) return;
      const exhausted = delivery.attempts >= delivery.maxAttempts;
      const status = exhausted ? 'failed' : destination.enabled ? 'retrying' : 'paused';
      const delay = backoffMs(delivery.attempts, siem.retryBaseMs, siem.retryMaxMs);
      const settled = await settle(tx, delivery.id, token, {
        status,
        lastError: message.slice(0, 1000),
        nextAttemptAt: new Date(Date.now() + (status === 'retrying' ? delay : 0)),
      });
      if (!settled) return;
      if (exhausted) {
        await this.deps.notifications.emit(tx, {
          kind: 'siem.delivery.failed',
          resource: { type: 'siem_delivery', id: delivery.id, name: destination.name },
          labels: { destinationId: destination.id },
          // One notification per failed claim: a requeued delivery that fails again is a new event.
          key: `${delivery.id}@${delivery.lastAttemptAt?.toISOString()}`,
          details: {
            error: message.slice(0, 1000),
            attempts: delivery.attempts,
            eventCount: delivery.eventCount,
            firstEventSeq: delivery.firstEventSeq,
            lastEventSeq: delivery.lastEventSeq,
          },
        });
      }
      const failures = destination.consecutiveFailures + 1;
      const opened = failures >= siem.circuitThreshold;
      const [updated] = await tx
        .update(siemDestinations)
        .set({
          consecutiveFailures: failures,
          lastFailureAt: sql`now()`,
          lastError: message.slice(0, 1000),
          // An open circuit stops claims for the destination; its events keep being batched meanwhile.
          circuitOpenUntil: opened
            ? new Date(
                Date.now() +
                  backoffMs(failures - siem.circuitThreshold + 1, siem.retryBaseMs, siem.retryMaxMs),
              )
            : null,
        })
        .where(eq(siemDestinations.id, destination.id))
        .returning();
      if (opened && updated) await this.reportCircuit(tx, updated, 'open', message);
    });
  }

  /** The destination's circuit as `siem.destination.circuit_opened` sees it (open, or closed again). */
  private reportCircuit(tx: Tx, destination: DestinationRow, state: 'open' | 'closed', error?: string) {
    return this.deps.notifications.emit(tx, {
      kind: 'siem.destination.circuit_opened',
      resource: { type: 'siem_destination', id: destination.id, name: destination.name },
      labels: { destinationId: destination.id },
      state,
      details: {
        consecutiveFailures: destination.consecutiveFailures,
        ...(destination.circuitOpenUntil ? { retryAt: destination.circuitOpenUntil.toISOString() } : {}),
        ...(error ? { error: error.slice(0, 1000) } : {}),
      },
    });
  }
}
