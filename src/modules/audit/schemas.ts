import { type Static, Type } from 'typebox';
import {
  NamedObject,
  Nullable,
  NullableTimestamp,
  StringEnum,
  Timestamp,
  TimestampText,
  Uuid,
  WriteOnly,
} from '../../core/http-schemas.js';
import { PaginationQueryFields } from '../../core/pagination.js';
import { DataWithDroppedSecrets } from '../../core/trust-boundary.js';
import { AUDIT_OUTCOMES, DELIVERY_STATUSES, SIEM_KINDS } from '../../db/schema/index.js';

/** The shapes of the audit area: route schemas, and through `Static` the service's types. */

export const IdParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

// Events

/**
 * An audit event as it is answered and exported; `id` is stable so receivers can deduplicate. An event
 * is listed as soon as its change committed; `seq`, `prevHash` and `hash` are null until the sequencer
 * gave it its place in the chain (within milliseconds). Exported events are always sequenced.
 */
export const AuditEvent = NamedObject('AuditEvent', {
  id: Uuid(),
  seq: Nullable(Type.Integer({ description: 'place in the hash chain; null until sequenced' })),
  occurredAt: TimestampText,
  actorId: Nullable(Type.String()),
  actorEmail: Nullable(Type.String()),
  action: Type.String(),
  targetType: Nullable(Type.String()),
  targetId: Nullable(Type.String()),
  outcome: Type.String(),
  requestId: Nullable(Type.String()),
  clientIp: Nullable(Type.String()),
  metadata: Type.Record(Type.String(), Type.Unknown()),
  prevHash: Nullable(Type.String({ description: 'null until sequenced' })),
  hash: Nullable(Type.String({ description: 'null until sequenced' })),
});

export const EventListQuery = Type.Object({
  ...PaginationQueryFields,
  actor: Type.Optional(Type.String({ minLength: 1, maxLength: 320, description: 'email or user id' })),
  action: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'exact action, or a prefix like users.*',
    }),
  ),
  targetType: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  targetId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  outcome: Type.Optional(StringEnum(AUDIT_OUTCOMES)),
  from: Type.Optional(Type.String({ format: 'date-time' })),
  to: Type.Optional(Type.String({ format: 'date-time' })),
});

const ChainBreak = Type.Object({
  seq: Type.Integer(),
  id: Nullable(Type.String()),
  reason: Type.String(),
  explanation: Type.String(),
  expected: Type.String(),
  actual: Type.String(),
});

const HASH_PATTERN = '^[0-9a-fA-F]{64}$';

export const VerifyQuery = Type.Object({
  checkpointSeq: Type.Optional(
    Type.Integer({ minimum: 1, description: 'seq of a checkpoint kept from earlier (with checkpointHash)' }),
  ),
  checkpointHash: Type.Optional(
    Type.String({ pattern: HASH_PATTERN, description: 'hash of that checkpoint (with checkpointSeq)' }),
  ),
});

export const ChainReport = Type.Object({
  valid: Type.Boolean(),
  checkedEvents: Type.Integer(),
  headSeq: Nullable(Type.Integer()),
  headHash: Nullable(Type.String()),
  unsequencedEvents: Type.Integer({ description: 'committed events not yet given a place in the chain' }),
  firstBrokenLink: Nullable(ChainBreak),
  verifiedAt: Timestamp,
});

/** The chain's head, signed: kept outside the gateway, it later proves the log was not rewritten. */
export const Checkpoint = Type.Object({
  seq: Type.Integer({ description: 'head of the chain; 0 while it is empty' }),
  hash: Type.String({ description: 'hash of the head event (64 zeros while the chain is empty)' }),
  signedText: Type.String({ description: 'the exact text the signature covers' }),
  algorithm: Type.Literal('Ed25519'),
  keyId: Type.String({ description: 'first 16 hex digits of the SHA-256 of the public key (DER)' }),
  publicKey: Type.String({ description: 'PEM (SPKI); derived from the master key' }),
  signature: Type.String({ description: 'base64' }),
});

// SIEM destinations

const Backlog = Type.Object({
  queued: Type.Integer(),
  delivering: Type.Integer(),
  retrying: Type.Integer(),
  failed: Type.Integer(),
  paused: Type.Integer(),
});

