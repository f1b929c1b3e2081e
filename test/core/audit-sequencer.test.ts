import crypto from 'node:crypto';
import { asc, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemActor } from '../../src/core/actor.js';
import { AuditRecorder, chainHash, GENESIS_HASH } from '../../src/core/audit-recorder.js';
import { AuditSequencer } from '../../src/core/audit-sequencer.js';
import { BackgroundJobs } from '../../src/core/background-jobs.js';
import type { Database } from '../../src/db/client.js';
import { auditEvents } from '../../src/db/schema/index.js';
import { otherWorkRunsDuring } from '../support/event-loop-turns.js';
import { openTestDatabase } from '../support/gateway.js';

let database: Database;
let recorder: AuditRecorder;
let sequencer: AuditSequencer;
let jobs: BackgroundJobs;
beforeAll(async () => {
  database = await openTestDatabase();
  recorder = new AuditRecorder();
  const log = { error: () => {} } as never;
  jobs = new BackgroundJobs({ log, db: database.db, instanceId: crypto.randomUUID() });
  sequencer = new AuditSequencer({ db: database.db, audit: recorder, jobs, log });
});
beforeEach(async () => {
  await database.db.execute(sql`drop trigger if exists fail_second on audit_events`);
  await database.db.execute(sql`delete from audit_events`);
});
afterAll(async () => {
  await jobs.stop();
  await database.close();
});

const entry = (n: number) => ({
  action: 'audit.siem.test' as const,
  targetType: 'test',
  targetId: String(n),
});

async function recordInTurn(from: number, count: number): Promise<void> {
  for (let n = from; n < from + count; n++) {
    await database.db.transaction((tx) => recorder.record(tx, systemActor(), entry(n)));
  }
}

const storedEvents = () => database.db.select().from(auditEvents).orderBy(asc(auditEvents.entry));

describe('the audit sequencer', () => {
  it('leaves a recorded event without seq and hashes until it sequences it', async () => {
    await recordInTurn(1, 1);
    const [event] = await storedEvents();
    expect(event).toMatchObject({ seq: null, prevHash: null, hash: null, targetId: '1' });
  });

  it('gives committed events consecutive seq numbers and chain hashes in the order they were recorded', async () => {
    await database.db.transaction((tx) =>
      recorder.recordMany(
        tx,
        [1, 2, 3].map((n) => ({ actor: systemActor(), entry: entry(n) })),
      ),
    );
    await recordInTurn(4, 2);
    expect(await sequencer.sequenceBatch()).toBe(5);

    const events = await storedEvents();
    expect(events.map((event) => [event.targetId, event.seq])).toEqual([
      ['1', 1],
      ['2', 2],
      ['3', 3],
      ['4', 4],
      ['5', 5],
    ]);
    let prevHash = GENESIS_HASH;
    for (const event of events) {
      expect(event.prevHash).toBe(prevHash);
      expect(event.hash).toBe(chainHash(prevHash, { ...event, seq: event.seq! }));
      prevHash = event.hash!;
    }
  });

  it('continues the chain from its head in a later batch', async () => {
    await recordInTurn(1, 2);
    await sequencer.sequenceBatch();
    await recordInTurn(3, 1);
    expect(await sequencer.sequenceBatch()).toBe(1);
    const [, second, third] = await storedEvents();
    expect(third).toMatchObject({ seq: 3, prevHash: second!.hash });
  });

  it('sequences nothing when every event already has its place', async () => {
    await recordInTurn(1, 1);
    await sequencer.sequenceBatch();
    expect(await sequencer.sequenceBatch()).toBe(0);
  });

  it('leaves the whole batch unsequenced when any of it cannot be written', async () => {
    await recordInTurn(1, 3);
    // The second event's update fails, as a crash or a lost connection would end the batch there.
    await database.db.execute(sql`create or replace function fail_second() returns trigger language plpgsql as $$
      begin
        if new.target_id = '2' then raise exception 'cut off mid-batch'; end if;
        return new;
      end $$`);
    await database.db.execute(
      sql`create trigger fail_second before update on audit_events for each row execute function fail_second()`,
    );
    await expect(sequencer.sequenceBatch()).rejects.toThrow();
    expect((await storedEvents()).map((event) => event.seq)).toEqual([null, null, null]);
  });

  it('lets other work run between the batches of a long backlog', async () => {
    await database.db.transaction((tx) =>
      recorder.recordMany(
        tx,
        Array.from({ length: 2_500 }, (_, n) => ({ actor: systemActor(), entry: entry(n) })),
      ),
    );
    // On PGlite the database works in this thread: without a turn of the event loop between
    // batches, the whole backlog was written before anything else (a request) could run.
    expect(await otherWorkRunsDuring(() => sequencer.settle())).toBe(true);
    expect((await storedEvents()).filter((event) => event.seq === null)).toEqual([]);
  });

  it('settles at once when nothing is waiting to be sequenced', async () => {
    await sequencer.settle();
    expect(await storedEvents()).toEqual([]);
  });
});
