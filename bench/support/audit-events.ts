import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { chainHash, GENESIS_HASH } from '../../src/core/audit-recorder.js';
import type { Database } from '../../src/db/client.js';
import { auditEvents } from '../../src/db/schema/index.js';

const BATCH = 1000;

/** Commits `count` chained events after the head in multi-row inserts of 1,000 (the chain stays valid). */
export async function insertChainedEvents(database: Database, count: number): Promise<void> {
  let prevHash = GENESIS_HASH;
  const [head] = await database.db
    .execute(
      sql`select coalesce(max(seq), 0) as seq, (select hash from audit_events order by seq desc limit 1) as hash from audit_events`,
    )
    .then((r) => (r as unknown as { rows: { seq: string; hash: string | null }[] }).rows);
  let seq = Number(head?.seq ?? 0);
  if (head?.hash) prevHash = head.hash;
  for (let done = 0; done < count; done += BATCH) {
    const rows = [];
    for (let i = 0; i < Math.min(BATCH, count - done); i++) {
      seq += 1;
      const fields = {
        id: crypto.randomUUID(),
        seq,
        occurredAt: new Date(),
        actorId: null,
        actorEmail: 'system',
        action: 'bench.event.made',
        targetType: 'bench',
        targetId: String(seq),
        outcome: 'success' as const,
        requestId: crypto.randomUUID(),
        clientIp: '127.0.0.1',
        metadata: { index: seq, note: 'a typical small change description' },
      };
      const hash = chainHash(prevHash, fields);
      rows.push({ ...fields, prevHash, hash });
      prevHash = hash;
    }
    await database.db.insert(auditEvents).values(rows);
  }
}
