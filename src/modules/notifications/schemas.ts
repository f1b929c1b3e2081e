import { type Static, Type } from 'typebox';
import {
  Name,
  NamedObject,
  Nullable,
  NullableTimestamp,
  SearchText,
  StringEnum,
  Timestamp,
  Uuid,
  WriteOnly,
} from '../../core/http-schemas.js';
import { NOTIFICATION_MODES } from '../../core/notification-events.js';
import { PaginationQueryFields } from '../../core/pagination.js';
import { DataWithDroppedSecrets } from '../../core/trust-boundary.js';
import {
  NOTIFICATION_ATTEMPT_OUTCOMES,
  NOTIFICATION_CHANNEL_KINDS,
  NOTIFICATION_DELIVERY_STATUSES,
  NOTIFICATION_EVENTS,
  NOTIFICATION_FILTER_KEYS,
} from '../../db/schema/index.js';
import { SavedQuery } from '../logging/saved-query.js';

/** The shapes of the notifications area: route schemas, and through `Static` the service's types. */

const STARTTLS_MODES = ['required', 'opportunistic', 'off'] as const;

const Url = (description: string) => Type.String({ format: 'uri', maxLength: 2048, description });
const Email = Type.String({ format: 'email', maxLength: 320 });
const CaPem = Type.String({ maxLength: 65_536, description: 'CA certificate(s) to trust for TLS, PEM' });
const Headers = WriteOnly(
  Type.Record(Type.String(), Type.String({ maxLength: 4096, pattern: '^[^\\r\\n]*$' }), {
    maxProperties: 20,
    description: 'webhook: custom request headers; the values are write-only',
  }),
);
const Secret = WriteOnly(
  Type.String({
    minLength: 16,
    maxLength: 1024,
    description: 'webhook: HMAC-SHA256 signing key (write-only)',
  }),
);

const SmtpCommon = {
  port: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 65535, description: 'default 465 if secure, else 587' }),
  ),
  secure: Type.Optional(Type.Boolean({ description: 'TLS from the first byte (port 465)' })),
  starttls: Type.Optional(
    StringEnum(
      STARTTLS_MODES,
      'Without secure: require the STARTTLS upgrade (default), use it when offered, or never',
    ),
  ),
};

export const SmtpSettings = Type.Object({
  host: Type.String({ minLength: 1, maxLength: 253 }),
  ...SmtpCommon,
  username: Type.Optional(Type.String({ minLength: 1, maxLength: 320 })),
  password: Type.Optional(
    WriteOnly(Type.String({ minLength: 1, maxLength: 1024, description: 'write-only' })),
  ),
  caPem: Type.Optional(CaPem),
});

export const SmtpChanges = Type.Object({
  host: Type.Optional(Type.String({ minLength: 1, maxLength: 253 })),
  ...SmtpCommon,
  username: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 320 }))),
  password: Type.Optional(
    WriteOnly(Nullable(Type.String({ minLength: 1, maxLength: 1024, description: 'write-only' }))),
  ),
  caPem: Type.Optional(Nullable(CaPem)),
});

const ChannelFields = {
  enabled: Type.Optional(Type.Boolean()),
  url: Type.Optional(Url('webhook: where events are posted; slack: the incoming-webhook URL (write-only)')),
  from: Type.Optional(Email),
  to: Type.Optional(Type.Array(Email, { minItems: 1, maxItems: 20, uniqueItems: true })),
};

export const ChannelCreate = Type.Object({
  name: Name,
  kind: StringEnum(NOTIFICATION_CHANNEL_KINDS),
  ...ChannelFields,
  secret: Type.Optional(Secret),
  headers: Type.Optional(Headers),
  smtp: Type.Optional(SmtpSettings),
});

export const ChannelUpdate = Type.Object({
  name: Type.Optional(Name),
  ...ChannelFields,
  secret: Type.Optional(Nullable(Secret)),
  headers: Type.Optional(Nullable(Headers)),
  smtp: Type.Optional(SmtpChanges),
});

