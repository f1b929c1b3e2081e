/**
 * Pages over HTTPS vs over plain HTTP: the same site served by Host (`bench.<pages base domain>`)
 * from two gateways, each in its own process with its own database and the same deployment, one on
 * its HTTP listener, one on its TLS listener with a wildcard certificate for the base domain chosen
 * by SNI name. The parent drives both with autocannon over kept-alive connections in alternating
 * rounds and keeps the best round of each (other tenants of a shared machine only slow a round down).
 *
 *   npx tsx bench/pages-https.ts [durationSeconds=4] [connections=20] [rounds=3]
 */
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { systemActor } from '../src/core/actor.js';
import { CertificateService } from '../src/modules/certificates/certificates.js';
import { listenHttps } from '../src/modules/certificates/tls/https-listener.js';
import { type Leaf, TestCa } from '../test/certificates/tls-material.js';
import { deploySite, SITE_FILES, SITE_TARGETS, siteArchive } from './support/bench-site.js';
import { startBenchGateway } from './support/gateway.js';
import { type LoadResult, load, startServerProcess } from './support/measure.js';

const BASE_DOMAIN = 'pages.bench.test';
const HOST = `bench.${BASE_DOMAIN}`;

interface Material {
  ca: string;
  wildcard: Leaf;
}

const [role, materialFile] = process.argv.slice(2);

/** A gateway with the site deployed, listening on plain HTTP or on TLS only. */
async function serve(over: 'http' | 'https', material: Material): Promise<void> {
  const { app, database, token } = await startBenchGateway({
    config: { pages: { ...loadConfig({}).pages, baseDomain: BASE_DOMAIN } },
  });
  await deploySite(app, token, 'bench', await siteArchive());
  if (over === 'http') {
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    process.send!({ url: base });
    return;
  }
  await app.ready();
  await new CertificateService(app.deps).upload(systemActor(), {
    name: 'pages wildcard',
    ...material.wildcard,
  });
  const listener = await listenHttps(app, database, {
    port: 0,
    host: '127.0.0.1',
    defaultCertificate: undefined,
  });
  process.send!({ url: `https://127.0.0.1:${listener.port}` });
}

/** One GET by Host (and SNI name) through a fresh connection, trusting the test CA: the bytes answered. */
function fetchOnce(base: string, file: string, ca: string): Promise<Buffer> {
  const url = new URL(`/${file}`, base);
  const secure = url.protocol === 'https:';
  return new Promise<Buffer>((resolve, reject) => {
    const request = (secure ? https : http).get(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        headers: { host: HOST },
        ...(secure ? { servername: HOST, ca } : {}),
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          response.statusCode === 200
            ? resolve(Buffer.concat(chunks))
            : reject(new Error(`${url} answered ${response.statusCode}`)),
        );
      },
    );
    request.on('error', reject);
  });
}

async function main(): Promise<void> {
  const duration = Math.min(Number(process.argv[2] ?? 4), 60);
  const connections = Math.min(Number(process.argv[3] ?? 20), 200);
  const rounds = Math.min(Number(process.argv[4] ?? 3), 10);
  const ca = new TestCa();
  const material: Material = { ca: ca.caPem, wildcard: ca.leaf([`*.${BASE_DOMAIN}`]) };
  const file = path.join(ca.dir, 'material.json');
  fs.writeFileSync(file, JSON.stringify(material));
  const script = new URL(import.meta.url).pathname;
  const servers = (['http', 'https'] as const).map((over) => startServerProcess(script, [over, file]));
  try {
    await measure(servers, material, { duration, connections, rounds });
  } finally {
    for (const server of servers) server.stop();
    ca.cleanup();
  }
}

async function measure(
  servers: ReturnType<typeof startServerProcess>[],
  material: Material,
  { duration, connections, rounds }: { duration: number; connections: number; rounds: number },
): Promise<void> {
  const [httpBase, httpsBase] = (await Promise.all(servers.map((server) => server.ready))).map(
    (ready) => ready.url,
  ) as [string, string];

  const rows: string[] = [];
  for (const target of SITE_TARGETS) {
    // Same bytes over both, through the certificate chain a browser would check.
    const [plain, secure] = await Promise.all([
      fetchOnce(httpBase, target, material.ca),
      fetchOnce(httpsBase, target, material.ca),
    ]);
    if (!plain.equals(secure) || !plain.equals(SITE_FILES[target]!)) throw new Error(`mismatch on ${target}`);
    const options = (base: string) => ({
      url: `${base}/${target}`,
      headers: { host: HOST },
      connections,
      ...(base.startsWith('https:') ? { servername: HOST } : {}),
    });
    for (const base of [httpBase, httpsBase]) await load('warm-up', { ...options(base), durationSeconds: 1 });
    const best: LoadResult[] = [];
    for (let round = 0; round < rounds; round++) {
      for (const [index, base] of [httpBase, httpsBase].entries()) {
        const result = await load(index === 0 ? 'HTTP' : 'HTTPS', {
          ...options(base),
          durationSeconds: duration,
        });
        if (result.errors || result.non2xx)
          throw new Error(`errors while loading ${target} (${result.label})`);
        if (result.requestsPerSecond > (best[index]?.requestsPerSecond ?? 0)) best[index] = result;
      }
    }
    const [overHttp, overHttps] = best as [LoadResult, LoadResult];
    rows.push(
      `| ${target} (${SITE_FILES[target]!.length} B) | ${overHttp.requestsPerSecond} | ${overHttps.requestsPerSecond} | ` +
        `${(overHttps.requestsPerSecond / overHttp.requestsPerSecond).toFixed(2)} | ${overHttp.p99Ms} / ${overHttps.p99Ms} |`,
    );
  }
  const [load1, load5] = os.loadavg();
  console.log(
    `pages over HTTPS vs HTTP, by Host ${HOST}, ${connections} kept-alive connections, best of ${rounds} alternating ${duration} s rounds, ` +
      `node ${process.version}, ${os.cpus().length} cores, load average ${load1!.toFixed(1)} / ${load5!.toFixed(1)}`,
  );
  console.log('| file | HTTP req/s | HTTPS req/s | ratio (HTTPS / HTTP) | p99 ms (HTTP / HTTPS) |');
  console.log('|---|---|---|---|---|');
  for (const row of rows) console.log(row);
}

const readMaterial = () => JSON.parse(fs.readFileSync(materialFile!, 'utf8')) as Material;
if (role === 'http' || role === 'https') void serve(role, readMaterial());
else void main();
