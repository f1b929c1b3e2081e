/**
 * Live tail delay: from an ingest request acknowledged (its 200 read by the client) to the record's
 * Server-Sent Event read by a tail client, p50/p95. On PGlite (one gateway) and on PostgreSQL with
 * two gateways on one database, ingesting through one and tailing through the other (NOTIFY).
 *
 *   npx tsx bench/logging-tail.ts          (300 records, one per request; BENCH_RECORDS=n, BENCH_DB=…)
 *
 * Records are sent one at a time, each after the previous one's event arrived. A tail on the
 * ingesting gateway reads the batch as soon as it commits, often before the client has read the
 * answer: such a delay counts as 0 and the share of them is reported.
 */

import { openEventStreamClient } from '../test/logging/event-stream-client.js';
import { createDatabase, postgresBinaries, startPostgres } from '../test/services/postgres.js';
import { startBenchGateway } from './support/gateway.js';
import { benchEnvironment, percentile } from './support/log-records.js';

const RECORDS = Number(process.env.BENCH_RECORDS ?? 300);

async function measure(databaseUrl: string | undefined) {
  const ingesting = await startBenchGateway({ databaseUrl });
  const tailing = databaseUrl ? await startBenchGateway({ databaseUrl }) : ingesting;
  const ingestUrl = await ingesting.app.listen({ port: 0, host: '127.0.0.1' });
  const tailUrl =
    tailing === ingesting ? ingestUrl : await tailing.app.listen({ port: 0, host: '127.0.0.1' });
  const { environmentId, ingestToken } = await benchEnvironment(ingesting, 'tail');
  const tail = await openEventStreamClient(
    `${tailUrl}/api/logging/environments/${environmentId}/tail`,
    tailing.token,
  );
  const delays: number[] = [];
  let beforeAck = 0;
  for (let i = 0; i < RECORDS; i++) {
    let eventAt = 0;
    const event = tail.next().then(() => {
      eventAt = performance.now();
    });
    const response = await fetch(`${ingestUrl}/api/logging/ingest`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ingestToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: `record ${i}`, level: 'info' }),
    });
    await response.json();
    const ackAt = performance.now();
    await event;
    if (eventAt <= ackAt) beforeAck += 1;
    delays.push(Math.max(0, eventAt - ackAt));
  }
  tail.close();
  await ingesting.close();
  if (tailing !== ingesting) await tailing.close();
  delays.sort((a, b) => a - b);
  return { p50: percentile(delays, 50), p95: percentile(delays, 95), beforeAck: beforeAck / RECORDS };
}

const rows: string[] = [];
const show = (label: string, r: { p50: number; p95: number; beforeAck: number }) => {
  rows.push(`| ${label} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${(100 * r.beforeAck).toFixed(0)} % |`);
  console.log(label, r);
};
const only = process.env.BENCH_DB;
if (only !== 'postgres') show('PGlite, same gateway', await measure(undefined));
if (only !== 'pglite' && postgresBinaries().path) {
  const server = await startPostgres();
  try {
    show('PostgreSQL, tail on another gateway', await measure(await createDatabase(server.url)));
  } finally {
    await server.stop();
  }
}
console.log(`\n${RECORDS} records, one per request\n`);
console.log('| setup | p50 ms | p95 ms | events before the ack |');
console.log('|---|---|---|---|');
for (const row of rows) console.log(row);
process.exit(0);