export const Channel = NamedObject('NotificationChannel', {
  id: Uuid(),
  name: Type.String(),
  kind: StringEnum(NOTIFICATION_CHANNEL_KINDS),
  enabled: Type.Boolean(),
  url: Nullable(
    Type.String({ description: 'webhook only: the Slack URL is a credential and is never shown' }),
  ),
  urlOrigin: Nullable(Type.String({ description: 'webhook and slack: scheme, host and port of the URL' })),
  hasSecret: Type.Boolean({ description: 'webhook: requests are signed' }),
  headerNames: Type.Array(Type.String()),
  smtp: Nullable(
    Type.Object({
      host: Type.String(),
      port: Type.Integer(),
      secure: Type.Boolean(),
      starttls: StringEnum(STARTTLS_MODES),
      username: Nullable(Type.String()),
      hasPassword: Type.Boolean(),
      hasCaPem: Type.Boolean(),
    }),
  ),
  from: Nullable(Type.String()),
  to: Type.Array(Type.String()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

/** The answer of a change: the channel, and the secrets it dropped (their destination moved). */
export const ChannelChange = DataWithDroppedSecrets(Channel);

export const ChannelListQuery = Type.Object({
  ...PaginationQueryFields,
  kind: Type.Optional(StringEnum(NOTIFICATION_CHANNEL_KINDS)),
  q: SearchText(),
});

export const ChannelTestResult = Type.Object({
  ok: Type.Boolean(),
  error: Type.Optional(Type.String({ description: 'Why the send failed, when it did' })),
});

const Filters = NamedObject(
  'AlertRuleFilters',
  {
    nodeId: Type.Optional(Uuid('containerhost node')),
    containerName: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    destinationId: Type.Optional(Uuid('SIEM destination')),
    certificateId: Type.Optional(Uuid('SSL certificate')),
    connectorId: Type.Optional(Uuid('repository-host connector')),
  },
  {
    description: `Only events about these resources; which keys apply depends on the event (${NOTIFICATION_FILTER_KEYS.join(', ')})`,
  },
);

const WithinDays = Type.Array(Type.Integer({ minimum: 1, maximum: 365 }), {
  minItems: 1,
  maxItems: 10,
  uniqueItems: true,
  description:
    'Deadline events: notify once as each threshold (days before expiry) is crossed; default 30, 14, 7, 1',
});
const RenotifyMinutes = Type.Integer({
  minimum: 1,
  maximum: 43_200,
  description: 'Condition events: remind every this many minutes while the condition lasts',
});
const ChannelIds = Type.Array(Uuid(), { minItems: 1, maxItems: 20, uniqueItems: true });
const LogQuery = NamedObject(
  'LogQueryRule',
  {
    environmentId: Uuid('the logging environment whose records are counted'),
    query: Type.Optional(SavedQuery),
    savedSearchId: Type.Optional(Uuid('a saved search of the environment, instead of `query`')),
    threshold: Type.Object({
      op: StringEnum(['above', 'below'] as const, 'fires while the count is above (>) or below (<) `count`'),
      count: Type.Integer({ minimum: 0, maximum: 1_000_000_000 }),
      windowMinutes: Type.Integer({
        minimum: 1,
        maximum: 1440,
        description: 'the records of the last this many minutes',
      }),
    }),
  },
  {
    description:
      '`logging.query.threshold` rules only: what they count (`query` or `savedSearchId`, exactly one), evaluated every INFRAGATE_LOG_RULES_INTERVAL_SECONDS',
  },
);

export const RuleCreate = Type.Object({
  name: Name,
  event: StringEnum(NOTIFICATION_EVENTS),
  channelIds: ChannelIds,
  enabled: Type.Optional(Type.Boolean()),
  filters: Type.Optional(Filters),
  withinDays: Type.Optional(WithinDays),
  renotifyMinutes: Type.Optional(RenotifyMinutes),
  logQuery: Type.Optional(LogQuery),
});

export const RuleUpdate = Type.Object({
  name: Type.Optional(Name),
  event: Type.Optional(StringEnum(NOTIFICATION_EVENTS)),
  channelIds: Type.Optional(ChannelIds),
  enabled: Type.Optional(Type.Boolean()),
  filters: Type.Optional(Nullable(Filters)),
  withinDays: Type.Optional(Nullable(WithinDays)),
  renotifyMinutes: Type.Optional(Nullable(RenotifyMinutes)),
  logQuery: Type.Optional(Nullable(LogQuery)),
});

export const Rule = NamedObject('AlertRule', {
  id: Uuid(),
  name: Type.String(),
  event: StringEnum(NOTIFICATION_EVENTS),
  enabled: Type.Boolean(),
  channelIds: Type.Array(Uuid()),
  filters: Filters,
  withinDays: Nullable(
    Type.Array(Type.Integer(), { description: 'In force for deadline events, else null' }),
  ),
  renotifyMinutes: Nullable(Type.Integer()),
  logQuery: Nullable(LogQuery),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const RuleListQuery = Type.Object({
  ...PaginationQueryFields,
  event: Type.Optional(StringEnum(NOTIFICATION_EVENTS)),
  q: SearchText(),
});

const Resource = NamedObject('NotificationResource', {
  type: Type.String(),
  id: Type.String(),
  name: Type.String(),
});

export const Delivery = NamedObject('NotificationDelivery', {
  id: Uuid(),
  channelId: Uuid(),
  ruleId: Nullable(Uuid()),
  event: StringEnum(NOTIFICATION_EVENTS),
  eventId: Type.String({ description: 'Identity of the event; one delivery per event and channel' }),
  summary: Type.String({ description: 'The title of the message' }),
  resource: Resource,
  status: StringEnum(NOTIFICATION_DELIVERY_STATUSES),
  attempts: Type.Integer(),
  maxAttempts: Type.Integer(),
  lastError: Nullable(Type.String()),
  lastAttemptAt: NullableTimestamp,
  nextAttemptAt: NullableTimestamp,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  deliveredAt: NullableTimestamp,
});

export const Attempt = NamedObject('DeliveryAttempt', {
  attempt: Type.Integer(),
  outcome: StringEnum(NOTIFICATION_ATTEMPT_OUTCOMES),
  startedAt: Timestamp,
  finishedAt: NullableTimestamp,
  httpStatus: Nullable(Type.Integer()),
  error: Nullable(Type.String()),
});

export const DeliveryDetail = NamedObject('NotificationDeliveryDetail', {
  ...Delivery.properties,
  payload: Type.Record(Type.String(), Type.Unknown(), { description: 'The event as webhooks receive it' }),
  attemptLog: Type.Array(Attempt),
});

export const DeliveryListQuery = Type.Object({
  ...PaginationQueryFields,
  status: Type.Optional(StringEnum(NOTIFICATION_DELIVERY_STATUSES)),
  channelId: Type.Optional(Uuid()),
  ruleId: Type.Optional(Uuid()),
  event: Type.Optional(StringEnum(NOTIFICATION_EVENTS)),
});

export const EventKind = NamedObject('NotificationEventKind', {
  kind: StringEnum(NOTIFICATION_EVENTS),
  mode: StringEnum(NOTIFICATION_MODES),
  description: Type.String(),
  filters: Type.Array(Type.String()),
  okStates: Type.Array(Type.String()),
  defaultWithinDays: Nullable(Type.Array(Type.Integer())),
});

export const Alert = NamedObject('Alert', {
  event: StringEnum(NOTIFICATION_EVENTS),
  resource: Resource,
  state: Type.String(),
  since: Timestamp,
  summary: Type.String(),
  consolePath: Type.String({
    description: 'The console page of the resource, below the console’s address (what messages link to)',
  }),
  details: Type.Record(Type.String(), Type.Unknown()),
});

export type Channel = Static<typeof Channel>;
export type ChannelCreate = Static<typeof ChannelCreate>;
export type ChannelUpdate = Static<typeof ChannelUpdate>;
export type ChannelChange = Static<typeof ChannelChange>;
export type ChannelListQuery = Static<typeof ChannelListQuery>;
export type ChannelTestResult = Static<typeof ChannelTestResult>;
export type SmtpSettings = Static<typeof SmtpSettings>;
export type SmtpChanges = Static<typeof SmtpChanges>;
export type Rule = Static<typeof Rule>;
export type RuleCreate = Static<typeof RuleCreate>;
export type RuleUpdate = Static<typeof RuleUpdate>;
export type RuleListQuery = Static<typeof RuleListQuery>;
export type Delivery = Static<typeof Delivery>;
export type DeliveryDetail = Static<typeof DeliveryDetail>;
export type DeliveryListQuery = Static<typeof DeliveryListQuery>;
export type EventKind = Static<typeof EventKind>;
export type Alert = Static<typeof Alert>;
