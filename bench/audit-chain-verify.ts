/**
 * The background verification of the audit hash chain (`notifications.audit-chain`) on a large trail:
 * a walk of the whole chain against a run that verifies only the events added since the head verified
 * last, on PGlite and on PostgreSQL.
 *
 *   npx tsx bench/audit-chain-verify.ts        (100,000 events; BENCH_EVENTS=n to change, BENCH_DB=pglite|postgres)
 *
 * The trail is committed in bulk (a valid chain). Each round commits `NEW_EVENTS` more, then times the
 * audit module's two verifications in turn: `verifySince(head verified last)` (what the job runs between
 * whole walks) and `verify({})` (what it runs on a process's first run, once a day and after a break, and
 * what `GET /api/audit/verify` runs). Medians of `ROUNDS`. Figures: wall time and the process's CPU time
 * (user + system: hashing, reading rows, and on PGlite the database itself, which runs in the same
 * thread); the ratio is whole walk / events since, in one run.
 */
import os from 'node:os';
import { AuditChainService } from '../src/modules/audit/chain.js';
import { CheckpointSigner } from '../src/modules/audit/checkpoint-signer.js';
import { createDatabase, postgresBinaries, startPostgres } from '../test/services/postgres.js';
import { insertChainedEvents } from './support/audit-events.js';
import { startBenchGateway } from './support/gateway.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000);
const ROUNDS = 3;
const NEW_EVENTS = 1000;

interface Run {
  wallMs: number;
  cpuMs: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const medianRun = (runs: Run[]): Run => ({
  wallMs: median(runs.map((run) => run.wallMs)),
  cpuMs: median(runs.map((run) => run.cpuMs)),
});

async function timed<T>(work: () => Promise<T>): Promise<{ run: Run; result: T }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await work();
  const used = process.cpuUsage(cpu);
  return { run: { wallMs: performance.now() - started, cpuMs: (used.user + used.system) / 1000 }, result };
}

async function measure(databaseUrl: string | undefined): Promise<{ full: Run; since: Run }> {
  const { app, database, close } = await startBenchGateway({ databaseUrl });
  const chain = new AuditChainService({ ...app.deps, signer: new CheckpointSigner(app.deps) });
  try {
    await insertChainedEvents(database, EVENTS);
    const first = await chain.verify({});
    let head = { seq: first.headSeq!, hash: first.headHash! };
    const full: Run[] = [];
    const since: Run[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      await insertChainedEvents(database, NEW_EVENTS);
      const incremental = await timed(() => chain.verifySince(head));
      const whole = await timed(() => chain.verify({}));
      if (!incremental.result.valid || !whole.result.valid)
        throw new Error('the bench chain does not verify');
      if (incremental.result.checkedEvents !== NEW_EVENTS)
        throw new Error('verifySince checked other events');
      since.push(incremental.run);
      full.push(whole.run);
      head = { seq: whole.result.headSeq!, hash: whole.result.headHash! };
    }
    return { full: medianRun(full), since: medianRun(since) };
  } finally {
    await close();
  }
}

const rows: string[] = [];
const seconds = (ms: number) => (ms / 1000).toFixed(3);
const ratio = (whole: number, since: number) => `${(whole / since).toFixed(0)}×`;
const show = (kind: string, { full, since }: { full: Run; since: Run }) => {
  rows.push(
    `| ${kind} | ${seconds(full.wallMs)} | ${seconds(full.cpuMs)} | ${seconds(since.wallMs)} | ${seconds(since.cpuMs)} | ${ratio(full.wallMs, since.wallMs)} | ${ratio(full.cpuMs, since.cpuMs)} |`,
  );
  console.log(kind, { full, since });
};

const loadBefore = os.loadavg()[0]!;
const only = process.env.BENCH_DB; // pglite | postgres; both when unset
if (only !== 'postgres') show('PGlite (in memory)', await measure(undefined));
if (only !== 'pglite' && postgresBinaries().path) {
  const server = await startPostgres();
  try {
    show('PostgreSQL 15 (loopback)', await measure(await createDatabase(server.url)));
  } finally {
    await server.stop();
  }
}
console.log(
  `\n${EVENTS.toLocaleString('en-US')} events, then ${NEW_EVENTS.toLocaleString('en-US')} more per round; medians of ${ROUNDS}; ${os.cpus().length} cores, load average ${loadBefore.toFixed(2)} before, ${os.loadavg()[0]!.toFixed(2)} after\n`,
);
console.log(
  '| database | whole chain, wall (s) | whole chain, CPU (s) | events since, wall (s) | events since, CPU (s) | wall ratio | CPU ratio |',
);
console.log('|---|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
process.exit(0);
