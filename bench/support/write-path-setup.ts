/** The gateways and paths the write-path benches measure (bench/write-path.ts, bench/write-path-bursts.ts). */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDatabase, type PostgresServer } from '../../test/services/postgres.js';
import type { RedisServer } from '../../test/services/redis.js';
import type { LoadOptions } from './measure.js';
import { type ServedGateway, serveTree } from './serve-process.js';

/** A tree's gateway prepared on one database: its data dir, admin token and the ids the paths use. */
export interface Prepared {
  tree: { label: string; root: string };
  dataDir: string;
  databaseUrl: string | undefined;
  token: string;
  /** Users renamed in turn, one per connection, so that writes do not queue on one row's lock. */
  userIds: string[];
  keyvalueId: string;
  first: { startMs: number; rssMiB: number };
}

export const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function call(gateway: ServedGateway, token: string, method: string, url: string, body?: unknown) {
  const response = await fetch(`${gateway.baseUrl}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await response.json()) as { data: { id: string } };
  if (response.status >= 300) throw new Error(`${method} ${url} answered ${response.status}`);
  return answer.data;
}

/** First start on a new data dir or database: the admin token, a user to rename, the redis to query. */
export async function prepare(
  tree: Prepared['tree'],
  postgres: PostgresServer | undefined,
  redis: RedisServer,
  connections: number,
) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `infragate-wp-${tree.label}-`));
  const databaseUrl = postgres ? await createDatabase(postgres.url) : undefined;
  const gateway = await serveTree({ tree: tree.root, dataDir, databaseUrl });
  await settle(2000);
  const first = { startMs: gateway.startMs, rssMiB: gateway.rssMiB() };
  const token = /\b(igw_[A-Za-z0-9_-]{43})/.exec(gateway.output())![1]!;
  const userIds: string[] = [];
  for (let i = 0; i < connections; i++) {
    const user = await call(gateway, token, 'POST', '/api/admin/users', {
      email: `target-${i}-${crypto.randomUUID()}@localhost`,
      name: 'Bench Target',
      group: 'admins',
    });
    userIds.push(user.id);
  }
  const keyvalue = await call(gateway, token, 'POST', '/api/databases', {
    name: 'bench',
    type: 'keyvalue',
    url: redis.url,
  });
  await call(gateway, token, 'POST', `/api/databases/${keyvalue.id}/keyvalue/command`, {
    command: `SET k ${'x'.repeat(64)}`,
  });
  await gateway.stop();
  return { tree, dataDir, databaseUrl, token, userIds, keyvalueId: keyvalue.id, first };
}

export type PathKind = 'me' | 'rename' | 'kv';

/** The load of one measured path on a gateway prepared by `prepare`. */
export function target(gateway: ServedGateway, prepared: Prepared, kind: PathKind): LoadOptions {
  const headers = { authorization: `Bearer ${prepared.token}`, 'content-type': 'application/json' };
  return {
    me: { url: `${gateway.baseUrl}/auth/me`, method: 'GET' as const, headers },
    rename: {
      url: gateway.baseUrl,
      paths: prepared.userIds.map((id) => `/api/admin/users/${id}/name`),
      method: 'PATCH' as const,
      body: '{"name":"Bench Target"}',
      headers,
    },
    kv: {
      url: `${gateway.baseUrl}/api/databases/${prepared.keyvalueId}/keyvalue/command`,
      method: 'POST' as const,
      body: '{"command":"GET k"}',
      headers,
    },
  }[kind];
}
