/**
 * Static site serving: requests per second of the gateway's `/sites/<slug>/…` (production deployment
 * looked up, files from content-addressed blobs) against `@fastify/static` serving the very same
 * directory, in one run, on loopback. The load generator (autocannon) runs in a child process so it
 * does not share the servers' event loop.
 *
 *   npx tsx bench/pages-serve.ts [--duration 4] [--connections 20] [--rounds 3]
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';
import { deploySite, SITE_FILES, SITE_TARGETS, siteArchive } from './support/bench-site.js';
import { numberOption } from './support/command-line.js';
import { startBenchGateway } from './support/gateway.js';

const run = promisify(execFile);
const DURATION = Math.min(numberOption('duration', 4), 60);
const CONNECTIONS = Math.min(numberOption('connections', 20), 200);
/** Alternating rounds per file; the best round of each server counts (other tenants of a shared machine only slow runs down). */
const ROUNDS = Math.min(numberOption('rounds', 3), 10);

interface Result {
  requests: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function load(url: string, duration: number): Promise<Result> {
  const cli = path.resolve('node_modules/autocannon/autocannon.js');
  const { stdout } = await run(
    process.execPath,
    [cli, '-c', String(CONNECTIONS), '-d', String(duration), '-j', url],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  const report = JSON.parse(stdout);
  return {
    requests: report.requests.average,
    p99: report.latency.p99,
    errors: report.errors,
    non2xx: report.non2xx,
  };
}

async function main() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-bench-pages-'));
  const siteDir = path.join(work, 'site');
  const archive = await siteArchive(siteDir);

  const { app: gateway, token, close: closeGateway } = await startBenchGateway();
  await deploySite(gateway, token, 'bench', archive);
  const gatewayBase = await gateway.listen({ port: 0, host: '127.0.0.1' });

  const baseline = Fastify({ logger: false });
  await baseline.register(fastifyStatic, { root: siteDir, prefix: '/sites/bench/' });
  const baselineBase = await baseline.listen({ port: 0, host: '127.0.0.1' });

  console.log(
    `pages serving bench: ${CONNECTIONS} connections, best of ${ROUNDS} alternating ${DURATION}s runs, node ${process.version}, ${os.cpus().length} cpus`,
  );
  const rows: string[] = [];
  for (const file of SITE_TARGETS) {
    const gatewayUrl = `${gatewayBase}/sites/bench/${file}`;
    const baselineUrl = `${baselineBase}/sites/bench/${file}`;
    // Same bytes from both servers, or the comparison means nothing.
    const [a, b] = await Promise.all([fetch(gatewayUrl), fetch(baselineUrl)]);
    const [bytesA, bytesB] = [Buffer.from(await a.arrayBuffer()), Buffer.from(await b.arrayBuffer())];
    if (a.status !== 200 || b.status !== 200 || !bytesA.equals(bytesB))
      throw new Error(`mismatch on ${file}`);

    await load(gatewayUrl, 1);
    await load(baselineUrl, 1);
    const ours = await load(gatewayUrl, DURATION);
    const theirs = await load(baselineUrl, DURATION);
    if (ours.errors || ours.non2xx || theirs.errors || theirs.non2xx)
      throw new Error(`errors while loading ${file}`);
    const ratio = ours.requests / theirs.requests;
    rows.push(
      `| ${file} (${SITE_FILES[file]!.length} B) | ${ours.requests.toFixed(0)} | ${theirs.requests.toFixed(0)} | ${ratio.toFixed(2)} | ${ours.p99} / ${theirs.p99} |`,
    );
  }
  console.log('| file | gateway req/s | @fastify/static req/s | ratio | p99 ms (gateway / static) |');
  console.log('|---|---|---|---|---|');
  for (const row of rows) console.log(row);

  await baseline.close();
  await closeGateway();
  fs.rmSync(work, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
