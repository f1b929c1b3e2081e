import crypto from 'node:crypto';
import { desc } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client.js';
import { lockForTransaction } from '../db/locks.js';
import { type AuditOutcome, auditEvents } from '../db/schema/index.js';
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

/** The link of one event: SHA-256 over the previous hash and the event's canonical form. */
export function chainHash(prevHash: string, event: ChainedFields): string {
  const body = canonicalJson({ ...event, occurredAt: event.occurredAt.toISOString() });
  return crypto.createHash('sha256').update(prevHash).update('\n').update(body).digest('hex');
}

type Listener = () => void;

/**
 * Writes audit events inside the caller's transaction, so an event exists exactly when its change
 * committed. The chain head is read under a transaction-scoped advisory lock, which orders writers
 * across connections and gateway processes.
 */
export class AuditRecorder {
  private readonly listeners = new Set<Listener>();

  async record(tx: DbOrTx, actor: AuditActor, entry: AuditEntry): Promise<string> {
    const [id] = await this.recordMany(tx, [{ actor, entry }]);
    return id!;
  }

  /** An event with no change to commit alongside (a refusal, a test send): its own transaction. */
  recordAlone(db: Db, actor: AuditActor, entry: AuditEntry): Promise<string> {
    return db.transaction((tx) => this.record(tx, actor, entry));
  }

  /**
   * Several events in one go, chained in order: one lock, one head read, one insert. For high-rate
   * writers such as the key-value console's group commit.
   */
  async recordMany(tx: DbOrTx, events: { actor: AuditActor; entry: AuditEntry }[]): Promise<string[]> {
    if (events.length === 0) return [];
    await lockForTransaction(tx, 'auditChain');
    const [head] = await tx
      .select({ seq: auditEvents.seq, hash: auditEvents.hash })
      .from(auditEvents)
      .orderBy(desc(auditEvents.seq))
      .limit(1);
    let seq = head?.seq ?? 0;
    let prevHash = head?.hash ?? GENESIS_HASH;
    const rows = events.map(({ actor, entry }) => {
      seq += 1;
      const fields: ChainedFields = {
        id: crypto.randomUUID(),
        seq,
        occurredAt: new Date(),
        actorId: actor.userId,
        actorEmail: actor.email,
        action: entry.action,
        targetType: entry.targetType ?? null,
        targetId: entry.targetId ?? null,
        outcome: entry.outcome ?? 'success',
        requestId: actor.requestId,
        clientIp: actor.clientIp,
        metadata: entry.metadata ?? {},
      };
      const hash = chainHash(prevHash, fields);
      const row = { ...fields, prevHash, hash };
      prevHash = hash;
      return row;
    });
    await tx.insert(auditEvents).values(rows);
    this.notify();
    return rows.map((row) => row.id);
  }

  /** Called after events may have been written (e.g. to wake an exporter). */
  onRecorded(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify(): void {
    for (const listener of this.listeners) queueMicrotask(listener);
  }
}
