import crypto from 'node:crypto';
import { and, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Actor, AuditActor } from '../../core/actor.js';
import { GENESIS_HASH } from '../../core/audit-recorder.js';
import { conflictOnDuplicate } from '../../core/db-errors.js';
import type { Deps } from '../../core/deps.js';
import { EgressDeniedError } from '../../core/egress-guard.js';
import { notFound, unprocessable, type ValidationIssue, validationError } from '../../core/errors.js';
import { isUuid } from '../../core/ids.js';
import { trimmedName } from '../../core/names.js';
import { fetchPage, type PageRequest } from '../../core/pagination.js';
import type { DbOrTx, Tx } from '../../db/client.js';
import {
  auditEvents,
  type DeliveryStatus,
  type SiemKind,
  type SiemSettings,
  siemDeliveries,
  siemDestinations,
} from '../../db/schema/index.js';
import { type ExportEvent, type SinkError, type SinkTarget, sendBatch } from './sinks.js';

export const SECRET_CONTEXT = 'siem_destinations.secret_sealed';

/** Deliveries that have not reached an end state; deleting their destination discards them. */
const OPEN_STATUSES: DeliveryStatus[] = ['queued', 'delivering', 'retrying', 'paused', 'failed'];

export interface DestinationFields {
  name?: string | undefined;
  enabled?: boolean | undefined;
  url?: string | undefined;
  host?: string | undefined;
  port?: number | undefined;
  tls?: boolean | undefined;
  caPem?: string | null | undefined;
  index?: string | null | undefined;
  sourcetype?: string | null | undefined;
  source?: string | null | undefined;
  facility?: number | undefined;
  appName?: string | undefined;
  /** Webhook HMAC signing secret (write-only). */
  secret?: string | undefined;
  /** Splunk HEC token (write-only). */
  token?: string | undefined;
  batchSize?: number | undefined;
  flushIntervalMs?: number | undefined;
  maxAttempts?: number | undefined;
}

/** The write-only credential a kind takes: the webhook's signing secret or the HEC token; syslog has none. */
function credentialOf(kind: SiemKind, input: DestinationFields): string | undefined {
  if (kind === 'webhook') return input.secret;
  if (kind === 'splunk_hec') return input.token;
  return undefined;
}

export interface NewDestination extends DestinationFields {
  name: string;
  kind: SiemKind;
  startFrom?: 'now' | 'beginning' | undefined;
}

type DestinationRow = typeof siemDestinations.$inferSelect;

export interface DestinationView {
  id: string;
  name: string;
  kind: SiemKind;
  enabled: boolean;
  url: string | null;
  host: string | null;
  port: number | null;
  tls: boolean | null;
  hasCaPem: boolean;
  index: string | null;
  sourcetype: string | null;
  source: string | null;
  facility: number | null;
  appName: string | null;
  hasSecret: boolean;
  batchSize: number;
  flushIntervalMs: number;
  maxAttempts: number;
  cursorSeq: number;
  health: {
    status: 'healthy' | 'degraded' | 'down' | 'disabled';
    circuit: 'closed' | 'open' | 'half_open';
    circuitOpenUntil: Date | null;
    lastSuccessAt: Date | null;
    lastFailureAt: Date | null;
    lastError: string | null;
    consecutiveFailures: number;
    backlog: Record<'queued' | 'delivering' | 'retrying' | 'failed' | 'paused', number>;
  };
  createdAt: Date;
  updatedAt: Date;
}

/** Which settings each kind takes, and which are required. */
const KIND_FIELDS: Record<
  SiemKind,
  { required: (keyof DestinationFields)[]; allowed: (keyof DestinationFields)[] }
> = {
  webhook: { required: ['url', 'secret'], allowed: ['url', 'secret'] },
  splunk_hec: { required: ['url', 'token'], allowed: ['url', 'token', 'index', 'sourcetype', 'source'] },
  syslog: { required: ['host', 'port'], allowed: ['host', 'port', 'tls', 'caPem', 'facility', 'appName'] },
};
const KIND_SPECIFIC: (keyof DestinationFields)[] = [
  'url',
  'host',
  'port',
  'tls',
  'caPem',
  'index',
  'sourcetype',
  'source',
  'facility',
  'appName',
  'secret',
  'token',
];

