import { Type } from 'typebox';
import type { GatewayModule } from '../../core/app.js';
import { invalidField } from '../../core/errors.js';
import {
  DataOf,
  Nullable,
  NullableTimestamp,
  PageOf,
  StringEnum,
  Timestamp,
  TimestampText,
  Uuid,
} from '../../core/http-schemas.js';
import { PaginationQueryFields } from '../../core/pagination.js';
import { AUDIT_OUTCOMES, DELIVERY_STATUSES, SIEM_KINDS } from '../../db/schema/index.js';
import { DeliveryService } from './deliveries.js';
import { DestinationService } from './destinations.js';
import { AuditEventService } from './events.js';
import { SiemExporter } from './exporter.js';

const AuditEvent = Type.Object({
  id: Uuid(),
  seq: Type.Integer(),
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
  prevHash: Type.String(),
  hash: Type.String(),
});

const ChainReport = Type.Object({
  valid: Type.Boolean(),
  checkedEvents: Type.Integer(),
  headSeq: Nullable(Type.Integer()),
  headHash: Nullable(Type.String()),
  firstBrokenLink: Nullable(
    Type.Object({
      seq: Type.Integer(),
      id: Nullable(Type.String()),
      reason: Type.String(),
      explanation: Type.String(),
      expected: Type.String(),
      actual: Type.String(),
    }),
  ),
  verifiedAt: Timestamp,
});

const Backlog = Type.Object({
  queued: Type.Integer(),
  delivering: Type.Integer(),
  retrying: Type.Integer(),
  failed: Type.Integer(),
  paused: Type.Integer(),
});

const Destination = Type.Object({
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

const Delivery = Type.Object({
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
    Type.String({ minLength: 16, maxLength: 1024, description: 'webhook HMAC-SHA256 key (write-only)' }),
  ),
  token: Type.Optional(
    Type.String({ minLength: 1, maxLength: 1024, description: 'Splunk HEC token (write-only)' }),
  ),
  batchSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
  flushIntervalMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 3_600_000 })),
  maxAttempts: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
};

const IdParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

const view = { scope: 'audit:view' };
const manage = { scope: 'audit:manage' };
const tags = ['audit'];

/** The audit trail (read, verify) and its export to SIEM destinations with delivery records. */
const auditRoutes: GatewayModule = async (app) => {
  const { deps } = app;
  const exporter = new SiemExporter(deps);
  exporter.register();
  app.addHook('preClose', async () => exporter.stop());
  const events = new AuditEventService(deps.db);
  const destinations = new DestinationService(deps);
  const deliveries = new DeliveryService(deps.db, deps.audit, () => exporter.wake());

  app.get(
    '/api/audit/events',
    {
      config: view,
      schema: {
        tags,
        summary: 'List audit events, newest first',
        querystring: Type.Object({
          ...PaginationQueryFields,
          actor: Type.Optional(
            Type.String({ minLength: 1, maxLength: 320, description: 'email or user id' }),
          ),
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
        }),
        response: { 200: PageOf(AuditEvent) },
      },
    },
    async (request) => events.list(request.query),
  );

  app.get(
    '/api/audit/events/:id',
    {
      config: view,
      schema: {
        tags,
        summary: 'Get one audit event',
        params: IdParam,
        response: { 200: DataOf(AuditEvent) },
      },
    },
    async (request) => ({ data: await events.get(request.params.id) }),
  );

  app.get(
    '/api/audit/verify',
    {
      config: view,
      schema: {
        tags,
        summary: 'Walk the hash chain and report the first broken link',
        response: { 200: DataOf(ChainReport) },
      },
    },
    async () => ({ data: await events.verify() }),
  );

  app.get(
    '/api/audit/siem/destinations',
    {
      config: view,
      schema: {
        tags,
        summary: 'List SIEM destinations with their health',
        querystring: Type.Object({
          ...PaginationQueryFields,
          kind: Type.Optional(StringEnum(SIEM_KINDS)),
          enabled: Type.Optional(Type.Boolean()),
        }),
        response: { 200: PageOf(Destination) },
      },
    },
    async (request) => destinations.list(request.query),
  );

  app.post(
    '/api/audit/siem/destinations',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Create a SIEM destination',
        body: Type.Object({
          name: Type.String({ minLength: 1, maxLength: 255 }),
          kind: StringEnum(SIEM_KINDS),
          startFrom: Type.Optional(
            StringEnum(['now', 'beginning'] as const, 'export events from now (default) or all stored ones'),
          ),
          ...DestinationFields,
        }),
        response: { 201: DataOf(Destination) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({
        data: await destinations.create(request.actor, request.body),
      }),
  );

  app.get(
    '/api/audit/siem/destinations/:id',
    {
      config: view,
      schema: {
        tags,
        summary: 'Get a SIEM destination',
        params: IdParam,
        response: { 200: DataOf(Destination) },
      },
    },
    async (request) => ({ data: await destinations.get(request.params.id) }),
  );

  app.patch(
    '/api/audit/siem/destinations/:id',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Change a SIEM destination (disable pauses its deliveries, enable resumes them)',
        params: IdParam,
        body: Type.Object({
          name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
          ...DestinationFields,
        }),
        response: { 200: DataOf(Destination) },
      },
    },
    async (request) => ({ data: await destinations.update(request.actor, request.params.id, request.body) }),
  );

  app.delete(
    '/api/audit/siem/destinations/:id',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Delete a SIEM destination; its open deliveries become discarded',
        params: IdParam,
        response: { 200: DataOf(Type.Object({ id: Uuid(), discardedDeliveries: Type.Integer() })) },
      },
    },
    async (request) => ({ data: await destinations.remove(request.actor, request.params.id) }),
  );

  app.post(
    '/api/audit/siem/destinations/:id/test',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Send one test event now and report the outcome',
        params: IdParam,
        response: {
          200: DataOf(
            Type.Object({
              destinationId: Uuid(),
              eventId: Uuid(),
              ok: Type.Boolean(),
              httpStatus: Nullable(Type.Integer()),
              error: Nullable(Type.String()),
              durationMs: Type.Integer(),
            }),
          ),
        },
      },
    },
    async (request) => ({ data: await destinations.test(request.actor, request.params.id) }),
  );

  app.get(
    '/api/audit/siem/deliveries',
    {
      config: view,
      schema: {
        tags,
        summary: 'List SIEM delivery records, newest first',
        querystring: Type.Object({
          ...PaginationQueryFields,
          destinationId: Type.Optional(Uuid()),
          status: Type.Optional(StringEnum(DELIVERY_STATUSES)),
        }),
        response: { 200: PageOf(Delivery) },
      },
    },
    async (request) => deliveries.list(request.query),
  );

  app.get(
    '/api/audit/siem/deliveries/:id',
    {
      config: view,
      schema: {
        tags,
        summary: 'Get a SIEM delivery record',
        params: IdParam,
        response: { 200: DataOf(Delivery) },
      },
    },
    async (request) => ({ data: await deliveries.get(request.params.id) }),
  );

  app.post(
    '/api/audit/siem/deliveries/:id/requeue',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Requeue a failed delivery (fresh attempts, status queued)',
        params: Type.Object({ id: Type.String({ minLength: 1 }) }),
        response: { 200: DataOf(Delivery) },
      },
      // The body is optional; when one is sent it must be a JSON object (its fields are ignored).
      preValidation: async (request) => {
        const { body } = request;
        if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) {
          throw invalidField([], 'must be a JSON object when given');
        }
      },
    },
    async (request) => ({ data: await deliveries.requeue(request.actor, request.params.id) }),
  );
};

export default auditRoutes;
