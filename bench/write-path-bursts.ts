/**
 * Before/after on a machine whose speed drifts: both trees' gateways run at once on one PostgreSQL
 * (fsync on), and each path is driven in short bursts alternated between them, so that a slow minute
 * falls on both. Prints, per path, each tree's median req/s and CPU per request (its gateway's and
 * PostgreSQL's), and the median and range of after/before over the pairs of bursts.
 *
 *   npx tsx bench/write-path-bursts.ts --before <built tree> [--bursts 8] [--seconds 2] [--paths me,kv,rename]
 */
import path from 'node:path';
import { startPostgres } from '../test/services/postgres.js';
import { startRedis } from '../test/services/redis.js';
import { numberOption, option } from './support/command-line.js';
import { load } from './support/measure.js';
import { postgresCpuSeconds, processCpuSeconds } from './support/proc-stat.js';
import { type ServedGateway, serveTree } from './support/serve-process.js';
import { type PathKind, type Prepared, prepare, target } from './support/write-path-setup.js';

const beforeTree = option('before', '');
if (!beforeTree) throw new Error('--before <built tree> is required');
const bursts = numberOption('bursts', 8);
const seconds = numberOption('seconds', 2);
const paths = option('paths', 'me,kv,rename').split(',') as PathKind[];
const connections = 50;
const trees = [
  { label: 'before', root: path.resolve(beforeTree) },
  { label: 'after', root: path.resolve(import.meta.dirname, '..') },
];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const redis = await startRedis();
  const postgres = await startPostgres({ durable: true });
  const gateways: { prepared: Prepared; gateway: ServedGateway }[] = [];
  try {
    for (const tree of trees) {
      const prepared = await prepare(tree, postgres, redis, connections);
      const gateway = await serveTree({
        tree: tree.root,
        dataDir: prepared.dataDir,
        databaseUrl: prepared.databaseUrl,
      });
      gateways.push({ prepared, gateway });
    }
    for (const kind of paths) {
      for (const { gateway, prepared } of gateways)
        await load('warm-up', { ...target(gateway, prepared, kind), durationSeconds: 1 });
      const rates = gateways.map(() => [] as number[]);
      const cpu = gateways.map(() => [] as number[]);
      const databaseCpu = gateways.map(() => [] as number[]);
      for (let burst = 0; burst < bursts; burst++) {
        const order = burst % 2 === 0 ? [0, 1] : [1, 0];
        for (const at of order) {
          const { gateway, prepared } = gateways[at]!;
          const cpuBefore = processCpuSeconds(gateway.pid);
          const databaseCpuBefore = postgresCpuSeconds();
          const result = await load(kind, {
            ...target(gateway, prepared, kind),
            connections,
            durationSeconds: seconds,
          });
          rates[at]!.push(result.requestsPerSecond);
          const perRequest = (seconds: number) => (seconds * 1e6) / Math.max(1, result.total);
          cpu[at]!.push(perRequest(processCpuSeconds(gateway.pid) - cpuBefore));
          databaseCpu[at]!.push(perRequest(postgresCpuSeconds() - databaseCpuBefore));
        }
      }
      const ratios = rates[1]!.map((rate, burst) => rate / rates[0]![burst]!);
      const describe = (at: number) =>
        `${trees[at]!.label} ${median(rates[at]!)} req/s, ${median(cpu[at]!).toFixed(0)} µs gateway CPU and ${median(databaseCpu[at]!).toFixed(0)} µs PostgreSQL CPU per request`;
      console.log(
        `${kind}: ${describe(0)} | ${describe(1)} | after/before ${median(ratios).toFixed(2)}× [${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}×] over ${bursts} pairs of ${seconds} s bursts`,
      );
    }
  } finally {
    for (const { gateway } of gateways) await gateway.stop();
    await postgres.stop();
    await redis.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