export function destinationTarget(row: DestinationRow, open: (sealed: string) => string): SinkTarget {
  return { kind: row.kind, settings: row.settings, secret: row.secretSealed ? open(row.secretSealed) : null };
}

/** SIEM destinations: where audit events are exported, with credentials sealed and never shown. */
export class DestinationService {
  constructor(private readonly deps: Pick<Deps, 'db' | 'audit' | 'secrets' | 'egress' | 'config'>) {}

  async list(request: PageRequest & { kind?: SiemKind | undefined; enabled?: boolean | undefined }) {
    const conditions = [isNull(siemDestinations.deletedAt)];
    if (request.kind) conditions.push(eq(siemDestinations.kind, request.kind));
    if (request.enabled !== undefined) conditions.push(eq(siemDestinations.enabled, request.enabled));
    const where = and(...conditions);
    const page = await fetchPage(
      request,
      ({ limit, offset }) =>
        this.deps.db
          .select()
          .from(siemDestinations)
          .where(where)
          .orderBy(siemDestinations.name)
          .limit(limit)
          .offset(offset),
      this.deps.db.select({ value: count() }).from(siemDestinations).where(where),
    );
    const backlogs = await this.backlogs(
      this.deps.db,
      page.data.map((row) => row.id),
    );
    return { ...page, data: page.data.map((row) => toView(row, backlogs.get(row.id))) };
  }

  async get(id: string, db: DbOrTx = this.deps.db): Promise<DestinationView> {
    const row = await this.findRow(db, id);
    const backlogs = await this.backlogs(db, [row.id]);
    return toView(row, backlogs.get(row.id));
  }

  async create(actor: AuditActor, input: NewDestination): Promise<DestinationView> {
    const name = trimmedName(input.name);
    checkKindFields(input.kind, input, true);
    const settings = buildSettings(input.kind, {}, input);
    await this.checkEgress(settings);
    const { siem } = this.deps.config;
    const secret = credentialOf(input.kind, input);
    return this.deps.db.transaction(async (tx) => {
      const [head] = await tx
        .select({ seq: sql<number>`coalesce(max(${auditEvents.seq}), 0)`.mapWith(Number) })
        .from(auditEvents);
      const [row] = (await conflictOnDuplicate(
        tx
          .insert(siemDestinations)
          .values({
            name,
            kind: input.kind,
            enabled: input.enabled ?? true,
            settings,
            secretSealed: secret === undefined ? null : this.deps.secrets.seal(secret, SECRET_CONTEXT),
            batchSize: input.batchSize ?? siem.batchSize,
            flushIntervalMs: input.flushIntervalMs ?? siem.flushIntervalMs,
            maxAttempts: input.maxAttempts ?? siem.maxAttempts,
            cursorSeq: input.startFrom === 'beginning' ? 0 : (head?.seq ?? 0),
          })
          .returning(),
        'DESTINATION_NAME_TAKEN',
        { name },
      )) as [DestinationRow];
      await this.deps.audit.record(tx, actor, {
        action: 'audit.siem_destination.created',
        targetType: 'siem_destination',
        targetId: row.id,
        metadata: {
          name,
          kind: row.kind,
          enabled: row.enabled,
          ...describeSettings(settings),
          startFrom: input.startFrom ?? 'now',
        },
      });
      return toView(row, undefined);
    });
  }

