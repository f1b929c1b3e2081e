/**
 * Log ingest throughput: records/s for NDJSON batches of 1,000 posted to `POST /api/logging/ingest`
 * (token lookup, body read, parse and validation, one insert per request, commit), against bare
 * inserts of the same rows into the same partitioned table through the same driver, on PGlite and
 * on PostgreSQL.
 *
 *   npx tsx bench/logging-ingest.ts        (100,000 records; BENCH_RECORDS=n, BENCH_DB=pglite|postgres)
 *
 * The gateway runs in a child process (with its database, for PGlite); this process only sends the
 * HTTP requests, so the client's own work is not charged to the gateway. The bare inserts run in
 * the child too, as raw statements on the driver: a multi-row VALUES insert, the jsonb_to_recordset
 * insert the gateway itself uses, and on PGlite COPY (node-postgres has no COPY without an extra
 * package); the ratio is against the fastest. Both sides keep 4 batches in flight into partitions
 * that exist already; each runs twice, interleaved, and the better run counts, which damps the
 * noise of a shared machine.
 */
import type { ChildProcess } from 'node:child_process';
import { LogPartitions } from '../src/modules/logging/partitions.js';
import { createDatabase, postgresBinaries, startPostgres } from '../test/services/postgres.js';
import { startBenchGateway } from './support/gateway.js';
import { benchEnvironment, type SampleRecord, sampleRecords } from './support/log-records.js';
import { startServerProcess } from './support/measure.js';

const RECORDS = Number(process.env.BENCH_RECORDS ?? 100_000);
const BATCH = 1000;
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 4);
const COLUMNS = 'environment_id, occurred_at, level, service, message, fields';

/** Runs `work(i)` for i in [0, count), `IN_FLIGHT` at a time; answers records per second. */
async function rate(count: number, work: (batch: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      for (let batch = next++; batch < count; batch = next++) await work(batch);
    }),
  );
  return (count * BATCH) / ((performance.now() - started) / 1000);
}

function batchesOf(startMs: number): SampleRecord[][] {
  const records = sampleRecords(RECORDS, startMs, 3_600_000);
  const batches: SampleRecord[][] = [];
  for (let i = 0; i < records.length; i += BATCH) batches.push(records.slice(i, i + BATCH));
  return batches;
}

/** Raw statements on the driver under Drizzle (pg.Pool or PGlite): no query builder in the way. */
interface RawClient {
  query(text: string, params?: unknown[], options?: { blob?: Blob }): Promise<unknown>;
}

/** The fast ways to put the same rows into the table without the gateway, per database. */
function bareInserts(client: RawClient, kind: 'pglite' | 'postgres', environmentId: string) {
  const values = (record: SampleRecord) => [
    environmentId,
    record.timestamp,
    record.level,
    record.service,
    record.message,
    JSON.stringify(record.fields),
  ];
  const placeholders = Array.from(
    { length: BATCH },
    (_, row) => `(${Array.from({ length: 6 }, (_, column) => `$${row * 6 + column + 1}`).join(', ')})`,
  ).join(', ');
  const methods: Record<string, (batch: SampleRecord[]) => Promise<unknown>> = {
    'multi-row VALUES': (batch) =>
      client.query(`insert into log_records (${COLUMNS}) values ${placeholders}`, batch.flatMap(values)),
    jsonb_to_recordset: (batch) =>
      client.query(
        `insert into log_records (${COLUMNS}) select $1::uuid, r.timestamp, r.level, r.service, r.message, r.fields
         from jsonb_to_recordset($2::jsonb) as r(timestamp timestamptz, level text, service text, message text, fields jsonb)`,
        [environmentId, JSON.stringify(batch)],
      ),
  };
  if (kind === 'pglite') {
    const csv = (field: string) => `"${field.replaceAll('"', '""')}"`;
    methods.COPY = (batch) =>
      client.query(`copy log_records (${COLUMNS}) from '/dev/blob' with (format csv)`, [], {
        blob: new Blob([batch.map((record) => values(record).map(csv).join(',')).join('\n')]),
      });
  }
  return methods;
}

