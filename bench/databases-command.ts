/**
 * Key-value console overhead: `POST /api/databases/{id}/keyvalue/command {"command":"GET k"}` through
 * the gateway vs the same GET sent directly with ioredis, both at 50 concurrent callers, one
 * run, one redis-server on loopback. Prints p50/p99 per side and the gateway's overhead.
 *
 *   npx tsx bench/databases-command.ts [--seconds 8] [--concurrency 50] [--postgres]
 *
 * The gateway runs in this process on the embedded PGlite database (the default deployment), or
 * with --postgres on a throw-away PostgreSQL started on loopback, with
 * everything a real request does: token check, database lookup, COMMAND INFO classification (cached),
 * the command on a pooled connection, and the audit event + history row committed before the answer.
 */
import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { Pool } from 'undici';
import { loadConfig } from '../src/config.js';
import { startPostgres } from '../test/services/postgres.js';
import { startRedis } from '../test/services/redis.js';
import { numberOption } from './support/command-line.js';
import { startBenchGateway } from './support/gateway.js';

const seconds = numberOption('seconds', 8);
const concurrency = numberOption('concurrency', 50);
const usePostgres = process.argv.includes('--postgres');

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** `callers` callers each running `call` back to back for `ms`; answers sorted latencies. */
async function load(call: () => Promise<void>, ms: number, callers = concurrency): Promise<number[]> {
  const latencies: number[] = [];
  const until = performance.now() + ms;
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (performance.now() < until) {
        const started = performance.now();
        await call();
        latencies.push(performance.now() - started);
      }
    }),
  );
  return latencies.sort((a, b) => a - b);
}

const summary = (latencies: number[], cpuMs?: number) => ({
  requests: latencies.length,
  p50: percentile(latencies, 50),
  p99: percentile(latencies, 99),
  rps: latencies.length / seconds,
  cpuMs,
});

async function main() {
  const redis = await startRedis();
  const dataDir = `/tmp/infragate-bench-${crypto.randomBytes(4).toString('hex')}`;
  const config = loadConfig({ INFRAGATE_DATA_DIR: dataDir, INFRAGATE_EGRESS: 'any', LOG_LEVEL: 'silent' });
  const postgres = usePostgres ? await startPostgres() : undefined;
  const gateway = await startBenchGateway({ databaseUrl: postgres?.url, config });
  const { app, database, token } = gateway;
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const http = new Pool(base, { connections: concurrency, pipelining: 1 });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

  const created = await http.request({
    method: 'POST',
    path: '/api/databases',
    headers,
    body: JSON.stringify({ name: 'bench', type: 'keyvalue', url: redis.url }),
  });
  const { data } = (await created.body.json()) as { data: { id: string } };
  const direct = new Redis({ host: '127.0.0.1', port: redis.port, protocol: 3 });
  await direct.set('bench-key', 'x'.repeat(64));

  const viaGateway = async () => {
    const response = await http.request({
      method: 'POST',
      path: `/api/databases/${data.id}/keyvalue/command`,
      headers,
      body: '{"command":"GET bench-key"}',
    });
    if (response.statusCode !== 200) throw new Error(`gateway answered ${response.statusCode}`);
    await response.body.dump();
  };
  const viaIoredis = async () => {
    await direct.get('bench-key');
  };

  // Warm both paths (JIT, connections, COMMAND INFO cache), then measure each in turn.
  await load(viaGateway, 1500);
  await load(viaIoredis, 1500);
  const measure = async (call: () => Promise<void>, callers: number) => {
    const cpu = process.cpuUsage();
    const latencies = await load(call, seconds * 1000, callers);
    const used = process.cpuUsage(cpu);
    return summary(latencies, (used.user + used.system) / 1000 / latencies.length);
  };
  const fmt = (value: number) => value.toFixed(3);
  const report = (
    callers: number,
    baseline: ReturnType<typeof summary>,
    gateway: ReturnType<typeof summary>,
  ) => {
    console.log(
      `\n${callers} concurrent caller(s), ${seconds} s per side, GET of a 64-byte value, gateway on ${database.kind}`,
    );
    console.log('side            requests   req/s   p50 ms   p99 ms   CPU ms/req (this process)');
    for (const [name, s] of [
      ['direct ioredis', baseline],
      ['gateway', gateway],
    ] as const) {
      console.log(
        `${name.padEnd(15)} ${String(s.requests).padStart(8)} ${s.rps.toFixed(0).padStart(7)} ${fmt(s.p50).padStart(8)} ${fmt(s.p99).padStart(8)}   ${fmt(s.cpuMs ?? 0)}`,
      );
    }
    console.log(
      `gateway overhead: p50 +${fmt(gateway.p50 - baseline.p50)} ms (x${(gateway.p50 / baseline.p50).toFixed(1)}), ` +
        `p99 +${fmt(gateway.p99 - baseline.p99)} ms (x${(gateway.p99 / baseline.p99).toFixed(1)}), ` +
        `throughput ${((gateway.rps / baseline.rps) * 100).toFixed(1)} % of direct`,
    );
  };
  report(concurrency, await measure(viaIoredis, concurrency), await measure(viaGateway, concurrency));
  // One caller: the latency a request adds when nothing queues in front of it.
  report(1, await measure(viaIoredis, 1), await measure(viaGateway, 1));

  direct.disconnect();
  await http.close();
  await app.close();
  await database.close();
  await postgres?.stop();
  await redis.stop();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
