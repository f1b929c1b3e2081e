import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';
import type { SavedQuery } from './logging.js';

export const NOTIFICATION_CHANNEL_KINDS = ['webhook', 'slack', 'email'] as const;
export type NotificationChannelKind = (typeof NOTIFICATION_CHANNEL_KINDS)[number];

/** Every event a rule may subscribe to; what each one means is in src/core/notification-events.ts. */
export const NOTIFICATION_EVENTS = [
  'containerhost.health_check.changed',
  'certificates.expiring',
  'certificates.expired',
  'siem.destination.circuit_opened',
  'siem.delivery.failed',
  'repohost.token.expiring',
  'auth.login.throttled',
  'audit.chain.broken',
  'nodes.node.offline',
  'logging.query.threshold',
] as const;
export type NotificationEventKind = (typeof NOTIFICATION_EVENTS)[number];

export const NOTIFICATION_DELIVERY_STATUSES = [
  'queued',
  'delivering',
  'retrying',
  'delivered',
  'failed',
] as const;
export type NotificationDeliveryStatus = (typeof NOTIFICATION_DELIVERY_STATUSES)[number];

/** `pending` while a send runs; `interrupted` when its worker died and the delivery was claimed again. */
export const NOTIFICATION_ATTEMPT_OUTCOMES = ['pending', 'succeeded', 'failed', 'interrupted'] as const;
export type NotificationAttemptOutcome = (typeof NOTIFICATION_ATTEMPT_OUTCOMES)[number];

/** What a rule may narrow its event down to; producers attach the same keys as labels. */
export const NOTIFICATION_FILTER_KEYS = [
  'nodeId',
  'containerName',
  'destinationId',
  'certificateId',
  'connectorId',
] as const;
export type NotificationFilterKey = (typeof NOTIFICATION_FILTER_KEYS)[number];
export type NotificationLabels = Partial<Record<NotificationFilterKey, string>>;

/** Non-secret settings of a channel; which keys apply depends on the kind. */
export interface ChannelSettings {
  /** webhook: where events are posted. */
  url?: string;
  /** webhook: names of the custom headers (their values are sealed). */
  headerNames?: string[];
  /** slack: scheme, host and port of the incoming-webhook URL, whose path is a secret. */
  urlOrigin?: string;
  /** email */
  smtp?: {
    host: string;
    port: number;
    secure: boolean;
    starttls: 'required' | 'opportunistic' | 'off';
    username?: string;
    caPem?: string;
  };
  from?: string;
  to?: string[];
}

/** The secret parts of a channel, sealed together as JSON in `secrets_sealed`. */
export interface ChannelSecrets {
  /** webhook HMAC-SHA256 key */
  secret?: string;
  /** webhook custom header values by name */
  headers?: Record<string, string>;
  /** slack incoming-webhook URL */
  url?: string;
  /** SMTP password */
  password?: string;
}

/** What happened, as stored with a delivery (and with an open condition) and rendered when sent. */
export interface NotificationPayload {
  /** Stable identity of the event: the same event for the same channel is never queued twice. */
  eventId: string;
  kind: NotificationEventKind;
  resource: { type: string; id: string; name: string };
  state: string | null;
  previousState: string | null;
  /** A condition went back to a normal state. */
  recovered: boolean;
  /** 1, 2, … for reminders of a condition that lasts; 0 for the notification of the change itself. */
  reminder: number;
  /** Deadline events: the threshold (days) that was crossed, the deadline and whole days left. */
  threshold: number | null;
  deadline: string | null;
  daysLeft: number | null;
  occurredAt: string;
  labels: NotificationLabels;
  details: Record<string, unknown>;
  rule: { id: string; name: string } | null;
}

/**
 * What a `logging.query.threshold` rule counts: the records of an environment matching a query (its
 * own, or a saved search's) in the last `windowMinutes`, compared with `count`.
 */
export interface LogQueryRule {
  environmentId: string;
  query?: SavedQuery;
  savedSearchId?: string;
  threshold: { op: 'above' | 'below'; count: number; windowMinutes: number };
}