  async update(actor: AuditActor, id: string, input: DestinationFields): Promise<DestinationView> {
    const current = await this.findRow(this.deps.db, id);
    checkKindFields(current.kind, input, false);
    const settings = buildSettings(current.kind, current.settings, input);
    if (settings.caPem && !settings.tls)
      throw validationError([{ path: ['caPem'], message: 'needs tls: true' }]);
    const connectionChanged = KIND_SPECIFIC.some((key) => input[key] !== undefined);
    if (connectionChanged) await this.checkEgress(settings);
    const secret = credentialOf(current.kind, input);
    const name = input.name === undefined ? undefined : trimmedName(input.name);
    return this.deps.db.transaction(async (tx) => {
      const values: Partial<typeof siemDestinations.$inferInsert> = { settings, updatedAt: new Date() };
      if (name !== undefined) values.name = name;
      if (input.enabled !== undefined) values.enabled = input.enabled;
      if (input.batchSize !== undefined) values.batchSize = input.batchSize;
      if (input.flushIntervalMs !== undefined) values.flushIntervalMs = input.flushIntervalMs;
      if (input.maxAttempts !== undefined) values.maxAttempts = input.maxAttempts;
      if (secret !== undefined) values.secretSealed = this.deps.secrets.seal(secret, SECRET_CONTEXT);
      const reenabled = input.enabled === true && !current.enabled;
      if (connectionChanged || reenabled) {
        // A fixed or re-enabled destination is tried at once instead of waiting out its breaker.
        values.circuitOpenUntil = null;
        values.consecutiveFailures = 0;
      }
      const [row] = await conflictOnDuplicate(
        tx
          .update(siemDestinations)
          .set(values)
          .where(and(eq(siemDestinations.id, id), isNull(siemDestinations.deletedAt)))
          .returning({ id: siemDestinations.id }),
        'DESTINATION_NAME_TAKEN',
        { name },
      );
      if (!row) throw notFound({ destinationId: id });
      let moved = 0;
      if (input.enabled === false && current.enabled)
        moved = await this.moveDeliveries(tx, id, ['queued', 'retrying'], 'paused');
      if (reenabled) moved = await this.moveDeliveries(tx, id, ['paused'], 'queued');
      if (connectionChanged) {
        await tx
          .update(siemDeliveries)
          .set({ nextAttemptAt: new Date() })
          .where(and(eq(siemDeliveries.destinationId, id), eq(siemDeliveries.status, 'retrying')));
      }
      await this.deps.audit.record(tx, actor, {
        action: 'audit.siem_destination.updated',
        targetType: 'siem_destination',
        targetId: id,
        metadata: {
          ...(name !== undefined ? { name } : {}),
          ...(input.enabled !== undefined ? { enabled: input.enabled, deliveriesMoved: moved } : {}),
          ...(connectionChanged ? describeSettings(settings) : {}),
          ...(secret !== undefined ? { credentialRotated: true } : {}),
          ...pick(input, ['batchSize', 'flushIntervalMs', 'maxAttempts']),
        },
      });
      return this.get(id, tx);
    });
  }

  async remove(actor: AuditActor, id: string): Promise<{ id: string; discardedDeliveries: number }> {
    if (!isUuid(id)) throw notFound({ destinationId: id });
    return this.deps.db.transaction(async (tx) => {
      const [row] = await tx
        .update(siemDestinations)
        .set({ deletedAt: new Date(), enabled: false, updatedAt: new Date() })
        .where(and(eq(siemDestinations.id, id), isNull(siemDestinations.deletedAt)))
        .returning({ id: siemDestinations.id, name: siemDestinations.name });
      if (!row) throw notFound({ destinationId: id });
      const discarded = await this.moveDeliveries(tx, id, OPEN_STATUSES, 'discarded');
      await this.deps.audit.record(tx, actor, {
        action: 'audit.siem_destination.deleted',
        targetType: 'siem_destination',
        targetId: id,
        metadata: { name: row.name, discardedDeliveries: discarded },
      });
      return { id, discardedDeliveries: discarded };
    });
  }

