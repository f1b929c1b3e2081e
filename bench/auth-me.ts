/**
 * GET /auth/me through the gateway (real token lookup, principal cache) against a raw node:http
 * server answering the same JSON, and against Fastify alone answering it (the framework's own floor:
 * one route with its response schema, no hooks, no logger), each in a child process, driven by
 * autocannon one after the other.
 *
 *   npx tsx bench/auth-me.ts [durationSeconds=10] [connections=50]
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { startBenchGateway } from './support/gateway.js';
import { load, printTable, startServerProcess } from './support/measure.js';

const role = process.argv[2];

const me = {
  data: {
    id: crypto.randomUUID(),
    email: 'admin@localhost',
    name: 'Administrator',
    groupName: 'admins',
    scopes: ['*'],
  },
};

async function serveRaw(): Promise<void> {
  const body = JSON.stringify(me);
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    response.end(body);
  });
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    process.send!({ url: `http://127.0.0.1:${port}/auth/me` });
  });
}

async function serveFastifyAlone(): Promise<void> {
  const app = Fastify({ logger: false });
  const text = { type: 'string' };
  const response = {
    type: 'object',
    properties: {
      data: {
        type: 'object',
        properties: {
          id: text,
          email: text,
          name: text,
          groupName: text,
          scopes: { type: 'array', items: text },
        },
      },
    },
  };
  app.get('/auth/me', { schema: { response: { 200: response } } }, async () => me);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  process.send!({ url: `${url}/auth/me` });
}

async function serveGateway(): Promise<void> {
  // On disk, as `npm start` runs it.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-bench-'));
  const { app, token } = await startBenchGateway({ pgliteDir: path.join(dataDir, 'db') });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  process.send!({ url: `${url}/auth/me`, headers: { authorization: `Bearer ${token}` } });
}

async function main(): Promise<void> {
  const duration = Number(process.argv[2] ?? 10);
  const connections = Number(process.argv[3] ?? 50);
  const script = new URL(import.meta.url).pathname;
  const results = [];
  for (const [label, serverRole] of [
    ['raw node:http', 'raw'],
    ['Fastify alone', 'fastify'],
    ['infragate GET /auth/me', 'gateway'],
  ] as const) {
    const server = startServerProcess(script, [serverRole]);
    const target = await server.ready;
    await load(`${label} (warm-up)`, { ...target, connections, durationSeconds: 2 });
    results.push(await load(label, { ...target, connections, durationSeconds: duration }));
    server.stop();
  }
  console.log(
    `GET /auth/me, ${connections} connections, ${duration} s each, node ${process.version}, ${os.cpus().length} cores`,
  );
  printTable(results, results[0]!);
}

if (role === 'raw') void serveRaw();
else if (role === 'fastify') void serveFastifyAlone();
else if (role === 'gateway') void serveGateway();
else void main();
