/**
 * HTTPS with the certificate chosen per SNI name (the gateway's TLS listener, 100 stored
 * certificates plus a wildcard and a default) against a bare `node:https` server with one
 * certificate, the same TLS settings and the same tiny JSON answer. Each server runs in its own
 * process; the parent measures, one server after the other:
 *   - TLS handshakes per second: full handshakes (no session resumption) by concurrent `tls.connect`
 *     loops that close each connection once it is established;
 *   - requests per second over kept-alive HTTPS connections (autocannon, as the other benches).
 *
 *   npx tsx bench/https-sni.ts [durationSeconds=5] [connections=20] [rounds=3]
 */
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { systemActor } from '../src/core/actor.js';
import { CertificateService } from '../src/modules/certificates/certificates.js';
import { listenHttps } from '../src/modules/certificates/tls/https-listener.js';
import { TLS_SETTINGS } from '../src/modules/certificates/tls/tls-settings.js';
import { type Leaf, TestCa } from '../test/certificates/tls-material.js';
import { startBenchGateway } from './support/gateway.js';
import { type LoadResult, load, printTable, startServerProcess } from './support/measure.js';

const SERVERNAME = 'bench.example.test';
const OTHER_CERTIFICATES = 100;

interface Material {
  ca: string;
  target: Leaf;
  wildcard: Leaf;
  others: Leaf[];
}

const [role, materialFile] = process.argv.slice(2);

async function serveBare(material: Material): Promise<void> {
  const body = JSON.stringify({ status: 'ok' });
  const server = https.createServer(
    { ...TLS_SETTINGS, cert: material.target.certificatePem, key: material.target.privateKeyPem },
    (_request, response) => {
      // With its length given, as Fastify does: a chunked answer would cost an extra TLS record.
      response.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
      });
      response.end(body);
    },
  );
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    process.send!({ url: `https://127.0.0.1:${port}/healthz` });
  });
}

async function serveGateway(material: Material): Promise<void> {
  const { app, database } = await startBenchGateway();
  await app.ready();
  const certificates = new CertificateService(app.deps);
  const store = (name: string, leaf: Leaf) =>
    certificates.upload(systemActor(), {
      name,
      certificatePem: leaf.certificatePem,
      privateKeyPem: leaf.privateKeyPem,
    });
  for (const [index, leaf] of material.others.entries()) await store(`other-${index}`, leaf);
  await store('wildcard', material.wildcard);
  await store('target', material.target);
  const listener = await listenHttps(app, database, {
    port: 0,
    host: '127.0.0.1',
    defaultCertificate: 'wildcard',
  });
  process.send!({ url: `https://127.0.0.1:${listener.port}/healthz` });
}

/** Full TLS handshakes per second from `concurrency` loops, each connection closed once established. */
async function handshakesPerSecond(url: string, ca: string, seconds: number, concurrency: number) {
  const { port } = new URL(url);
  const deadline = Date.now() + seconds * 1000;
  let count = 0;
  let failures = 0;
  const loop = async () => {
    while (Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const socket = tls.connect({ host: '127.0.0.1', port: Number(port), servername: SERVERNAME, ca });
        socket.once('secureConnect', () => {
          if (socket.authorized) count++;
          else failures++;
          socket.destroy();
          resolve();
        });
        socket.once('error', () => {
          failures++;
          resolve();
        });
      });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  return { perSecond: Math.round(count / seconds), failures };
}

async function main(): Promise<void> {
  const duration = Math.min(Number(process.argv[2] ?? 5), 60);
  const connections = Math.min(Number(process.argv[3] ?? 20), 200);
  const rounds = Math.min(Number(process.argv[4] ?? 3), 10);
  const ca = new TestCa();
  const material: Material = {
    ca: ca.caPem,
    target: ca.leaf([SERVERNAME]),
    wildcard: ca.leaf(['*.example.test']),
    others: Array.from({ length: OTHER_CERTIFICATES }, (_, index) => ca.leaf([`host-${index}.other.test`])),
  };
  const file = path.join(ca.dir, 'material.json');
  fs.writeFileSync(file, JSON.stringify(material));
  const script = new URL(import.meta.url).pathname;
  const servers = (['bare', 'gateway'] as const).map((role) => startServerProcess(script, [role, file]));
  const targets = await Promise.all(servers.map((server) => server.ready));
  const labels = ['bare node:https, 1 cert', 'infragate HTTPS, SNI'];
  // Both servers stay up and are measured in alternating rounds; the best round of each counts, since
  // the other tenants of a shared machine only ever slow a round down.
  const handshakes = labels.map((label) => ({ label, perSecond: 0, failures: 0 }));
  const requests: LoadResult[] = labels.map((label) => ({
    label,
    requestsPerSecond: 0,
    total: 0,
    p50Ms: 0,
    p99Ms: 0,
    errors: 0,
    non2xx: 0,
  }));
  for (const target of targets) {
    await handshakesPerSecond(target.url, material.ca, 2, connections);
    await load('warm-up', { url: target.url, connections, servername: SERVERNAME, durationSeconds: 2 });
  }
  for (let round = 0; round < rounds; round++) {
    for (const [index, target] of targets.entries()) {
      const shaken = await handshakesPerSecond(target.url, material.ca, duration, connections);
      if (shaken.perSecond > handshakes[index]!.perSecond)
        handshakes[index] = { label: labels[index]!, ...shaken };
      const loaded = await load(labels[index]!, {
        url: target.url,
        connections,
        servername: SERVERNAME,
        durationSeconds: duration,
      });
      if (loaded.requestsPerSecond > requests[index]!.requestsPerSecond) requests[index] = loaded;
    }
  }
  for (const server of servers) server.stop();
  const [load1, load2] = os.loadavg();
  console.log(
    `HTTPS with SNI selection, ${connections} connections, best of ${rounds} alternating ${duration} s rounds, node ${process.version}, ` +
      `${os.cpus().length} cores, load average ${load1!.toFixed(1)} / ${load2!.toFixed(1)}`,
  );
  console.log('TLS handshakes (full, no resumption):');
  for (const entry of handshakes) {
    const ratio = ((entry.perSecond / handshakes[0]!.perSecond) * 100).toFixed(1);
    console.log(
      `${entry.label.padEnd(28)} ${String(entry.perSecond).padStart(8)} handshakes/s  ${ratio}% of ${handshakes[0]!.label}  failures ${entry.failures}`,
    );
  }
  console.log('Requests over kept-alive HTTPS connections:');
  printTable(requests, requests[0]!);
  ca.cleanup();
}

const readMaterial = () => JSON.parse(fs.readFileSync(materialFile!, 'utf8')) as Material;
if (role === 'bare') void serveBare(readMaterial());
else if (role === 'gateway') void serveGateway(readMaterial());
else void main();