  /** Sends one synthetic event now and reports what the receiver did; nothing is queued. */
  async test(actor: Actor, id: string) {
    const row = await this.findRow(this.deps.db, id);
    const event: ExportEvent = {
      id: crypto.randomUUID(),
      seq: 0,
      occurredAt: new Date().toISOString(),
      actorId: actor.userId,
      actorEmail: actor.email,
      action: 'audit.siem.test',
      targetType: 'siem_destination',
      targetId: row.id,
      outcome: 'success',
      requestId: actor.requestId,
      clientIp: actor.clientIp,
      metadata: { test: true, destinationName: row.name },
      prevHash: GENESIS_HASH,
      hash: GENESIS_HASH,
    };
    const started = performance.now();
    let outcome: { ok: boolean; httpStatus: number | null; error: string | null };
    try {
      const target = destinationTarget(row, (sealed) => this.deps.secrets.open(sealed, SECRET_CONTEXT));
      const sent = await sendBatch(this.deps.egress, target, [event], {
        deliveryId: crypto.randomUUID(),
        timeoutMs: this.deps.config.siem.sendTimeoutMs,
      });
      outcome = { ok: true, httpStatus: sent.httpStatus, error: null };
    } catch (error) {
      const failure = error as SinkError;
      outcome = { ok: false, httpStatus: failure.httpStatus ?? null, error: failure.message };
    }
    const durationMs = Math.round(performance.now() - started);
    await this.deps.audit.recordAlone(this.deps.db, actor, {
      action: 'audit.siem_destination.tested',
      targetType: 'siem_destination',
      targetId: row.id,
      outcome: outcome.ok ? 'success' : 'failure',
      metadata: { ...outcome, durationMs, eventId: event.id },
    });
    return { destinationId: row.id, eventId: event.id, ...outcome, durationMs };
  }

  private async findRow(db: DbOrTx, id: string): Promise<DestinationRow> {
    const [row] = isUuid(id)
      ? await db
          .select()
          .from(siemDestinations)
          .where(and(eq(siemDestinations.id, id), isNull(siemDestinations.deletedAt)))
      : [];
    if (!row) throw notFound({ destinationId: id });
    return row;
  }

  private async moveDeliveries(
    tx: Tx,
    id: string,
    from: DeliveryStatus[],
    to: DeliveryStatus,
  ): Promise<number> {
    const moved = await tx
      .update(siemDeliveries)
      .set({
        status: to,
        updatedAt: new Date(),
        claimToken: null,
        leaseExpiresAt: null,
        ...(to === 'queued' ? { nextAttemptAt: new Date() } : {}),
      })
      .where(and(eq(siemDeliveries.destinationId, id), inArray(siemDeliveries.status, from)))
      .returning({ id: siemDeliveries.id });
    return moved.length;
  }

  private async backlogs(db: DbOrTx, ids: string[]) {
    const result = new Map<string, Record<string, number>>();
    if (ids.length === 0) return result;
    const rows = await db
      .select({ destinationId: siemDeliveries.destinationId, status: siemDeliveries.status, n: count() })
      .from(siemDeliveries)
      .where(and(inArray(siemDeliveries.destinationId, ids), inArray(siemDeliveries.status, OPEN_STATUSES)))
      .groupBy(siemDeliveries.destinationId, siemDeliveries.status);
    for (const row of rows) {
      const entry = result.get(row.destinationId) ?? {};
      entry[row.status] = Number(row.n);
      result.set(row.destinationId, entry);
    }
    return result;
  }

  /** A destination whose address the egress policy refuses is refused when saved, not at 3 a.m. */
  private async checkEgress(settings: SiemSettings): Promise<void> {
    const host = settings.url ? new URL(settings.url).hostname : settings.host;
    if (!host) return;
    try {
      await this.deps.egress.resolve(host);
    } catch (error) {
      if (error instanceof EgressDeniedError) {
        throw unprocessable('EGRESS_DENIED', error.message, { host, rule: error.rule });
      }
      // A name that does not resolve yet is allowed: deliveries retry and report it.
    }
  }
}

function pick<T extends object>(value: T, keys: (keyof T)[]): Partial<T> {
  return Object.fromEntries(
    keys.filter((key) => value[key] !== undefined).map((key) => [key, value[key]]),
  ) as Partial<T>;
}

