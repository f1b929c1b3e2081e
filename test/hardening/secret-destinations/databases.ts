import crypto from 'node:crypto';
import { redisBinary, startRedis } from '../../services/redis.js';
import type { SecretDestinationCase } from './case.js';

const secret = `kv-walk-${crypto.randomUUID()}`;

/**
 * A key-value database: its password goes to the server in `url` (HELLO … AUTH / AUTH) when a
 * command opens a connection. The first server is a real one that wants this password, so the
 * pool is open and signed in when the URL moves.
 */
export const keyValueDatabase: SecretDestinationCase = {
  operation: 'PATCH /api/databases/{id}',
  secret,
  secretField: 'password',
  ...(redisBinary().skipReason ? { skipReason: redisBinary().skipReason } : {}),
  async peer() {
    const server = await startRedis(['--requirepass', secret]);
    return { destination: server.url, close: () => server.stop() };
  },
  async create(gateway, firstDestination) {
    const result = await gateway.call('POST', '/api/databases', {
      body: {
        name: `walk-${crypto.randomUUID()}`,
        type: 'keyvalue',
        url: firstDestination,
        password: secret,
      },
    });
    return `/api/databases/${result.body.data.id}`;
  },
  retarget: (gateway, recordPath, capture) =>
    gateway.call('PATCH', recordPath, { body: { url: `redis://${capture.host}:${capture.port}` } }),
  use: (gateway, recordPath) =>
    gateway.call('POST', `${recordPath}/keyvalue/command`, { body: { command: 'PING' } }),
};
