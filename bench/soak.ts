/**
 * Soak: a bounded mixed read/write load against one gateway process for several minutes, reporting
 * p99 latency and the server's RSS minute by minute (steady p99, no memory growth is the goal).
 * Loopback only; stops by itself.
 *
 *   npx tsx bench/soak.ts [minutes=5] [connections=20]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { startBenchGateway } from './support/gateway.js';
import { startServerProcess } from './support/measure.js';

const role = process.argv[2];

async function serveGateway(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-soak-'));
  const { app, token, userId } = await startBenchGateway({
    databaseUrl: process.env.DATABASE_URL,
    pgliteDir: path.join(dataDir, 'db'),
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  process.on('message', (message) => {
    if (message === 'rss') process.send!({ rss: process.memoryUsage().rss });
  });
  process.send!({
    url,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    userId,
  });
}

async function main(): Promise<void> {
  const minutes = Number(process.argv[2] ?? 5);
  const connections = Number(process.argv[3] ?? 20);
  const server = startServerProcess(new URL(import.meta.url).pathname, ['gateway']);
  const target = (await server.ready) as { url: string; headers: Record<string, string>; userId: string };
  const rss = () =>
    new Promise<number>((resolve) => {
      server.child.once('message', (message) => resolve((message as { rss: number }).rss));
      server.child.send('rss');
    });
  console.log(
    `soak: ${minutes} min, ${connections} connections; mix per connection: 3 reads : 1 audited write`,
  );
  console.log('minute  req/s   p50 ms  p99 ms  errors  non-2xx  server RSS MiB');
  for (let minute = 1; minute <= minutes; minute++) {
    const result = await autocannon({
      url: target.url,
      headers: target.headers,
      connections,
      duration: 60,
      requests: [
        { method: 'GET', path: '/auth/me' },
        { method: 'GET', path: '/api/admin/users?limit=20' },
        { method: 'GET', path: '/auth/tokens' },
        {
          method: 'PATCH',
          path: `/api/admin/users/${target.userId}/name`,
          body: JSON.stringify({ name: `Soak ${minute}` }),
        },
      ],
    });
    const memory = (await rss()) / 1024 / 1024;
    console.log(
      `${String(minute).padStart(6)}  ${String(Math.round(result.requests.average)).padStart(6)}  ${String(result.latency.p50).padStart(6)}  ` +
        `${String(result.latency.p99).padStart(6)}  ${String(result.errors).padStart(6)}  ${String(result.non2xx).padStart(7)}  ${memory.toFixed(1).padStart(14)}`,
    );
  }
  server.stop();
}

if (role === 'gateway') void serveGateway();
else void main();
