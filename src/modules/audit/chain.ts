import { asc, count, desc, gt, isNotNull, isNull } from 'drizzle-orm';
import { chainHash, GENESIS_HASH } from '../../core/audit-recorder.js';
import type { Deps } from '../../core/deps.js';
import { validationError } from '../../core/errors.js';
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
    const unsequencedEvents = await this.countUnsequenced();
    let prevHash = GENESIS_HASH;
    let expectedSeq = 1;
    let checked = 0;
    let head: SequencedRow | undefined;
    let checkpointSeen = false;
    const report = (broken: ChainBreak | null): ChainReport => ({
      valid: broken === null,
      checkedEvents: checked,
      headSeq: head?.seq ?? null,
      headHash: head?.hash ?? null,
      unsequencedEvents,
      firstBrokenLink: broken,
      verifiedAt: new Date(),
    });
    for (;;) {
      const rows = (await this.deps.db
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

  /** The chain's head (seq 0 and the genesis hash while nothing is sequenced), signed. */
  async checkpoint(): Promise<Checkpoint> {
    const [head] = await this.deps.db
      .select({ seq: auditEvents.seq, hash: auditEvents.hash })
      .from(auditEvents)
      .where(isNotNull(auditEvents.seq))
      .orderBy(desc(auditEvents.seq))
      .limit(1);
    return this.deps.signer.sign(head?.seq ?? 0, head?.hash ?? GENESIS_HASH);
  }

  private async countUnsequenced(): Promise<number> {
    const [row] = await this.deps.db
      .select({ value: count() })
      .from(auditEvents)
      .where(isNull(auditEvents.seq));
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
