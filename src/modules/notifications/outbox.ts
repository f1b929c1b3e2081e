import crypto from 'node:crypto';
import { and, eq, inArray, isNotNull, notInArray, type SQLWrapper, sql } from 'drizzle-orm';
import { DEFAULT_WITHIN_DAYS, NOTIFICATION_EVENT_SPECS } from '../../core/notification-events.js';
import type { NotificationEvent, Notifications } from '../../core/notifications.js';
import type { DbOrTx } from '../../db/client.js';
import {
  type NotificationEventKind,
  type NotificationLabels,
  type NotificationPayload,
  notificationChannels,
  notificationConditions,
  notificationDeliveries,
  notificationRuleChannels,
  notificationRules,
} from '../../db/schema/index.js';

const DAY_MS = 86_400_000;

interface MatchedRule {
  id: string;
  name: string;
  filters: NotificationLabels;
  withinDays: number[] | null;
  renotifyMinutes: number | null;
  channelIds: string[];
}

type Listener = () => void;

/**
 * The notification outbox, behind `deps.notifications` (core/notifications.ts). Producers call
 * `emit(tx, event)` inside the transaction of the change that causes it, so a notification exists
 * exactly when its cause committed; it matches the enabled rules and writes one delivery per (rule,
 * channel), never two for the same event and channel (a unique (channel, event id) index decides). The
 * delivery worker sends them; the sweep asks for reminders and forgets conditions of deleted resources.
 */
export class NotificationOutbox implements Notifications {
  private readonly listeners = new Set<Listener>();

  constructor(private readonly options: { maxAttempts: number }) {}

  /** Queues the deliveries the event calls for; answers how many it queued. */
  async emit(tx: DbOrTx, event: NotificationEvent): Promise<number> {
    const spec = NOTIFICATION_EVENT_SPECS[event.kind];
    const occurredAt = event.occurredAt ?? new Date();
    const base = basePayload(event, occurredAt);
    if (spec.mode === 'condition') {
      if (event.state === undefined) throw new Error(`${event.kind} events carry a state`);
      const change = await this.observe(tx, event, event.state, base, occurredAt);
      if (!change) return 0;
      const rules = (await this.matchingRules(tx, event.kind, base.labels)).filter(
        (rule) => !event.rule || rule.id === event.rule.id,
      );
      return this.queue(
        tx,
        rules.map((rule) => ({ rule, payload: change })),
      );
    }
    const rules = await this.matchingRules(tx, event.kind, base.labels);
    if (spec.mode === 'deadline') {
      if (!event.deadline) throw new Error(`${event.kind} events carry a deadline`);
      const deadline = event.deadline;
      return this.queue(
        tx,
        rules.flatMap((rule) => {
          const payload = deadlinePayload(base, rule, deadline, occurredAt);
          return payload ? [{ rule, payload }] : [];
        }),
      );
    }
    const payload = { ...base, eventId: `${event.kind}|${event.key ?? crypto.randomUUID()}` };
    return this.queue(
      tx,
      rules.map((rule) => ({ rule, payload })),
    );
  }

  /**
   * Reminders while bad conditions last: for each open condition and each matching rule with
   * `renotifyMinutes`, the reminder due now (the n-th interval since the change) is queued once.
   */
  async remind(tx: DbOrTx, now = new Date()): Promise<number> {
    const open = await tx.select().from(notificationConditions).where(eq(notificationConditions.ok, false));
    if (open.length === 0) return 0;
    const kinds = [...new Set(open.map((condition) => condition.kind))];
    const rules = await this.rulesFor(tx, kinds, true);
    const queued = open.flatMap((condition) =>
      rules
        .filter(
          (rule) =>
            rule.event === condition.kind &&
            matches(rule, condition.payload.labels) &&
            (condition.payload.rule === null || condition.payload.rule.id === rule.id),
        )
        .flatMap((rule) => {
          const intervalMs = rule.renotifyMinutes! * 60_000;
          const reminder = Math.floor((now.getTime() - condition.since.getTime()) / intervalMs);
          if (reminder < 1) return [];
          const eventId = `${condition.payload.eventId}|reminder:${rule.renotifyMinutes}m:${reminder}`;
          return [{ rule, payload: { ...condition.payload, eventId, reminder } }];
        }),
    );
    return this.queue(tx, queued);
  }

  /**
   * Drops the state kept for resources of a kind that no longer exist (a deleted certificate …).
   * `liveResourceIds` is a query of one text column, run in the same statement, so a resource created
   * meanwhile is seen together with its state.
   */
  async forgetOthers(tx: DbOrTx, kind: NotificationEventKind, liveResourceIds: SQLWrapper): Promise<void> {
    await tx
      .delete(notificationConditions)
      .where(
        and(
          eq(notificationConditions.kind, kind),
          notInArray(notificationConditions.resourceId, liveResourceIds),
        ),
      );
  }

