import crypto from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { backoffMs } from '../../core/backoff.js';
import type { Deps } from '../../core/deps.js';
import { DrainJob, releaseClaimsAfterRestart } from '../../core/drain-job.js';
import { queryRows } from '../../db/raw.js';
import { notificationAttempts, notificationChannels, notificationDeliveries } from '../../db/schema/index.js';
import { DeliveryError } from './adapters/outbound.js';
import type { ChannelSender } from './channel-sender.js';
import type { NotificationOutbox } from './outbox.js';

export const DELIVERY_JOB = 'notifications.deliver';

type DeliveryRow = typeof notificationDeliveries.$inferSelect;
type ChannelRow = typeof notificationChannels.$inferSelect;
type Outcome =
  | { ok: true; httpStatus: number | null }
  | { ok: false; httpStatus: number | null; error: string };

/**
 * The delivery worker. Each round claims due deliveries with `FOR UPDATE SKIP LOCKED` (so every gateway
 * process can run it and none takes another's), marks them `delivering` under a claim token and a lease,
 * sends them, and settles each in one transaction that ends the claim: `delivered` only while the token
 * still matches, so a delivery is never marked sent twice. A process that dies mid-send leaves the claim
 * to expire; the delivery is then sent again (at least once, never lost).
 */
export class DeliveryWorker {
  private readonly job: DrainJob;

  constructor(
    private readonly deps: Pick<Deps, 'db' | 'dbKind' | 'config' | 'log' | 'jobs'> & {
      outbox: NotificationOutbox;
      sender: ChannelSender;
    },
  ) {
    this.job = new DrainJob({
      jobs: deps.jobs,
      name: DELIVERY_JOB,
      intervalMs: deps.config.notify.pollIntervalMs,
      everyInstance: true,
      round: () => this.deliverDue(),
      prepare: () => releaseClaimsAfterRestart(deps.db, deps.dbKind, 'notification_deliveries'),
    });
  }

  register(): void {
    this.job.register();
    this.deps.outbox.onQueued(() => this.job.wake());
  }

  /** Deliveries were requeued: run soon. */
  wake(): void {
    this.job.wake();
  }

  /** Claims due deliveries (up to the concurrency), sends them in parallel; answers how many it claimed. */
  async deliverDue(): Promise<number> {
    const { db, config } = this.deps;
    const token = crypto.randomUUID();
    const claimed = await db.transaction(async (tx) => {
      const due = await queryRows<{ id: string }>(
        tx,
        sql`select d.id from notification_deliveries d
            join notification_channels c on c.id = d.channel_id
            where ((d.status in ('queued', 'retrying') and d.next_attempt_at <= now())
                   or (d.status = 'delivering' and d.lease_expires_at < now()))
              and c.enabled
            order by d.next_attempt_at, d.created_at
            limit ${config.notify.concurrency}
            for update of d skip locked`,
      );
      if (due.length === 0) return [];
      const ids = due.map((row) => row.id);
      // A pending attempt of a claim taken over was cut short by its worker's death.
      await tx
        .update(notificationAttempts)
        .set({ outcome: 'interrupted', finishedAt: sql`now()` })
        .where(
          and(inArray(notificationAttempts.deliveryId, ids), eq(notificationAttempts.outcome, 'pending')),
        );
      const rows = await tx
        .update(notificationDeliveries)
        .set({
          status: 'delivering',
          attempts: sql`${notificationDeliveries.attempts} + 1`,
          claimToken: token,
          lastAttemptAt: sql`now()`,
          leaseExpiresAt: sql`now() + make_interval(secs => ${config.notify.leaseSeconds})`,
          updatedAt: sql`now()`,
        })
        .where(inArray(notificationDeliveries.id, ids))
        .returning();
      await tx
        .insert(notificationAttempts)
        .values(
          rows.map((row) => ({ deliveryId: row.id, attempt: row.attempts, outcome: 'pending' as const })),
        );
      return rows;
    });
    if (claimed.length === 0) return 0;
    const channels = await db
      .select()
      .from(notificationChannels)
      .where(inArray(notificationChannels.id, [...new Set(claimed.map((row) => row.channelId))]));
    const byId = new Map(channels.map((channel) => [channel.id, channel]));
    await Promise.all(claimed.map((delivery) => this.send(delivery, byId.get(delivery.channelId), token)));
    return claimed.length;
  }

  private async send(delivery: DeliveryRow, channel: ChannelRow | undefined, token: string): Promise<void> {
    let outcome: Outcome;
    try {
      if (!channel) throw new DeliveryError('the channel was deleted');
      const sent = await this.deps.sender.deliver(channel, delivery.id, delivery.payload);
      outcome = { ok: true, httpStatus: sent.httpStatus };
    } catch (error) {
      const failure = error instanceof DeliveryError ? error : new DeliveryError(String(error));
      outcome = { ok: false, httpStatus: failure.httpStatus, error: failure.message.slice(0, 1000) };
      this.deps.log.warn(
        { deliveryId: delivery.id, channelId: delivery.channelId, error: outcome.error },
        'notification delivery failed',
      );
    }
    await this.settle(delivery, token, outcome);
  }

  /**
   * Ends the claim and records the attempt in one transaction. The delivery is written only while it is
   * still `delivering` under this token (one taken over after a lapsed lease, or whose channel was
   * deleted, is left alone).
   */
  private async settle(delivery: DeliveryRow, token: string, outcome: Outcome): Promise<void> {
    const { notify } = this.deps.config;
    const now = new Date();
    const exhausted = delivery.attempts >= delivery.maxAttempts;
    const values: Partial<typeof notificationDeliveries.$inferInsert> = outcome.ok
      ? { status: 'delivered', deliveredAt: now, lastError: null }
      : {
          status: exhausted ? 'failed' : 'retrying',
          lastError: outcome.error,
          nextAttemptAt: new Date(
            now.getTime() +
              (exhausted ? 0 : backoffMs(delivery.attempts, notify.retryBaseMs, notify.retryMaxMs)),
          ),
        };
    await this.deps.db.transaction(async (tx) => {
      await tx
        .update(notificationDeliveries)
        .set({ ...values, updatedAt: now, claimToken: null, leaseExpiresAt: null })
        .where(
          and(
            eq(notificationDeliveries.id, delivery.id),
            eq(notificationDeliveries.claimToken, token),
            eq(notificationDeliveries.status, 'delivering'),
          ),
        );
      await tx
        .update(notificationAttempts)
        .set({
          outcome: outcome.ok ? 'succeeded' : 'failed',
          finishedAt: now,
          httpStatus: outcome.httpStatus,
          error: outcome.ok ? null : outcome.error,
        })
        .where(
          and(
            eq(notificationAttempts.deliveryId, delivery.id),
            eq(notificationAttempts.attempt, delivery.attempts),
          ),
        );
    });
  }
}
