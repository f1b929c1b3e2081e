import crypto from 'node:crypto';
import { type Placeholder, type SQL, sql, type WithSubquery } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client.js';
import { executeNamed } from '../db/raw.js';
import type { AuditOutcome } from '../db/schema/index.js';
import type { AuditActor } from './actor.js';
import type { AuditAction } from './audit-actions.js';
import { canonicalJson } from './canonical-json.js';

export const GENESIS_HASH = '0'.repeat(64);

export interface AuditEntry {
  /** `<area>.<thing>.<verb>`, e.g. `logging.schema_folder.moved`; one of `AUDIT_ACTIONS`. */
  action: AuditAction;
  targetType?: string;
  targetId?: string | null;
  outcome?: AuditOutcome;
  /** What changed, never a secret value. */
  metadata?: Record<string, unknown>;
}

/** What an event's hash covers: everything it records plus its place in the chain. */
export interface ChainedFields {
  id: string;
  seq: number;
  occurredAt: Date;
  actorId: string | null;
  actorEmail: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  outcome: AuditOutcome;
  requestId: string | null;
  clientIp: string | null;
  metadata: Record<string, unknown>;
}

/**
 * The link of one event: SHA-256 over the previous hash and the event's canonical form. Only the
 * chained fields count (a stored row's other columns, such as `entry`, are left out).
 */
export function chainHash(prevHash: string, event: ChainedFields): string {
  const body = canonicalJson({
    id: event.id,
    seq: event.seq,
    occurredAt: event.occurredAt.toISOString(),
    actorId: event.actorId,
    actorEmail: event.actorEmail,
    action: event.action,
    targetType: event.targetType,
    targetId: event.targetId,
    outcome: event.outcome,
    requestId: event.requestId,
    clientIp: event.clientIp,
    metadata: event.metadata,
  });
  // One-shot: every event is hashed by the sequencer, and again by each verification walk.
  return crypto.hash('sha256', `${prevHash}\n${body}`, 'hex');
}

type Listener = () => void;

/** A query drizzle can prepare (a select, insert, update or delete builder). */
interface PreparableQuery<T> {
  prepare(name: string): { execute(parameters: Record<string, unknown>): Promise<T[]> };
}

/**
 * Writes audit events inside the caller's transaction, so an event exists exactly when its change
 * committed. The insert takes no lock and reads nothing: the event's place in the hash chain (seq,
 * prevHash, hash) is given after the commit by the sequencer (`audit-sequencer.ts`).
 */
export class AuditRecorder {
  private readonly committed = new Set<Listener>();
  private readonly sequenced = new Set<Listener>();
  /** Transactions that wrote events and have not been seen to commit yet. */
  private readonly uncommitted = new WeakSet<object>();

  async record(tx: DbOrTx, actor: AuditActor, entry: AuditEntry): Promise<string> {
    const [id] = await this.recordMany(tx, [{ actor, entry }]);
    return id!;
  }

  /** An event with no change to commit alongside (a refusal, a test send): its own transaction. */
  recordAlone(db: Db, actor: AuditActor, entry: AuditEntry): Promise<string> {
    return db.transaction((tx) => this.record(tx, actor, entry));
  }

  /** Several events in one insert, kept in this order (high-rate writers such as the key-value console). */
  async recordMany(tx: DbOrTx, events: { actor: AuditActor; entry: AuditEntry }[]): Promise<string[]> {
    if (events.length === 0) return [];
    const rows = eventRows(events);
    await executeNamed(
      tx,
      'audit_insert_events',
      `${INSERT_EVENTS_BEFORE_ROWS}$1${INSERT_EVENTS_AFTER_ROWS}`,
      [JSON.stringify(rows)],
    );
    this.uncommitted.add(tx);
    return rows.map((row) => row.id);
  }