  /** Called after deliveries may have been queued (wakes the delivery worker). */
  onQueued(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Records the state of a condition and answers the payload of the change when it calls for a
   * notification: a first observation of a bad state, a change between bad states, or a recovery.
   */
  private async observe(
    tx: DbOrTx,
    event: NotificationEvent,
    state: string,
    base: NotificationPayload,
    occurredAt: Date,
  ): Promise<NotificationPayload | null> {
    const ok = NOTIFICATION_EVENT_SPECS[event.kind].okStates.includes(state);
    const change = (changes: number, previousState: string | null, wasOk: boolean): NotificationPayload => ({
      ...base,
      // The time makes each change's identity unique even when a forgotten condition starts over.
      eventId: `${event.kind}|${event.resource.id}|change:${changes}@${occurredAt.toISOString()}`,
      state,
      previousState,
      recovered: ok && !wasOk,
    });
    const first = change(1, null, true);
    const inserted = await tx
      .insert(notificationConditions)
      .values({
        kind: event.kind,
        resourceId: event.resource.id,
        state,
        ok,
        since: occurredAt,
        changes: 1,
        payload: first,
      })
      .onConflictDoNothing()
      .returning({ changes: notificationConditions.changes });
    if (inserted.length > 0) return ok ? null : first;

    const where = and(
      eq(notificationConditions.kind, event.kind),
      eq(notificationConditions.resourceId, event.resource.id),
    );
    const [current] = await tx.select().from(notificationConditions).where(where).for('update');
    if (!current) return null;
    if (current.state === state) {
      // A rule's own condition: its reminders say what the latest observation saw.
      if (event.rule && !current.ok)
        await tx
          .update(notificationConditions)
          .set({ payload: { ...current.payload, details: base.details }, updatedAt: new Date() })
          .where(where);
      return null;
    }
    const payload = change(current.changes + 1, current.state, current.ok);
    await tx
      .update(notificationConditions)
      .set({ state, ok, since: occurredAt, changes: current.changes + 1, payload, updatedAt: new Date() })
      .where(where);
    return ok && current.ok ? null : payload;
  }

  private async matchingRules(
    tx: DbOrTx,
    kind: NotificationEventKind,
    labels: NotificationLabels,
  ): Promise<MatchedRule[]> {
    return (await this.rulesFor(tx, [kind], false)).filter((rule) => matches(rule, labels));
  }

  /** Enabled rules of these kinds with their enabled channels (only rules with reminders when asked). */
  private async rulesFor(tx: DbOrTx, kinds: NotificationEventKind[], withReminders: boolean) {
    const conditions = [eq(notificationRules.enabled, true), inArray(notificationRules.event, kinds)];
    if (withReminders) conditions.push(isNotNull(notificationRules.renotifyMinutes));
    return tx
      .select({
        id: notificationRules.id,
        name: notificationRules.name,
        event: notificationRules.event,
        filters: notificationRules.filters,
        withinDays: notificationRules.withinDays,
        renotifyMinutes: notificationRules.renotifyMinutes,
        channelIds: sql<string[]>`array_agg(${notificationChannels.id}::text)`,
      })
      .from(notificationRules)
      .innerJoin(notificationRuleChannels, eq(notificationRuleChannels.ruleId, notificationRules.id))
      .innerJoin(
        notificationChannels,
        and(
          eq(notificationChannels.id, notificationRuleChannels.channelId),
          eq(notificationChannels.enabled, true),
        ),
      )
      .where(and(...conditions))
      .groupBy(notificationRules.id);
  }

  /** One delivery per (rule, channel); a channel that already has the event keeps the one it has. */
  private async queue(tx: DbOrTx, items: { rule: MatchedRule; payload: NotificationPayload }[]) {
    const rows = items.flatMap(({ rule, payload }) =>
      rule.channelIds.map((channelId) => ({
        channelId,
        ruleId: rule.id,
        event: payload.kind,
        eventId: payload.eventId,
        payload: { ...payload, rule: { id: rule.id, name: rule.name } },
        status: 'queued' as const,
        maxAttempts: this.options.maxAttempts,
      })),
    );
    if (rows.length === 0) return 0;
    const inserted = await tx
      .insert(notificationDeliveries)
      .values(rows)
      .onConflictDoNothing({ target: [notificationDeliveries.channelId, notificationDeliveries.eventId] })
      .returning({ id: notificationDeliveries.id });
    if (inserted.length > 0) for (const listener of this.listeners) queueMicrotask(listener);
    return inserted.length;
  }
}

function matches(rule: Pick<MatchedRule, 'filters'>, labels: NotificationLabels): boolean {
  return Object.entries(rule.filters).every(
    ([key, value]) => labels[key as keyof NotificationLabels] === value,
  );
}

function basePayload(event: NotificationEvent, occurredAt: Date): NotificationPayload {
  return {
    eventId: '',
    kind: event.kind,
    resource: event.resource,
    state: null,
    previousState: null,
    recovered: false,
    reminder: 0,
    threshold: null,
    deadline: null,
    daysLeft: null,
    occurredAt: occurredAt.toISOString(),
    labels: event.labels ?? {},
    details: event.details ?? {},
    rule: event.rule ?? null,
  };
}

/**
 * The notification a deadline calls for under one rule: the smallest of its thresholds already
 * crossed (so a certificate first seen 3 days before expiry notifies once, for 7 days, not three
 * times), or `expired` once the deadline has passed; null when no threshold is crossed yet.
 */
function deadlinePayload(
  base: NotificationPayload,
  rule: MatchedRule,
  deadline: Date,
  now: Date,
): NotificationPayload | null {
  const left = (deadline.getTime() - now.getTime()) / DAY_MS;
  const crossed = (rule.withinDays ?? DEFAULT_WITHIN_DAYS).filter((days) => left <= days);
  if (left >= 0 && crossed.length === 0) return null;
  const threshold = left < 0 ? null : Math.min(...crossed);
  const step = threshold === null ? 'expired' : `${threshold}d`;
  return {
    ...base,
    eventId: `${base.kind}|${base.resource.id}|${deadline.toISOString()}|${step}`,
    threshold,
    deadline: deadline.toISOString(),
    daysLeft: Math.floor(left),
  };
}
