import { asc, count, desc, eq, gt, isNotNull, isNull } from 'drizzle-orm';
import { chainHash, GENESIS_HASH } from '../../core/audit-recorder.js';
import type { Deps } from '../../core/deps.js';
import { validationError } from '../../core/errors.js';
import type { DbOrTx } from '../../db/client.js';
import { auditEvents } from '../../db/schema/index.js';
import type { CheckpointSigner } from './checkpoint-signer.js';
import type { EventRow } from './events.js';
import type { ChainBreak, ChainReport, Checkpoint, VerifyQuery } from './schemas.js';

const VERIFY_CHUNK = 5000;

interface SequencedRow extends EventRow {
  seq: number;
  prevHash: string;
  hash: string;
}

/** Verifying the hash chain and publishing signed checkpoints of its head. */
export class AuditChainService {
  constructor(private readonly deps: Pick<Deps, 'db'> & { signer: CheckpointSigner }) {}

  /**
   * Walks the sequenced events in seq order and reports the first link that does not hold; with a
   * checkpoint kept from earlier, also that the event at its seq still has its hash (a log rewritten
   * from there on, with every hash recomputed, passes the walk but not this). Events not yet
   * sequenced are counted, not checked: they have no place in the chain yet.
   */
  async verify(query: VerifyQuery): Promise<ChainReport> {
    const checkpoint = readCheckpoint(query);
    return this.inOneSnapshot((db) => this.walk(db, { seq: 0, hash: GENESIS_HASH }, checkpoint));
  }

  /**
   * Verifies only what was added after a head verified earlier (`from`, e.g. the last report's
   * `headSeq` and `headHash`): the event at `from.seq` must still have that hash and still give it,
   * and the chain must link on from it. A change to an older event is not seen: only `verify` walks
   * those. `checkedEvents` counts the events after `from`.
   */
  async verifySince(from: { seq: number; hash: string }): Promise<ChainReport> {
    if (from.seq === 0) return this.verify({});
    return this.inOneSnapshot(async (db) => {
      const [row] = (await db
        .select()
        .from(auditEvents)
        .where(eq(auditEvents.seq, from.seq))) as SequencedRow[];
      const broken = !row
        ? checkpointMissing(from.seq, (await this.head(db))?.seq ?? 0)
        : row.hash !== from.hash
          ? checkpointMismatch(row, from.hash)
          : checkLink(row, from.seq, row.prevHash);
      if (broken)
        return { ...(await this.report(db, 0, row ?? null)), valid: false, firstBrokenLink: broken };
      return this.walk(db, from);
    });
  }

  /**
   * A report's reads in one read-only snapshot: read one by one, a batch the sequencer committed
   * between the walk and the count of the unsequenced would be in neither.
   */
  private inOneSnapshot(read: (db: DbOrTx) => Promise<ChainReport>): Promise<ChainReport> {
    return this.deps.db.transaction(read, { isolationLevel: 'repeatable read', accessMode: 'read only' });
  }

  /** Walks from the event after `from` (seq 0 and the genesis hash: the whole chain). */
  private async walk(
    db: DbOrTx,
    from: { seq: number; hash: string },
    checkpoint?: { seq: number; hash: string },
  ) {
    let prevHash = from.hash;
    let expectedSeq = from.seq + 1;
    let checked = 0;
    let head: SequencedRow | null = null;
    let checkpointSeen = false;
    const report = async (broken: ChainBreak | null): Promise<ChainReport> => ({
      ...(await this.report(db, checked, head ?? (from.seq > 0 ? { seq: from.seq, hash: from.hash } : null))),
      valid: broken === null,
      firstBrokenLink: broken,
    });
    for (;;) {
      const rows = (await db
        .select()
        .from(auditEvents)
        .where(gt(auditEvents.seq, expectedSeq - 1))
        .orderBy(asc(auditEvents.seq))
        .limit(VERIFY_CHUNK)) as SequencedRow[];
      for (const row of rows) {
        const broken = checkLink(row, expectedSeq, prevHash);
        if (broken) return report(broken);
        if (checkpoint && row.seq === checkpoint.seq) {
          if (row.hash !== checkpoint.hash) return report(checkpointMismatch(row, checkpoint.hash));
          checkpointSeen = true;
        }
        prevHash = row.hash;
        expectedSeq = row.seq + 1;
        checked += 1;
        head = row;
      }
      if (rows.length < VERIFY_CHUNK) break;
    }
    if (checkpoint && !checkpointSeen) return report(checkpointMissing(checkpoint.seq, head?.seq ?? 0));
    return report(null);
  }

