import { Redis } from 'ioredis';
import { expect } from 'vitest';
import type { Config } from '../../src/config.js';
import { type RedisServer, startRedis } from '../services/redis.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

let counter = 0;

/** Registers a key-value database through the API and answers its id. */
export async function registerDatabase(
  gateway: TestGateway,
  fields: Record<string, unknown> & { url: string },
): Promise<string> {
  counter += 1;
  const result = await gateway.call('POST', '/api/databases', {
    body: { name: `kv-${counter}-${Date.now()}`, type: 'keyvalue', ...fields },
  });
  expect(result.status, JSON.stringify(result.body)).toBe(201);
  return result.body.data.id as string;
}

/** Runs a console command as `token` (the admin by default). */
export function command(gateway: TestGateway, id: string, line: string, token?: string) {
  return gateway.call('POST', `/api/databases/${id}/keyvalue/command`, {
    body: { command: line },
    ...(token ? { token } : {}),
  });
}

export interface KeyValueFixture {
  gateway: TestGateway;
  server: RedisServer;
  /** A client of the server straight, to seed and check what the gateway did. */
  direct: Redis;
  /** The server registered as a database. */
  db: string;
  stop(): Promise<void>;
}

/** A gateway, a redis-server registered in it and a direct client of that server. */
export async function startKeyValueFixture(
  options: { config?: Partial<Config>; redisArgs?: string[] } = {},
): Promise<KeyValueFixture> {
  const [gateway, server] = await Promise.all([
    startTestGateway(options.config),
    startRedis(options.redisArgs),
  ]);
  const direct = new Redis(server.url);
  const db = await registerDatabase(gateway, { url: server.url });
  return {
    gateway,
    server,
    direct,
    db,
    async stop() {
      direct.disconnect();
      await gateway.close();
      await server.stop();
    },
  };
}