/** Where notifications go. Secrets (HMAC key, header values, Slack URL, SMTP password) are sealed. */
export const notificationChannels = pgTable('notification_channels', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  kind: text('kind', { enum: NOTIFICATION_CHANNEL_KINDS }).notNull(),
  enabled: boolean('enabled').notNull().default(true),
  settings: jsonb('settings').$type<ChannelSettings>().notNull(),
  secretsSealed: text('secrets_sealed'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Which event goes to which channels, optionally narrowed by filters. */
export const notificationRules = pgTable('notification_rules', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  event: text('event', { enum: NOTIFICATION_EVENTS }).notNull(),
  enabled: boolean('enabled').notNull().default(true),
  filters: jsonb('filters').$type<NotificationLabels>().notNull().default({}),
  /** Deadline events: thresholds in days; null means the default 30, 14, 7, 1. */
  withinDays: integer('within_days').array(),
  /** Condition events: minutes between reminders while the condition lasts; null means none. */
  renotifyMinutes: integer('renotify_minutes'),
  /** `logging.query.threshold` rules: what they count; null for every other event. */
  logQuery: jsonb('log_query').$type<LogQueryRule>(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** A rule's channels. A channel that rules use cannot be deleted (restrict). */
export const notificationRuleChannels = pgTable(
  'notification_rule_channels',
  {
    ruleId: uuid('rule_id')
      .notNull()
      .references(() => notificationRules.id, { onDelete: 'cascade' }),
    channelId: uuid('channel_id')
      .notNull()
      .references(() => notificationChannels.id, { onDelete: 'restrict' }),
  },
  (table) => [
    primaryKey({ columns: [table.ruleId, table.channelId] }),
    index('notification_rule_channels_channel_idx').on(table.channelId),
  ],
);

/**
 * The last known state of each watched thing (a health check, a certificate, the audit chain …), so
 * that a state is notified when it changes rather than every time it is observed.
 */
export const notificationConditions = pgTable(
  'notification_conditions',
  {
    kind: text('kind', { enum: NOTIFICATION_EVENTS }).notNull(),
    resourceId: text('resource_id').notNull(),
    state: text('state').notNull(),
    /** Whether the state is a normal one (no alert open). */
    ok: boolean('ok').notNull(),
    /** When the current state began. */
    since: timestamp('since', { withTimezone: true }).notNull(),
    /** Counts state changes; part of each change's event identity. */
    changes: integer('changes').notNull(),
    /** The event of the latest change, for reminders and the list of open alerts. */
    payload: jsonb('payload').$type<NotificationPayload>().notNull(),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.kind, table.resourceId] }),
    index('notification_conditions_open_idx').on(table.since).where(sql`not ok`),
  ],
);

/** The outbox: one row per event and channel, written in the transaction of the change that caused it. */
export const notificationDeliveries = pgTable(
  'notification_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    channelId: uuid('channel_id')
      .notNull()
      .references(() => notificationChannels.id, { onDelete: 'cascade' }),
    ruleId: uuid('rule_id').references(() => notificationRules.id, { onDelete: 'set null' }),
    event: text('event', { enum: NOTIFICATION_EVENTS }).notNull(),
    eventId: text('event_id').notNull(),
    payload: jsonb('payload').$type<NotificationPayload>().notNull(),
    status: text('status', { enum: NOTIFICATION_DELIVERY_STATUSES }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull(),
    lastError: text('last_error'),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set by the worker that claimed the delivery; its result only counts while the token matches. */
    claimToken: uuid('claim_token'),
    leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('notification_deliveries_event_idx').on(table.channelId, table.eventId),
    index('notification_deliveries_due_idx')
      .on(table.nextAttemptAt)
      .where(sql`status in ('queued', 'retrying')`),
    index('notification_deliveries_leased_idx').on(table.leaseExpiresAt).where(sql`status = 'delivering'`),
    index('notification_deliveries_channel_idx').on(table.channelId, table.createdAt),
    index('notification_deliveries_rule_idx').on(table.ruleId, table.createdAt),
    index('notification_deliveries_status_idx').on(table.status, table.createdAt),
  ],
);

/** Every send of a delivery, with its outcome. */
export const notificationAttempts = pgTable(
  'notification_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => notificationDeliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    outcome: text('outcome', { enum: NOTIFICATION_ATTEMPT_OUTCOMES }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    httpStatus: integer('http_status'),
    error: text('error'),
  },
  (table) => [uniqueIndex('notification_attempts_delivery_idx').on(table.deliveryId, table.attempt)],
);