/** Settings as they may appear in an audit event: no credentials, no certificate bodies. */
function describeSettings(settings: SiemSettings): Record<string, unknown> {
  const { caPem, ...rest } = settings;
  return { ...rest, ...(caPem ? { hasCaPem: true } : {}) };
}

function checkKindFields(kind: SiemKind, input: DestinationFields, creating: boolean): void {
  const rules = KIND_FIELDS[kind];
  const issues: ValidationIssue[] = [];
  for (const key of KIND_SPECIFIC) {
    const given = input[key] !== undefined;
    if (given && !rules.allowed.includes(key))
      issues.push({ path: [key], message: `is not used by kind ${kind}` });
    if (creating && !given && rules.required.includes(key))
      issues.push({ path: [key], message: `is required for kind ${kind}` });
  }
  if (input.url !== undefined) {
    const url = new URL(input.url);
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      issues.push({ path: ['url'], message: 'must be an http or https URL' });
    if (url.username || url.password) {
      issues.push({ path: ['url'], message: 'must not carry credentials; use the secret or token field' });
    }
  }
  if (creating && input.caPem && !input.tls) issues.push({ path: ['caPem'], message: 'needs tls: true' });
  if (input.caPem) {
    try {
      new crypto.X509Certificate(input.caPem);
    } catch {
      issues.push({ path: ['caPem'], message: 'is not a PEM certificate' });
    }
  }
  if (issues.length > 0) throw validationError(issues);
}

function buildSettings(kind: SiemKind, current: SiemSettings, input: DestinationFields): SiemSettings {
  const next: SiemSettings = { ...current };
  const assign = <K extends keyof SiemSettings>(key: K, value: SiemSettings[K] | null | undefined) => {
    if (value === null) delete next[key];
    else if (value !== undefined) next[key] = value;
  };
  if (kind === 'syslog') {
    assign('host', input.host?.trim());
    assign('port', input.port);
    assign('tls', input.tls ?? (current.tls === undefined ? false : undefined));
    assign('caPem', input.caPem);
    assign('facility', input.facility);
    assign('appName', input.appName);
  } else {
    assign('url', input.url);
    if (kind === 'splunk_hec') {
      assign('index', input.index);
      assign('sourcetype', input.sourcetype);
      assign('source', input.source);
    }
  }
  return next;
}

function toView(row: DestinationRow, backlog: Record<string, number> | undefined): DestinationView {
  const now = Date.now();
  const s = row.settings;
  const circuit =
    row.circuitOpenUntil === null ? 'closed' : row.circuitOpenUntil.getTime() > now ? 'open' : 'half_open';
  const status = !row.enabled
    ? 'disabled'
    : circuit !== 'closed'
      ? 'down'
      : row.consecutiveFailures > 0
        ? 'degraded'
        : 'healthy';
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    enabled: row.enabled,
    url: s.url ?? null,
    host: s.host ?? null,
    port: s.port ?? null,
    tls: row.kind === 'syslog' ? (s.tls ?? false) : null,
    hasCaPem: Boolean(s.caPem),
    index: s.index ?? null,
    sourcetype: s.sourcetype ?? null,
    source: s.source ?? null,
    facility: row.kind === 'syslog' ? (s.facility ?? 13) : null,
    appName: row.kind === 'syslog' ? (s.appName ?? 'infragate') : null,
    hasSecret: row.secretSealed !== null,
    batchSize: row.batchSize,
    flushIntervalMs: row.flushIntervalMs,
    maxAttempts: row.maxAttempts,
    cursorSeq: row.cursorSeq,
    health: {
      status,
      circuit,
      circuitOpenUntil: row.circuitOpenUntil,
      lastSuccessAt: row.lastSuccessAt,
      lastFailureAt: row.lastFailureAt,
      lastError: row.lastError,
      consecutiveFailures: row.consecutiveFailures,
      backlog: {
        queued: backlog?.queued ?? 0,
        delivering: backlog?.delivering ?? 0,
        retrying: backlog?.retrying ?? 0,
        failed: backlog?.failed ?? 0,
        paused: backlog?.paused ?? 0,
      },
    },
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
