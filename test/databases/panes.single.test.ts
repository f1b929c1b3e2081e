import crypto from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, redisBinary } from '../services/redis.js';
import { auditEventsMatching } from '../support/audit-events.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import type { TestGateway } from '../support/gateway.js';
import { type KeyValueFixture, registerDatabase, startKeyValueFixture } from './helpers.js';

const redis = redisBinary();

describe.skipIf(!redis.path)(
  `key-value server panes${redis.skipReason ? ` (${redis.skipReason})` : ''}`,
  () => {
    let gateway: TestGateway;
    let server: RedisServer;
    let direct: Redis;
    let db: string;
    let dangerous: string;

    let fixture: KeyValueFixture | undefined;

    beforeAll(async () => {
      fixture = await startKeyValueFixture({ redisArgs: ['--slowlog-log-slower-than', '0'] });
      ({ gateway, server, direct, db } = fixture);
      dangerous = await registerDatabase(gateway, { url: server.url, allowDangerous: true });
    });
    afterAll(() => fixture?.stop());

    const pane = (name: string, token?: string, id = db) =>
      gateway.call('GET', `/api/databases/${id}/keyvalue/${name}`, token ? { token } : {});

    it('answers INFO parsed into sections', async () => {
      const result = await pane('info');
      expect(result.status, result.text).toBe(200);
      expect(result.body.data.sections.server.redis_version).toMatch(/^\d+\.\d+/);
      expect(result.body.data.sections.memory.used_memory).toMatch(/^\d+$/);
    });

    it('answers the slow log with each command and its duration', async () => {
      const marker = `slow-${crypto.randomBytes(4).toString('hex')}`;
      await direct.set(marker, 'v');
      const result = await pane('slowlog');
      expect(result.status, result.text).toBe(200);
      const entry = result.body.data.find((item: { command: string[] }) => item.command[1] === marker);
      expect(entry).toMatchObject({ command: ['set', marker, 'v'], durationMicros: expect.any(Number) });
      expectValidationError(
        await gateway.call('GET', `/api/databases/${db}/keyvalue/slowlog`, { query: { count: 0 } }),
        ['count'],
      );
    });

    it('empties the slow log for databases:admin on a database that allows admin commands, audited', async () => {
      await direct.set('before-reset', 'v');
      const admin = await gateway.tokenWithScopes(['databases:admin']);
      const reset = await gateway.call('DELETE', `/api/databases/${dangerous}/keyvalue/slowlog`, {
        token: admin,
      });
      expect(reset.status, reset.text).toBe(200);
      const after = await pane('slowlog');
      expect(after.body.data.some((item: { command: string[] }) => item.command[1] === 'before-reset')).toBe(
        false,
      );
      const events = await auditEventsMatching(gateway, {
        action: 'databases.keyvalue.slowlog_reset',
        targetId: dangerous,
      });
      expect(events).toHaveLength(1);
    });

    it('refuses the reset with 422 where admin commands are not allowed and with 403 to databases:write', async () => {
      const refused = await gateway.call('DELETE', `/api/databases/${db}/keyvalue/slowlog`);
      expectError(refused, 422, 'UNPROCESSABLE_ENTITY');
      expect(refused.body.details.reason).toBe('DANGEROUS_COMMANDS_DISABLED');
      const writer = await gateway.tokenWithScopes(['databases:write']);
      expectError(
        await gateway.call('DELETE', `/api/databases/${dangerous}/keyvalue/slowlog`, { token: writer }),
        403,
        'FORBIDDEN',
      );
    });

    it("answers the connected clients, the gateway's own among them", async () => {
      const result = await pane('clients');
      expect(result.status, result.text).toBe(200);
      expect(result.body.data).toContainEqual(
        expect.objectContaining({ name: 'infragate-console', id: expect.any(String) }),
      );
    });

    it('needs databases:read (or read:<id> for that database only) and a token', async () => {
      expectError(
        await gateway.call('GET', `/api/databases/${db}/keyvalue/info`, { token: null }),
        401,
        'UNAUTHORIZED',
      );
      const viewer = await gateway.tokenWithScopes(['databases:view']);
      for (const name of ['info', 'slowlog', 'clients'])
        expectError(await pane(name, viewer), 403, 'FORBIDDEN');
      const scoped = await gateway.tokenWithScopes([`databases:read:${db}`]);
      expect((await pane('clients', scoped)).status).toBe(200);
      expectError(await pane('info', scoped, dangerous), 404, 'NOT_FOUND');
      expectError(await pane('info', undefined, crypto.randomUUID()), 404, 'NOT_FOUND');
    });
  },
);
