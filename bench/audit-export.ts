/**
 * Audit export throughput: events/s from commit to delivered at a loopback webhook sink, on PGlite and
 * on PostgreSQL, against a baseline of the same NDJSON batches posted straight to the same sink.
 *
 *   npx tsx bench/audit-export.ts            (100,000 events; BENCH_EVENTS=n to change)
 *
 * Two measurements per database:
 *  - backlog: 100k events already committed; a destination created with startFrom=beginning drains them
 *    (batching + claiming + reading + signing + POST + settling). Timed from creation to the last event
 *    at the sink.
 *  - live: the destination exists first; 100k events are committed through the real recorder (hash chain,
 *    advisory lock, 1000 per transaction) while the worker exports. Timed from the first commit to the
 *    last event at the sink; also reports the commit rate alone, which bounds it.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import { loadConfig } from '../src/config.js';
import { systemActor } from '../src/core/actor.js';
import { GENESIS_HASH } from '../src/core/audit-recorder.js';
import { EgressGuard } from '../src/core/egress-guard.js';
import { webhookSignature } from '../src/core/webhook-signature.js';
import { DestinationService } from '../src/modules/audit/destinations.js';
import { listenOnLoopback } from '../test/services/peers.js';
import { createDatabase, postgresBinaries, startPostgres } from '../test/services/postgres.js';
import { insertChainedEvents } from './support/audit-events.js';
import { startBenchGateway } from './support/gateway.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000);
/** The live case commits through the real recorder, whose rate bounds it; fewer events keep the run short. */
const LIVE_EVENTS = Number(process.env.BENCH_LIVE_EVENTS ?? 20_000);
const BATCH = 1000;
const SECRET = 'bench-webhook-secret-0123456789';

/** A sink that only counts NDJSON lines: the cheapest honest receiver. */
async function startCountingSink() {
  let received = 0;
  let waiter: { target: number; resolve: () => void } | undefined;
  const server = http.createServer((request, response) => {
    let lines = 0;
    request.on('data', (chunk: Buffer) => {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    });
    request.on('end', () => {
      received += lines;
      response.writeHead(200).end('{}');
      if (waiter && received >= waiter.target) waiter.resolve();
    });
  });
  const url = `http://127.0.0.1:${await listenOnLoopback(server)}/webhook`;
  return {
    url,
    get received() {
      return received;
    },
    reset: () => {
      received = 0;
    },
    until: (target: number) =>
      new Promise<void>((resolve) => {
        if (received >= target) return resolve();
        waiter = { target, resolve };
      }),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

async function baseline(sinkUrl: string, count: number): Promise<number> {
  const egress = new EgressGuard('any');
  const event = {
    id: crypto.randomUUID(),
    seq: 1,
    occurredAt: new Date().toISOString(),
    actorId: null,
    actorEmail: 'system',
    action: 'bench.event.made',
    targetType: 'bench',
    targetId: '1',
    outcome: 'success',
    requestId: crypto.randomUUID(),
    clientIp: '127.0.0.1',
    metadata: { index: 1, note: 'a typical small change description' },
    prevHash: GENESIS_HASH,
    hash: GENESIS_HASH,
  };
  const started = performance.now();
  const inFlight = 4;
  let sent = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (sent < count) {
        sent += BATCH;
        const body = Array.from(
          { length: BATCH },
          (_, i) => `${JSON.stringify({ ...event, seq: sent + i })}\n`,
        ).join('');
        const timestamp = String(Math.floor(Date.now() / 1000));
        const response = await egress.fetch(sinkUrl, {
          method: 'POST',
          body,
          headers: {
            'content-type': 'application/x-ndjson',
            'x-infragate-signature': webhookSignature(SECRET, timestamp, body),
          },
        });
        await response.text();
      }
    }),
  );
  await egress.close();
  return count / ((performance.now() - started) / 1000);
}

async function measure(newDatabaseUrl: () => Promise<string | undefined>) {
  const sink = await startCountingSink();
  const results: Record<string, number> = {};
  for (const mode of ['backlog', 'live'] as const) {
    // A fresh database per case, so the second does not inherit the first one's destination.
    const defaults = loadConfig({}).siem;
    const { app, database, close } = await startBenchGateway({
      databaseUrl: await newDatabaseUrl(),
      config: { siem: { ...defaults, pollIntervalMs: 50, flushIntervalMs: 200 } },
    });
    await app.ready();
    const destinations = new DestinationService(app.deps);
    sink.reset();
    if (mode === 'backlog') {
      await insertChainedEvents(database, EVENTS);
      const started = performance.now();
      await destinations.create(systemActor(), {
        name: 'bench',
        kind: 'webhook',
        url: sink.url,
        secret: SECRET,
        batchSize: BATCH,
        startFrom: 'beginning',
      });
      await sink.until(EVENTS + 1); // and the destination's own creation event
      results.backlog = EVENTS / ((performance.now() - started) / 1000);
    } else {
      await destinations.create(systemActor(), {
        name: 'bench',
        kind: 'webhook',
        url: sink.url,
        secret: SECRET,
        batchSize: BATCH,
      });
      const target = LIVE_EVENTS;
      const started = performance.now();
      for (let done = 0; done < LIVE_EVENTS; done += BATCH) {
        await database.db.transaction(async (tx) => {
          for (let i = 0; i < BATCH; i++) {
            await app.deps.audit.record(tx, systemActor(), {
              action: 'audit.siem.test',
              targetType: 'bench',
              targetId: String(done + i),
              metadata: { index: done + i, note: 'a typical small change description' },
            });
          }
        });
      }
      const committedAt = performance.now();
      await sink.until(target);
      results.commit = LIVE_EVENTS / ((committedAt - started) / 1000);
      results.live = LIVE_EVENTS / ((performance.now() - started) / 1000);
    }
    await close();
  }
  sink.reset();
  results.baseline = await baseline(sink.url, EVENTS);
  await sink.close();
  return results;
}

const rows: string[] = [];
const show = (kind: string, r: Record<string, number>) => {
  const f = (n: number | undefined) => (n === undefined ? '-' : Math.round(n).toLocaleString('en-US'));
  rows.push(
    `| ${kind} | ${f(r.backlog)} | ${f(r.live)} | ${f(r.commit)} | ${f(r.baseline)} | ${(r.backlog! / r.baseline!).toFixed(2)} |`,
  );
  console.log(kind, r);
};

const only = process.env.BENCH_DB; // pglite | postgres; both when unset
if (only !== 'postgres') show('PGlite', await measure(async () => undefined));
if (only !== 'pglite' && postgresBinaries().path) {
  const server = await startPostgres();
  try {
    show('PostgreSQL 15', await measure(() => createDatabase(server.url)));
  } finally {
    await server.stop();
  }
}
console.log(`\n${EVENTS.toLocaleString('en-US')} events, batches of ${BATCH}\n`);
console.log(
  '| database | backlog drain (events/s) | live commit→delivered (events/s) | commit alone (events/s) | raw POST baseline (events/s) | backlog / baseline |',
);
console.log('|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
process.exit(0);
