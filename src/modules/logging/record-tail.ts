import { and, asc, between, lte, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Deps } from '../../core/deps.js';
import { isUuid } from '../../core/ids.js';
import type { EventStream } from '../../core/sse.js';
import { logRecords } from '../../db/schema/index.js';
import { filterConditions, type RecordFilter } from './record-filters.js';
import { recordColumns, recordView, type StoredBatch } from './record-store.js';

const CHANNEL = 'infragate_log_records';
/** Most records one read sends a follower; past it the follower is told it skipped some. */
const MAX_ROWS_PER_READ = 1000;

interface Follower {
  environmentId: string;
  filter: RecordFilter;
  stream: EventStream;
  /** Committed batches not read yet, merged into one range. */
  pending: StoredBatch | null;
  reading: boolean;
  /** Ids sent lately: merged ranges overlap, and no record is sent twice. */
  sent: LRUCache<string, true>;
}

const later = (a: string, b: string) => (BigInt(a) > BigInt(b) ? a : b);
const earlier = (a: string, b: string) => (BigInt(a) < BigInt(b) ? a : b);

function merge(pending: StoredBatch | null, batch: StoredBatch): StoredBatch {
  if (!pending) return batch;
  return {
    environmentId: batch.environmentId,
    firstId: earlier(pending.firstId, batch.firstId),
    lastId: later(pending.lastId, batch.lastId),
    from: pending.from < batch.from ? pending.from : batch.from,
    to: pending.to > batch.to ? pending.to : batch.to,
  };
}

const encode = (sender: string, batch: StoredBatch) =>
  [sender, batch.environmentId, batch.firstId, batch.lastId, batch.from.getTime(), batch.to.getTime()].join(
    ' ',
  );

function decode(payload: string): { sender: string; batch: StoredBatch } | undefined {
  const [sender, environmentId, firstId, lastId, from, to, extra] = payload.split(' ');
  if (extra !== undefined || !sender || !environmentId || !isUuid(environmentId)) return undefined;
  if (!/^\d+$/.test(firstId ?? '') || !/^\d+$/.test(lastId ?? '')) return undefined;
  if (!/^-?\d+$/.test(from ?? '') || !/^-?\d+$/.test(to ?? '')) return undefined;
  return {
    sender,
    batch: {
      environmentId,
      firstId: firstId!,
      lastId: lastId!,
      from: new Date(Number(from)),
      to: new Date(Number(to)),
    },
  };
}

/**
 * Live tails of environments. After a batch commits, ingest announces where it sits; each follower
 * of that environment reads exactly that range back with its own filter (the same conditions as
 * search) and streams what matches. Other gateways hear of the batch through PostgreSQL NOTIFY on
 * one channel, so a tail sees records ingested anywhere. A follower reads one range at a time and
 * merges what arrives meanwhile, so a slow client costs one pending range, not a queue.
 */
export class RecordTail {
  private readonly followers = new Map<string, Set<Follower>>();

  constructor(private readonly deps: Pick<Deps, 'db' | 'dbKind' | 'subscribe' | 'jobs' | 'log'>) {}

  /** Starts hearing other gateways' batches (PostgreSQL only); answers how to stop. */
  async listen(): Promise<() => Promise<void>> {
    if (this.deps.dbKind !== 'postgres') return async () => {};
    return this.deps.subscribe(CHANNEL, (payload) => {
      const message = decode(payload);
      if (message && message.sender !== this.deps.jobs.instanceId) this.deliver(message.batch);
    });
  }

  /** A batch committed here: followers in this process read it now, other gateways on notice. */
  announce(batch: StoredBatch): void {
    this.deliver(batch);
    if (this.deps.dbKind !== 'postgres') return;
    this.deps.db
      .execute(sql`select pg_notify(${CHANNEL}, ${encode(this.deps.jobs.instanceId, batch)})`)
      .catch((error: unknown) => this.deps.log.warn({ err: error }, 'log tail notification failed'));
  }

  /** Streams the environment's new records that match `filter` until the client leaves. */
  async follow(environmentId: string, filter: RecordFilter, stream: EventStream): Promise<void> {
    const follower: Follower = {
      environmentId,
      filter,
      stream,
      pending: null,
      reading: false,
      sent: new LRUCache({ max: 10 * MAX_ROWS_PER_READ }),
    };
    const group = this.followers.get(environmentId) ?? new Set<Follower>();
    this.followers.set(environmentId, group);
    group.add(follower);
    try {
      await stream.done;
    } finally {
      group.delete(follower);
      if (group.size === 0) this.followers.delete(environmentId);
    }
  }

  /** Ends every open tail (the server is closing). */
  endAll(): void {
    for (const group of this.followers.values()) for (const follower of group) follower.stream.end();
  }

  private deliver(batch: StoredBatch): void {
    for (const follower of this.followers.get(batch.environmentId) ?? []) {
      follower.pending = merge(follower.pending, batch);
      if (!follower.reading) void this.read(follower);
    }
  }

  private async read(follower: Follower): Promise<void> {
    follower.reading = true;
    try {
      while (follower.pending && !follower.stream.closed) {
        const range = follower.pending;
        follower.pending = null;
        const rows = await this.deps.db
          .select(recordColumns)
          .from(logRecords)
          .where(
            and(
              filterConditions(range.environmentId, { ...follower.filter, from: range.from }),
              lte(logRecords.occurredAt, range.to),
              between(logRecords.id, Number(range.firstId), Number(range.lastId)),
            ),
          )
          .orderBy(asc(logRecords.occurredAt), asc(logRecords.id))
          .limit(MAX_ROWS_PER_READ + 1);
        for (const row of rows.slice(0, MAX_ROWS_PER_READ)) {
          const id = String(row.id);
          if (follower.sent.has(id)) continue;
          follower.sent.set(id, true);
          await follower.stream.send({ event: 'record', data: recordView(row), id });
        }
        if (rows.length > MAX_ROWS_PER_READ)
          await follower.stream.send({
            event: 'skipped',
            data: { reason: 'more records arrived at once than a tail sends' },
          });
      }
    } catch (error) {
      this.deps.log.warn({ err: error }, 'log tail read failed');
    } finally {
      follower.reading = false;
    }
  }
}