/** The child: a gateway with two environments; runs the bare inserts when asked. */
async function serve(databaseUrl: string | undefined, startMs: number): Promise<void> {
  const gateway = await startBenchGateway({ databaseUrl });
  const url = await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  const api = await benchEnvironment(gateway, 'ingest via API');
  const bare = await benchEnvironment(gateway, 'bare insert');
  const batches = batchesOf(startMs);
  const partitions = new LogPartitions(gateway.app.deps);
  const days = new Set(batches.flat().map((record) => record.timestamp.slice(0, 10)));
  for (const { environmentId } of [api, bare]) await partitions.ensure(environmentId, days);
  const client = (gateway.database.db as unknown as { $client: RawClient }).$client;
  const methods = bareInserts(client, gateway.database.kind, bare.environmentId);
  process.on('message', async () => {
    const results: Record<string, number> = {};
    for (const [name, insert] of Object.entries(methods))
      results[name] = await rate(batches.length, (batch) => insert(batches[batch]!));
    process.send!(results);
  });
  process.send!({ url, token: api.ingestToken });
}

const ask = (child: ChildProcess) =>
  new Promise<Record<string, number>>((resolve) => {
    child.once('message', (message) => resolve(message as Record<string, number>));
    child.send('bare');
  });

async function measure(databaseUrl: string | undefined) {
  const startMs = Date.now() - 3_600_000;
  const server = startServerProcess(new URL(import.meta.url).pathname, [
    'serve',
    databaseUrl ?? '-',
    String(startMs),
  ]);
  const { url, token } = (await server.ready) as unknown as { url: string; token: string };
  const bodies = batchesOf(startMs).map((batch) => batch.map((record) => JSON.stringify(record)).join('\n'));
  const viaApi = () =>
    rate(bodies.length, async (batch) => {
      const response = await fetch(`${url}/api/logging/ingest`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' },
        body: bodies[batch],
      });
      const answer = (await response.json()) as { data: { accepted: number } };
      if (answer.data?.accepted !== BATCH) throw new Error(`batch ${batch}: ${JSON.stringify(answer)}`);
    });
  const results: Record<string, number> = { API: 0 };
  for (let round = 0; round < 2; round++) {
    for (const [name, value] of Object.entries(await ask(server.child)))
      results[name] = Math.max(results[name] ?? 0, value);
    results.API = Math.max(results.API!, await viaApi());
  }
  server.stop();
  return results;
}

async function main(): Promise<void> {
  const table: string[] = [];
  const show = (label: string, results: Record<string, number>) => {
    const f = (n: number | undefined) => (n === undefined ? '–' : Math.round(n).toLocaleString('en-US'));
    const { API: api, ...bare } = results;
    const best = Math.max(...Object.values(bare));
    table.push(
      `| ${label} | ${f(api)} | ${f(bare['multi-row VALUES'])} | ${f(bare.jsonb_to_recordset)} | ${f(bare.COPY)} | ${((100 * api!) / best).toFixed(0)} % |`,
    );
    console.log(label, Object.fromEntries(Object.entries(results).map(([k, v]) => [k, Math.round(v)])));
  };
  const only = process.env.BENCH_DB;
  if (only !== 'postgres') show('PGlite (in memory)', await measure(undefined));
  if (only !== 'pglite' && postgresBinaries().path) {
    const server = await startPostgres();
    try {
      show('PostgreSQL 15', await measure(await createDatabase(server.url)));
    } finally {
      await server.stop();
    }
  }
  console.log(
    `\n${RECORDS.toLocaleString('en-US')} records, NDJSON batches of ${BATCH}, ${IN_FLIGHT} in flight\n`,
  );
  console.log(
    '| database | API (records/s) | bare multi-row VALUES | bare jsonb_to_recordset | bare COPY | API / fastest bare |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const row of table) console.log(row);
  process.exit(0);
}

if (process.argv[2] === 'serve')
  await serve(process.argv[3] === '-' ? undefined : process.argv[3], Number(process.argv[4]));
else await main();
