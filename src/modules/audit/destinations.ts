import crypto from 'node:crypto';
import { and, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Actor, AuditActor } from '../../core/actor.js';
import { GENESIS_HASH } from '../../core/audit-recorder.js';
import { conflictOnDuplicate } from '../../core/db-errors.js';
import type { Deps } from '../../core/deps.js';
import { EgressDeniedError } from '../../core/egress-guard.js';
import { notFound, unprocessable } from '../../core/errors.js';
import { isUuid } from '../../core/ids.js';
import { trimmedName } from '../../core/names.js';
import { fetchPage } from '../../core/pagination.js';
import { droppedSecretsNote, withDroppedSecrets } from '../../core/trust-boundary.js';
import type { DbOrTx, Tx } from '../../db/client.js';
import {
  auditEvents,
  type DeliveryStatus,
  type SiemSettings,
  siemDeliveries,
  siemDestinations,
} from '../../db/schema/index.js';
import {
  buildSettings,
  checkKindFields,
  credentialOf,
  describeSettings,
  destinationTarget,
  droppedCredential,
  KIND_SPECIFIC,
  SECRET_CONTEXT,
} from './destination-settings.js';
import { toDestination } from './destination-view.js';
import type {
  AuditEvent,
  Destination,
  DestinationChange,
  DestinationChanges,
  DestinationListQuery,
  DestinationRemoval,
  DestinationTestResult,
  NewDestination,
} from './schemas.js';
import { type SinkError, sendBatch } from './sinks.js';

/** Deliveries that have not reached an end state; deleting their destination discards them. */
const OPEN_STATUSES: DeliveryStatus[] = ['queued', 'delivering', 'retrying', 'paused', 'failed'];

type DestinationRow = typeof siemDestinations.$inferSelect;

/** SIEM destinations: where audit events are exported, with credentials sealed and never shown. */
export class DestinationService {
  constructor(
    private readonly deps: Pick<Deps, 'db' | 'audit' | 'sequencer' | 'secrets' | 'egress' | 'config'>,
  ) {}

  async list(request: DestinationListQuery) {
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
    return { ...page, data: page.data.map((row) => toDestination(row, backlogs.get(row.id))) };
  }

  async get(id: string, db: DbOrTx = this.deps.db): Promise<Destination> {
    const row = await this.findRow(db, id);
    const backlogs = await this.backlogs(db, [row.id]);
    return toDestination(row, backlogs.get(row.id));
  }

  async create(actor: AuditActor, input: NewDestination): Promise<Destination> {
    const name = trimmedName(input.name);
    checkKindFields(input.kind, input, true);
    const settings = buildSettings(input.kind, {}, input);
    await this.checkEgress(settings);
    const { siem } = this.deps.config;
    const secret = credentialOf(input.kind, input);
    // "From now" means after every event committed so far, sequenced or not yet.
    if (input.startFrom !== 'beginning') await this.deps.sequencer.settle();
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
      return toDestination(row, undefined);
    });
  }

  async update(actor: AuditActor, id: string, input: DestinationChanges): Promise<DestinationChange> {
    const before = await this.findRow(this.deps.db, id);
    checkKindFields(before.kind, input, false);
    const connectionChanged = KIND_SPECIFIC.some((key) => input[key] !== undefined);
    const planned = buildSettings(before.kind, before.settings, input);
    // Checked before the transaction: a DNS lookup must not hold the row (or PGlite) locked.
    if (connectionChanged) await this.checkEgress(planned);
    const secret = credentialOf(before.kind, input);
    const name = input.name === undefined ? undefined : trimmedName(input.name);
    return this.deps.db.transaction(async (tx) => {
      // The credential kept or dropped is decided on the row as it is now, not as read above.
      const current = await this.findRow(tx, id, true);
      const settings = buildSettings(current.kind, current.settings, input);
      const dropped = droppedCredential(current, settings, input);
      const values: Partial<typeof siemDestinations.$inferInsert> = { settings, updatedAt: new Date() };
      if (name !== undefined) values.name = name;
      if (input.enabled !== undefined) values.enabled = input.enabled;
      if (input.batchSize !== undefined) values.batchSize = input.batchSize;
      if (input.flushIntervalMs !== undefined) values.flushIntervalMs = input.flushIntervalMs;
      if (input.maxAttempts !== undefined) values.maxAttempts = input.maxAttempts;
      if (secret !== undefined) values.secretSealed = this.deps.secrets.seal(secret, SECRET_CONTEXT);
      if (dropped.length > 0) values.secretSealed = null;
      const reenabled = input.enabled === true && !current.enabled;
      if (connectionChanged || reenabled) {
        // A fixed or re-enabled destination is tried at once instead of waiting out its breaker.
        values.circuitOpenUntil = null;
        values.consecutiveFailures = 0;
      }
      await conflictOnDuplicate(
        tx.update(siemDestinations).set(values).where(eq(siemDestinations.id, id)),
        'DESTINATION_NAME_TAKEN',
        { name },
      );
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
          ...droppedSecretsNote(dropped),
          ...pick(input, ['batchSize', 'flushIntervalMs', 'maxAttempts']),
        },
      });
      return withDroppedSecrets(await this.get(id, tx), dropped);
    });
  }

  async remove(actor: AuditActor, id: string): Promise<DestinationRemoval> {
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
  async test(actor: Actor, id: string): Promise<DestinationTestResult> {
    const row = await this.findRow(this.deps.db, id);
    const event: AuditEvent = {
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

  private async findRow(db: DbOrTx, id: string, forUpdate = false): Promise<DestinationRow> {
    const query = db
      .select()
      .from(siemDestinations)
      .where(and(eq(siemDestinations.id, id), isNull(siemDestinations.deletedAt)));
    const [row] = isUuid(id) ? await (forUpdate ? query.for('update') : query) : [];
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
