import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/raw.js';
import { RETENTION_JOB } from '../../src/modules/logging/retention.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { logStore } from './log-store.js';

let gateway: TestGateway;
let store: ReturnType<typeof logStore>;
beforeAll(async () => {
  gateway = await startTestGateway();
  store = logStore(gateway);
});
afterAll(() => gateway.close());

const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);

/** The days that have a partition for this environment, oldest first. */
async function partitionDays(environmentId: string): Promise<string[]> {
  const rows = await queryRows<{ name: string }>(
    gateway.deps.db,
    sql`select relname as name from pg_class where relkind = 'r' and relname like ${`log_records_${environmentId.replaceAll('-', '')}_%`}`,
  );
  return rows.map(({ name }) => name.slice(-8).replace(/(\d{4})(\d{2})(\d{2})/, '$1-$2-$3')).sort();
}

async function environmentWithRecords(daysAgo: number[]) {
  const environment = await store.environment({ retentionDays: 10 });
  const token = await store.token(environment.id);
  const records = daysAgo.map((ago) => ({ timestamp: Date.now() - ago * DAY, message: `${ago} days ago` }));
  expect((await store.ingest(token, records)).body.data.accepted).toBe(daysAgo.length);
  return environment.id as string;
}

const runJob = () => gateway.deps.jobs.runNow(RETENTION_JOB);
const setRetention = (id: string, retentionDays: number) =>
  gateway.call('PUT', `/api/logging/environments/${id}`, { body: { retentionDays } });

describe('partitions', () => {
  it('are created on demand, one per environment and day of the records', async () => {
    const id = await environmentWithRecords([0, 3]);
    expect(await partitionDays(id)).toEqual([day(-3), day(0)]);
  });

  it('are created ahead for today and tomorrow for environments that receive records', async () => {
    const id = await environmentWithRecords([0]);
    await runJob();
    expect(await partitionDays(id)).toEqual([day(0), day(1)]);
  });
});

describe('retention', () => {
  it('drops whole day partitions once every record in them is older than retentionDays', async () => {
    const id = await environmentWithRecords([0, 1, 5, 6]);
    await runJob();
    expect(await partitionDays(id)).toContain(day(-6));
    await setRetention(id, 3);
    await runJob();
    expect(await partitionDays(id)).toEqual([day(-1), day(0), day(1)]);
    expect((await store.records(id)).map((record) => record.message)).toEqual(['0 days ago', '1 days ago']);
  });

  it('keeps other environments by their own retentionDays', async () => {
    const [short, long] = [await environmentWithRecords([0, 4]), await environmentWithRecords([0, 4])];
    await setRetention(short, 2);
    await runJob();
    expect(await store.records(short)).toHaveLength(1);
    expect(await store.records(long)).toHaveLength(2);
  });

  it('drops the partitions of a deleted environment on the next run', async () => {
    const id = await environmentWithRecords([0, 2]);
    await gateway.call('DELETE', `/api/logging/environments/${id}`);
    await runJob();
    expect(await partitionDays(id)).toEqual([]);
  });

  it('lets ingest write again on a day whose partition it dropped', async () => {
    const id = await environmentWithRecords([0]);
    const token = await store.token(id);
    await setRetention(id, 1);
    await runJob();
    await queryRows(
      gateway.deps.db,
      sql.raw(`drop table log_records_${id.replaceAll('-', '')}_${day(0).replaceAll('-', '')}`),
    );
    expect((await store.ingest(token, { message: 'after the drop' })).body.data.accepted).toBe(1);
  });
});