  /**
   * A change of one statement and its event, written as one prepared statement. `change` is an
   * insert, update or delete with RETURNING made into a CTE (`db.$with(…).as(…)`), its values given
   * as placeholders (`sql.placeholder(…)`); the event is inserted only if the change returned a row.
   * A statement is atomic, so no transaction is needed: one round trip to the database where BEGIN,
   * change, event and COMMIT take four. The statement is built once, and PostgreSQL parses and
   * plans it once per connection. `answer` selects what the caller wants from the statement, e.g.
   * `(query) => query.select().from(change)`. Answers a function that runs it and answers the
   * change's returned rows.
   */
  prepareChange<T>(
    db: Db,
    name: string,
    change: WithSubquery,
    answer: (query: ReturnType<Db['with']>) => PreparableQuery<T>,
  ): (parameters: Record<string, unknown>, actor: AuditActor, entry: AuditEntry) => Promise<T[]> {
    const recorded = db
      .$with('recorded', {})
      .as(insertEventsWhere(sql.placeholder('events'), sql`where exists (select 1 from ${change})`));
    const statement = answer(db.with(change, recorded)).prepare(`audited_change_${name}`);
    return async (parameters, actor, entry) => {
      const events = JSON.stringify(eventRows([{ actor, entry }]));
      const rows = await statement.execute({ ...parameters, events });
      if (rows.length > 0) emit(this.committed);
      return rows;
    };
  }

  /** Told by the database after each top-level transaction commits (see `Database.onCommit`). */
  transactionCommitted(tx: object): void {
    if (this.uncommitted.delete(tx)) emit(this.committed);
  }

  /** Told by the sequencer after it gave events their place in the chain. */
  chainExtended(): void {
    emit(this.sequenced);
  }

  /** A transaction that wrote events committed (in this process): the sequencer has work. */
  onCommitted(listener: Listener): () => void {
    return subscribe(this.committed, listener);
  }

  /** Events got their seq and hashes (in this process): readers of the chain, such as the exporter, have work. */
  onSequenced(listener: Listener): () => void {
    return subscribe(this.sequenced, listener);
  }
}

/** The stored form of events recorded together: one id each, one time for all. */
function eventRows(events: { actor: AuditActor; entry: AuditEntry }[]) {
  const occurredAt = new Date();
  return events.map(({ actor, entry }) => ({
    id: crypto.randomUUID(),
    occurredAt,
    actorId: actor.userId,
    actorEmail: actor.email,
    action: entry.action,
    targetType: entry.targetType ?? null,
    targetId: entry.targetId ?? null,
    outcome: entry.outcome ?? 'success',
    requestId: actor.requestId,
    clientIp: actor.clientIp,
    metadata: entry.metadata ?? {},
  }));
}

/**
 * Events are inserted from one JSON parameter (`eventRows`) whatever the batch: building a 12-column
 * insert through the query builder cost more CPU than anything else the audited request did. The
 * text goes around the parameter, so that the statement can run under a name or inside another.
 */
const INSERT_EVENTS_BEFORE_ROWS = `insert into audit_events
    (id, occurred_at, actor_id, actor_email, action, target_type, target_id, outcome, request_id,
     client_ip, metadata)
  select * from jsonb_to_recordset(`;
const INSERT_EVENTS_AFTER_ROWS = `::jsonb) as e(
    id uuid, "occurredAt" timestamptz, "actorId" uuid, "actorEmail" text, action text,
    "targetType" text, "targetId" text, outcome text, "requestId" text, "clientIp" text,
    metadata jsonb)`;

/** The insert of the events in `rows` (a placeholder for their JSON) if `condition` (a WHERE clause) holds. */
function insertEventsWhere(rows: Placeholder, condition: SQL): SQL {
  return sql`${sql.raw(INSERT_EVENTS_BEFORE_ROWS)}${rows}${sql.raw(INSERT_EVENTS_AFTER_ROWS)} ${condition}`;
}

function subscribe(listeners: Set<Listener>, listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function emit(listeners: Set<Listener>): void {
  for (const listener of listeners) queueMicrotask(listener);
}
