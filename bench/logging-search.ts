/**
 * Log search latency over 1,000,000 stored records, PostgreSQL: p50/p95 of
 * `GET /api/logging/environments/{id}/records` (first page of 100, newest first) for a full-text
 * query and for a field filter, with the records of one environment spread over one day and over
 * seven days; also a facet count and a histogram over the whole range, and the size on disk.
 *
 *   npx tsx bench/logging-search.ts        (1,000,000 records each; BENCH_RECORDS=n, BENCH_QUERIES=n)
 *
 * The records are generated in the database (the same shapes as bench/support/log-records.ts:
 * 8–12 words per message with `timeout` in about 1 %, a `user` field among 10,000 values), then
 * VACUUM ANALYZE. Each query runs BENCH_QUERIES times (default 30) after 3 unmeasured ones, one at a
 * time, through HTTP on loopback.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../src/db/client.js';
import { queryRows } from '../src/db/raw.js';
import { LogPartitions } from '../src/modules/logging/partitions.js';
import { createDatabase, postgresBinaries, startPostgres } from '../test/services/postgres.js';
import { startBenchGateway } from './support/gateway.js';
import { benchEnvironment, percentile } from './support/log-records.js';

const RECORDS = Number(process.env.BENCH_RECORDS ?? 1_000_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 30);
const DAY = 86_400_000;
const WORDS = [
  'request',
  'handled',
  'user',
  'session',
  'cache',
  'database',
  'query',
  'connection',
  'pool',
  'worker',
  'job',
  'queue',
  'retry',
  'upstream',
  'service',
  'response',
  'status',
  'payment',
  'order',
  'invoice',
  'checkout',
  'cart',
  'account',
  'login',
  'logout',
  'token',
  'refresh',
  'config',
  'reload',
  'health',
  'check',
  'disk',
  'memory',
  'latency',
  'slow',
  'fast',
  'started',
  'stopped',
  'finished',
  'failed',
];

/** `count` records over [start, start + span), generated in the database in chunks. */
async function fill(db: Db, environmentId: string, start: number, span: number, count: number) {
  const chunk = 100_000;
  for (let from = 0; from < count; from += chunk) {
    const to = Math.min(count, from + chunk);
    await db.execute(sql`
      insert into log_records (environment_id, occurred_at, level, service, message, fields)
      select ${environmentId}::uuid,
        ${new Date(start).toISOString()}::timestamptz + (i * ${span / count}::float8) * interval '1 millisecond',
        (array['debug','info','info','info','info','warn','error'])[1 + floor(random() * 7)::int],
        (array['api','web','worker','billing','auth','search','mailer','scheduler'])[1 + floor(random() * 8)::int],
        case when random() < 0.01 then 'timeout ' else '' end ||
          array_to_string(array(select (${`{${WORDS.join(',')}}`}::text[])[1 + floor(random() * ${WORDS.length})::int]
                                from generate_series(1, 8 + (i % 5)) where i >= 0), ' '),
        jsonb_build_object(
          'user', 'u' || floor(random() * 10000)::int,
          'status', (array[200,200,200,201,204,400,404,500])[1 + floor(random() * 8)::int],
          'region', (array['eu-west','eu-central','us-east','us-west','ap-south'])[1 + floor(random() * 5)::int],
          'durationMs', floor(random() * 2000)::int,
          'requestId', md5(i::text))
      from generate_series(${from}::int, ${to - 1}::int) as i`);
  }
}

async function main(): Promise<void> {
  if (!postgresBinaries().path) throw new Error('PostgreSQL binaries not found');
  const server = await startPostgres();
  try {
    await measure(server.url);
  } finally {
    await server.stop();
  }
  process.exit(0);
}

async function measure(serverUrl: string): Promise<void> {
  const gateway = await startBenchGateway({ databaseUrl: await createDatabase(serverUrl) });
  const baseUrl = await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  const partitions = new LogPartitions(gateway.app.deps);
  const end = Date.now() - 60_000;
  const rows: string[] = [];
  for (const days of [1, 7]) {
    const { environmentId } = await benchEnvironment(gateway, `${days} days`);
    const start = end - days * DAY;
    const dayList = Array.from({ length: days + 1 }, (_, i) =>
      new Date(start + i * DAY).toISOString().slice(0, 10),
    );
    await partitions.ensure(environmentId, dayList);
    const loading = performance.now();
    await fill(gateway.database.db, environmentId, start, days * DAY, RECORDS);
    await gateway.database.db.execute(sql`vacuum analyze log_records`);
    const [size] = await queryRows<{ bytes: string }>(
      gateway.database.db,
      sql`select sum(pg_total_relation_size(c.oid))::bigint as bytes from pg_class c
          where c.relkind = 'r' and c.relname like ${`log_records_${environmentId.replaceAll('-', '')}_%`}`,
    );
    console.log(
      `${days} day(s): ${RECORDS} records loaded in ${((performance.now() - loading) / 1000).toFixed(0)} s, ` +
        `${(Number(size!.bytes) / 1024 ** 2).toFixed(0)} MiB with indexes`,
    );
    const range = `from=${new Date(start).toISOString()}&to=${new Date(end + 1).toISOString()}`;
    for (const [label, query] of [
      ['full text, rare word (q=timeout, ~1 %)', 'q=timeout'],
      ['full text, two common words (q=database failed)', 'q=database%20failed'],
      ['field filter (field.user=u1234, ~0.01 %)', 'field.user=u1234'],
      ['field filter + level (field.status=500&level=error)', 'field.status=500&level=error'],
      ['no filter (first page)', ''],
      ['facets: level over the whole range', 'facets:field=level'],
      ['histogram: 1h buckets over the whole range', 'histogram:interval=1h'],
    ] as const) {
      const [path, search] = query.includes(':') ? query.split(':') : ['records', `limit=100&${query}`];
      const url = `${baseUrl}/api/logging/environments/${environmentId}/${path}?${range}&${search}`;
      const times: number[] = [];
      for (let i = 0; i < QUERIES + 3; i++) {
        const started = performance.now();
        const response = await fetch(url, { headers: { authorization: `Bearer ${gateway.token}` } });
        const answer = (await response.json()) as { data: unknown };
        if (response.status !== 200) throw new Error(`${label}: ${JSON.stringify(answer)}`);
        if (i >= 3) times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      const row = `| ${days} day${days > 1 ? 's' : ''} | ${label} | ${percentile(times, 50).toFixed(1)} | ${percentile(times, 95).toFixed(1)} |`;
      rows.push(row);
      console.log(row);
    }
  }
  await gateway.close();
  console.log(
    `\n${RECORDS.toLocaleString('en-US')} records per environment, ${QUERIES} queries each, page of 100\n`,
  );
  console.log('| records spread over | query | p50 ms | p95 ms |');
  console.log('|---|---|---|---|');
  for (const row of rows) console.log(row);
}

await main();