  /** The parts of a report every outcome has: what was checked, the head reached, the unsequenced. */
  private async report(
    db: DbOrTx,
    checkedEvents: number,
    head: { seq: number; hash: string } | null,
  ): Promise<Omit<ChainReport, 'valid' | 'firstBrokenLink'>> {
    return {
      checkedEvents,
      headSeq: head?.seq ?? null,
      headHash: head?.hash ?? null,
      unsequencedEvents: await this.countUnsequenced(db),
      verifiedAt: new Date(),
    };
  }

  /** The chain's head (seq 0 and the genesis hash while nothing is sequenced), signed. */
  async checkpoint(): Promise<Checkpoint> {
    const head = await this.head(this.deps.db);
    return this.deps.signer.sign(head?.seq ?? 0, head?.hash ?? GENESIS_HASH);
  }

  private async head(db: DbOrTx): Promise<{ seq: number; hash: string } | undefined> {
    const [head] = await db
      .select({ seq: auditEvents.seq, hash: auditEvents.hash })
      .from(auditEvents)
      .where(isNotNull(auditEvents.seq))
      .orderBy(desc(auditEvents.seq))
      .limit(1);
    return head ? { seq: head.seq!, hash: head.hash! } : undefined;
  }

  private async countUnsequenced(db: DbOrTx): Promise<number> {
    const [row] = await db.select({ value: count() }).from(auditEvents).where(isNull(auditEvents.seq));
    return row?.value ?? 0;
  }
}

function readCheckpoint(query: VerifyQuery): { seq: number; hash: string } | undefined {
  const { checkpointSeq: seq, checkpointHash: hash } = query;
  if (seq === undefined && hash === undefined) return undefined;
  if (seq === undefined || hash === undefined) {
    throw validationError([
      {
        path: [seq === undefined ? 'checkpointSeq' : 'checkpointHash'],
        message: 'is required with the other checkpoint field',
      },
    ]);
  }
  return { seq, hash: hash.toLowerCase() };
}

function checkLink(row: SequencedRow, expectedSeq: number, prevHash: string): ChainBreak | null {
  if (row.seq !== expectedSeq) {
    return {
      seq: expectedSeq,
      id: null,
      reason: 'SEQ_GAP',
      explanation: `event ${expectedSeq} is missing: the next stored event is ${row.seq}`,
      expected: String(expectedSeq),
      actual: String(row.seq),
    };
  }
  if (row.prevHash !== prevHash) {
    return {
      seq: row.seq,
      id: row.id,
      reason: 'PREV_HASH_MISMATCH',
      explanation: `event ${row.seq} does not link to the hash of event ${row.seq - 1}`,
      expected: prevHash,
      actual: row.prevHash,
    };
  }
  const recomputed = chainHash(prevHash, row);
  if (recomputed !== row.hash) {
    return {
      seq: row.seq,
      id: row.id,
      reason: 'HASH_MISMATCH',
      explanation: `event ${row.seq} was changed after it was written: its content no longer gives its hash`,
      expected: recomputed,
      actual: row.hash,
    };
  }
  return null;
}

function checkpointMismatch(row: SequencedRow, expected: string): ChainBreak {
  return {
    seq: row.seq,
    id: row.id,
    reason: 'CHECKPOINT_MISMATCH',
    explanation: `event ${row.seq} no longer has the hash the checkpoint recorded: the log was rewritten from there or earlier`,
    expected,
    actual: row.hash,
  };
}

function checkpointMissing(seq: number, headSeq: number): ChainBreak {
  return {
    seq,
    id: null,
    reason: 'CHECKPOINT_MISSING',
    explanation: `the checkpoint names event ${seq} but the chain ends at ${headSeq}: events were removed from its end`,
    expected: String(seq),
    actual: String(headSeq),
  };
}
