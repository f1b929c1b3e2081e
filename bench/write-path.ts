/**
 * The write path at scale (issue 26): audited writes, the key-value console and GET /auth/me against
 * a raw node:http server, on a durable PostgreSQL (fsync on) and on the embedded PGlite, plus start
 * time and idle RSS; for one or two source trees (e.g. main before the change and the change), run
 * interleaved round by round so both meet the same background load.
 *
 *   npx tsx bench/write-path.ts [--before <tree>] [--rounds 3] [--seconds 5] [--connections 50]
 *                               [--only postgres|pglite]
 *
 * Every gateway is `node <tree>/dist/cli.js serve` in its own process, as deployed (build each tree
 * first: `npm run build`); autocannon drives it from this process. Figures are medians over the
 * rounds with [min–max]; ratios are taken within a round.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startPostgres } from '../test/services/postgres.js';
import { startRedis } from '../test/services/redis.js';
import { numberOption, option } from './support/command-line.js';
import { type LoadOptions, load, startServerProcess } from './support/measure.js';
import { processCpuSeconds } from './support/proc-stat.js';
import { type ServedGateway, serveTree } from './support/serve-process.js';
import { type PathKind, type Prepared, prepare, settle, target } from './support/write-path-setup.js';
import { type Measured, type Sample, summaryTable } from './support/write-path-table.js';

const rounds = numberOption('rounds', 3);
const seconds = numberOption('seconds', 5);
const connections = numberOption('connections', 50);
const only = option('only', '');
const after = path.resolve(import.meta.dirname, '..');
const beforeTree = option('before', '');
const trees = [
  ...(beforeTree ? [{ label: 'before', root: path.resolve(beforeTree) }] : []),
  { label: 'after', root: after },
];

/** A load run against the given processes, with the CPU time they spent on it per answered request. */
async function measured(label: string, pids: number[], options: LoadOptions): Promise<Measured> {
  await load(`${label} warm-up`, { ...options, durationSeconds: 1 });
  const cpu = () => pids.reduce((sum, pid) => sum + processCpuSeconds(pid), 0);
  const before = cpu();
  const result = await load(label, {
    ...options,
    connections: options.connections ?? connections,
    durationSeconds: seconds,
  });
  return { ...result, cpuUs: ((cpu() - before) * 1e6) / Math.max(1, result.total) };
}

const drive = (label: string, gateway: ServedGateway, prepared: Prepared, kind: PathKind) =>
  measured(label, [gateway.pid], target(gateway, prepared, kind));

/** One round of one tree on one database: every path, each gateway started afresh on the existing data. */
async function round(prepared: Prepared, isPostgres: boolean): Promise<Sample> {
  const serve = (logLevel = 'warn') =>
    serveTree({
      tree: prepared.tree.root,
      dataDir: prepared.dataDir,
      databaseUrl: prepared.databaseUrl,
      logLevel,
    });
  const sample: Sample = {};
  const gateway = await serve();
  sample.startMs = gateway.startMs;
  await settle(2000);
  sample.idleRssMiB = gateway.rssMiB();
  sample.me = await drive('me', gateway, prepared, 'me');
  sample.rename = await drive('rename', gateway, prepared, 'rename');
  sample.kv = await drive('kv', gateway, prepared, 'kv');
  sample.loadedRssMiB = gateway.rssMiB();
  await gateway.stop();

  const logging = await serve('info');
  sample.meInfo = await drive('me info', logging, prepared, 'me');
  await logging.stop();

  if (isPostgres) {
    const pair = [await serve(), await serve()];
    // Half the connections on each, so the pair meets the same concurrency as one instance alone.
    const half = { connections: Math.max(1, Math.round(connections / 2)) };
    const [onA, onB] = await Promise.all(
      pair.map((g) =>
        measured('rename on one of two', [g.pid], { ...target(g, prepared, 'rename'), ...half }),
      ),
    );
    sample.renameTwo = {
      ...onA!,
      requestsPerSecond: onA!.requestsPerSecond + onB!.requestsPerSecond,
      total: onA!.total + onB!.total,
      p99Ms: Math.max(onA!.p99Ms, onB!.p99Ms),
      cpuUs: (onA!.cpuUs * onA!.total + onB!.cpuUs * onB!.total) / Math.max(1, onA!.total + onB!.total),
    };
    for (const g of pair) await g.stop();
  }
  return sample;
}

/** A baseline server of bench/auth-me.ts answering the same JSON as /auth/me: `raw` or `fastify`. */
async function baseline(role: 'raw' | 'fastify'): Promise<Measured> {
  const server = startServerProcess(path.join(import.meta.dirname, 'auth-me.ts'), [role]);
  const target = await server.ready;
  const result = await measured(role, [server.child.pid!], { ...target, connections });
  server.stop();
  return result;
}

async function main(): Promise<void> {
  const redis = await startRedis();
  const databases = [
    ...(only !== 'pglite' ? [{ name: 'PostgreSQL (fsync on)', postgres: true }] : []),
    ...(only !== 'postgres' ? [{ name: 'PGlite (embedded)', postgres: false }] : []),
  ];
  const loads: number[] = [];
  try {
    for (const database of databases) {
      const postgres = database.postgres ? await startPostgres({ durable: true }) : undefined;
      try {
        const prepared = [];
        for (const tree of trees) prepared.push(await prepare(tree, postgres, redis, connections));
        const samples = new Map<string, Sample[]>(trees.map((tree) => [tree.label, []]));
        const raws: Measured[] = [];
        const fastifies: Measured[] = [];
        for (let r = 0; r < rounds; r++) {
          loads.push(os.loadavg()[0]!);
          raws.push(await baseline('raw'));
          fastifies.push(await baseline('fastify'));
          const order = r % 2 === 0 ? prepared : [...prepared].reverse();
          for (const tree of order) samples.get(tree.tree.label)!.push(await round(tree, database.postgres));
        }
        console.log(
          summaryTable(database.name, { raws, fastifies, samples, prepared, connections, seconds }),
        );
        for (const tree of prepared) fs.rmSync(tree.dataDir, { recursive: true, force: true });
      } finally {
        await postgres?.stop();
      }
    }
  } finally {
    await redis.stop();
  }
  console.log(
    `\nnode ${process.version}, ${os.cpus().length} cores, load average at round starts: ${loads.map((l) => l.toFixed(1)).join(', ')}`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