export const Destination = NamedObject('SiemDestination', {
  id: Uuid(),
  name: Type.String(),
  kind: Type.String(),
  enabled: Type.Boolean(),
  url: Nullable(Type.String()),
  host: Nullable(Type.String()),
  port: Nullable(Type.Integer()),
  tls: Nullable(Type.Boolean()),
  hasCaPem: Type.Boolean(),
  index: Nullable(Type.String()),
  sourcetype: Nullable(Type.String()),
  source: Nullable(Type.String()),
  facility: Nullable(Type.Integer()),
  appName: Nullable(Type.String()),
  hasSecret: Type.Boolean(),
  batchSize: Type.Integer(),
  flushIntervalMs: Type.Integer(),
  maxAttempts: Type.Integer(),
  cursorSeq: Type.Integer(),
  health: Type.Object({
    status: Type.String(),
    circuit: Type.String(),
    circuitOpenUntil: NullableTimestamp,
    lastSuccessAt: NullableTimestamp,
    lastFailureAt: NullableTimestamp,
    lastError: Nullable(Type.String()),
    consecutiveFailures: Type.Integer(),
    backlog: Backlog,
  }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const DestinationListQuery = Type.Object({
  ...PaginationQueryFields,
  kind: Type.Optional(StringEnum(SIEM_KINDS)),
  enabled: Type.Optional(Type.Boolean()),
});

/** Settings every kind may send; which ones a kind takes is checked by the service. */
const DestinationFields = {
  enabled: Type.Optional(Type.Boolean()),
  url: Type.Optional(Type.String({ format: 'uri', maxLength: 2048, description: 'webhook and splunk_hec' })),
  host: Type.Optional(Type.String({ minLength: 1, maxLength: 253, description: 'syslog' })),
  port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535, description: 'syslog' })),
  tls: Type.Optional(Type.Boolean({ description: 'syslog over TLS' })),
  caPem: Type.Optional(
    Nullable(Type.String({ maxLength: 65536, description: 'syslog TLS: CA certificate(s) to trust, PEM' })),
  ),
  index: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 255, description: 'splunk_hec' }))),
  sourcetype: Type.Optional(
    Nullable(Type.String({ minLength: 1, maxLength: 255, description: 'splunk_hec' })),
  ),
  source: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 255, description: 'splunk_hec' }))),
  facility: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 23, description: 'syslog facility, default 13' }),
  ),
  appName: Type.Optional(Type.String({ minLength: 1, maxLength: 48, description: 'syslog APP-NAME' })),
  secret: Type.Optional(
    WriteOnly(
      Type.String({ minLength: 16, maxLength: 1024, description: 'webhook HMAC-SHA256 key (write-only)' }),
    ),
  ),
  token: Type.Optional(
    WriteOnly(Type.String({ minLength: 1, maxLength: 1024, description: 'Splunk HEC token (write-only)' })),
  ),
  batchSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
  flushIntervalMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 3_600_000 })),
  maxAttempts: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
};

export const NewDestination = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  kind: StringEnum(SIEM_KINDS),
  startFrom: Type.Optional(
    StringEnum(['now', 'beginning'] as const, 'export events from now (default) or all stored ones'),
  ),
  ...DestinationFields,
});

export const DestinationChanges = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  ...DestinationFields,
});

/** The answer of a change: the destination, and the credential the change dropped (its URL moved). */
export const DestinationChange = DataWithDroppedSecrets(Destination);

export const DestinationRemoval = Type.Object({ id: Uuid(), discardedDeliveries: Type.Integer() });

export const DestinationTestResult = Type.Object({
  destinationId: Uuid(),
  eventId: Uuid(),
  ok: Type.Boolean(),
  httpStatus: Nullable(Type.Integer()),
  error: Nullable(Type.String()),
  durationMs: Type.Integer(),
});

// SIEM deliveries

export const Delivery = NamedObject('SiemDelivery', {
  id: Uuid(),
  destinationId: Uuid(),
  status: Type.String(),
  eventCount: Type.Integer(),
  firstEventId: Uuid(),
  lastEventId: Uuid(),
  firstEventSeq: Type.Integer(),
  lastEventSeq: Type.Integer(),
  attempts: Type.Integer(),
  maxAttempts: Type.Integer(),
  lastError: Nullable(Type.String()),
  lastAttemptAt: NullableTimestamp,
  nextAttemptAt: NullableTimestamp,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  deliveredAt: NullableTimestamp,
});

export const DeliveryListQuery = Type.Object({
  ...PaginationQueryFields,
  destinationId: Type.Optional(Uuid()),
  status: Type.Optional(StringEnum(DELIVERY_STATUSES)),
});

/** The requeue route's id: any non-empty string (one that names nothing is a 404). */
export const RequeueParams = Type.Object({ id: Type.String({ minLength: 1 }) });

export type AuditEvent = Static<typeof AuditEvent>;
export type EventListQuery = Static<typeof EventListQuery>;
export type ChainBreak = Static<typeof ChainBreak>;
export type VerifyQuery = Static<typeof VerifyQuery>;
export type ChainReport = Static<typeof ChainReport>;
export type Checkpoint = Static<typeof Checkpoint>;
export type Destination = Static<typeof Destination>;
export type DestinationListQuery = Static<typeof DestinationListQuery>;
export type NewDestination = Static<typeof NewDestination>;
export type DestinationChanges = Static<typeof DestinationChanges>;
export type DestinationChange = Static<typeof DestinationChange>;
export type DestinationRemoval = Static<typeof DestinationRemoval>;
export type DestinationTestResult = Static<typeof DestinationTestResult>;
export type Delivery = Static<typeof Delivery>;
export type DeliveryListQuery = Static<typeof DeliveryListQuery>;
