import crypto from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../src/db/schema/index.js';
import { openssl } from '../services/openssl-pki.js';
import { type RedisServer, redisBinary, startRedis } from '../services/redis.js';
import { auditEventsAbout } from '../support/audit-events.js';
import { eventually } from '../support/eventually.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { command, registerDatabase } from './helpers.js';

const redis = redisBinary();

describe.skipIf(!redis.path)(`key-value console${redis.skipReason ? ` (${redis.skipReason})` : ''}`, () => {
  let gateway: TestGateway;
  let server: RedisServer;
  let secured: RedisServer;
  let db: string;

  beforeAll(async () => {
    [gateway, server, secured] = await Promise.all([
      startTestGateway(),
      startRedis(),
      startRedis([
        '--requirepass',
        'right-password',
        '--user',
        'alice',
        'on',
        '>alice-pw',
        '~*',
        '&*',
        '+@all',
      ]),
    ]);
    db = await registerDatabase(gateway, { url: server.url });
  });
  afterAll(async () => {
    await gateway?.close();
    await Promise.all([server?.stop(), secured?.stop()]);
  });

  const key = () => `key-${crypto.randomBytes(4).toString('hex')}`;

  describe('running commands', () => {
    it('sets and gets a value', async () => {
      const k = key();
      const set = await command(gateway, db, `SET ${k} hello`);
      expect(set.status).toBe(200);
      expect(set.body.data).toMatchObject({
        command: 'SET',
        class: 'write',
        result: 'OK',
        type: 'string',
        truncated: false,
      });
      expect(typeof set.body.data.durationMs).toBe('number');
      const get = await command(gateway, db, `get ${k}`);
      expect(get.body.data).toMatchObject({ command: 'GET', class: 'read', result: 'hello', type: 'string' });
    });

    it('sends the commands of requests that arrive together in a few writes, not one each', async () => {
      const k = key();
      // Both pooled connections open (on first use), and GET's description cached.
      for (let i = 0; i < 2; i++) expect((await command(gateway, db, `GET ${k}`)).status).toBe(200);
      expect((await command(gateway, db, `SET ${k} v`)).status).toBe(200);
      const observer = new Redis(server.url);
      try {
        const readsProcessed = async () =>
          Number(/total_reads_processed:(\d+)/.exec(await observer.info('stats'))![1]);
        const before = await readsProcessed();
        const answers = await Promise.all(Array.from({ length: 20 }, () => command(gateway, db, `GET ${k}`)));
        for (const answer of answers) expect(answer.body.data.result).toBe('v');
        // Each INFO is one read too. One write per command would make twenty reads.
        expect((await readsProcessed()) - before - 1).toBeLessThan(answers.length / 2);
      } finally {
        observer.disconnect();
      }
    });

    it.each([
      ['double quotes with a space', '"hello world"', 'hello world'],
      ['escapes inside double quotes', '"say \\"hi\\"\\n\\ttab"', 'say "hi"\n\ttab'],
      ['hex escapes inside double quotes', '"\\x41\\x42"', 'AB'],
      ['single quotes keep backslashes', "'C:\\dir'", 'C:\\dir'],
      ['an escaped single quote', "'it\\'s'", "it's"],
      ['an empty string', '""', ''],
      ['unicode text', '"grüße ✓"', 'grüße ✓'],
    ])('reads %s like redis-cli', async (_what, literal, expected) => {
      const k = key();
      expect((await command(gateway, db, `SET ${k} ${literal}`)).status).toBe(200);
      const get = await command(gateway, db, `GET ${k}`);
      expect(get.body.data.result).toBe(expected);
    });

    it('refuses unbalanced quotes with 400 at path command', async () => {
      expectValidationError(await command(gateway, db, 'SET k "unterminated'), ['command']);
      expectValidationError(await command(gateway, db, "SET k 'unterminated"), ['command']);
    });

    it('refuses a closing quote followed by more text with 400', async () => {
      expectValidationError(await command(gateway, db, 'SET k "a"b'), ['command']);
    });

    it('refuses a blank command with 400 and a missing one with 400', async () => {
      expectValidationError(await command(gateway, db, '   '), ['command']);
      const missing = await gateway.call('POST', `/api/databases/${db}/keyvalue/command`, { body: {} });
      expectValidationError(missing, ['command']);
    });

    it('answers a hash as a map', async () => {
      const k = key();
      const hset = await command(gateway, db, `HSET ${k} name ada lang "en gb"`);
      expect(hset.body.data).toMatchObject({ result: 2, type: 'integer' });
      const all = await command(gateway, db, `HGETALL ${k}`);
      expect(all.body.data).toMatchObject({ type: 'map', result: { name: 'ada', lang: 'en gb' } });
    });

    it('answers bytes that are not UTF-8 as base64', async () => {
      const k = key();
      await command(gateway, db, `SET ${k} "\\xff\\xfe\\x00\\x01"`);
      const get = await command(gateway, db, `GET ${k}`);
      expect(get.body.data).toMatchObject({ type: 'binary', result: { base64: '//4AAQ==' } });
    });

    it('answers lists as arrays, a missing key as null and scores as doubles', async () => {
      const k = key();
      await command(gateway, db, `RPUSH ${k} a b c`);
      expect((await command(gateway, db, `LRANGE ${k} 0 -1`)).body.data).toMatchObject({
        type: 'array',
        result: ['a', 'b', 'c'],
      });
      expect((await command(gateway, db, `GET ${key()}`)).body.data).toMatchObject({
        type: 'null',
        result: null,
      });
      const z = key();
      await command(gateway, db, `ZADD ${z} 1.5 member`);
      expect((await command(gateway, db, `ZSCORE ${z} member`)).body.data).toMatchObject({
        type: 'double',
        result: 1.5,
      });
    });

    it('classifies a subcommand by its own flags (CONFIG GET is admin)', async () => {
      const result = await command(gateway, db, 'CONFIG GET maxmemory');
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(result.body.details.reason).toBe('DANGEROUS_COMMANDS_DISABLED');
    });

    it('answers an error from the server with 422 carrying it', async () => {
      const k = key();
      await command(gateway, db, `SET ${k} text`);
      const result = await command(gateway, db, `LPUSH ${k} x`);
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(result.body.details).toMatchObject({ reason: 'COMMAND_ERROR' });
      expect(result.body.details.serverError).toMatch(/^WRONGTYPE/);
    });

    it('answers an unknown command with 422 carrying the server error', async () => {
      const result = await command(gateway, db, 'NOSUCHCOMMAND a b');
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(result.body.details.reason).toBe('UNKNOWN_COMMAND');
      expect(result.body.details.serverError).toMatch(/unknown command/i);
    });

    it('answers 404 for an unknown database', async () => {
      expectError(await command(gateway, crypto.randomUUID(), 'PING'), 404, 'NOT_FOUND');
    });

    it('refuses a request without a token with 401 and a caller without databases:read with 403', async () => {
      const anonymous = await gateway.call('POST', `/api/databases/${db}/keyvalue/command`, {
        token: null,
        body: { command: 'PING' },
      });
      expectError(anonymous, 401, 'UNAUTHORIZED');
      expectError(await command(gateway, db, 'PING', await gateway.tokenWithScopes([])), 403, 'FORBIDDEN');
    });
  });

  describe('scopes by command class', () => {
    it('lets databases:read run a read and refuses it a write with 403', async () => {
      const reader = await gateway.tokenWithScopes(['databases:read']);
      expect((await command(gateway, db, `GET ${key()}`, reader)).status).toBe(200);
      const write = await command(gateway, db, `SET ${key()} v`, reader);
      expectError(write, 403, 'FORBIDDEN');
      expect(write.body.details).toMatchObject({ requiredScope: 'databases:write', commandClass: 'write' });
    });

    it('lets databases:write run a write', async () => {
      const writer = await gateway.tokenWithScopes(['databases:write']);
      expect((await command(gateway, db, `SET ${key()} v`, writer)).status).toBe(200);
    });

    it('lets databases:write run a read too: write includes read', async () => {
      const writer = await gateway.tokenWithScopes(['databases:write']);
      expect((await command(gateway, db, `GET ${key()}`, writer)).status).toBe(200);
    });

    it('lets databases:admin run a write: admin includes write', async () => {
      const admin = await gateway.tokenWithScopes(['databases:admin']);
      expect((await command(gateway, db, `SET ${key()} v`, admin)).status).toBe(200);
    });

    it('refuses FLUSHALL with 422 when the database does not allow dangerous commands', async () => {
      const result = await command(gateway, db, 'FLUSHALL');
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(result.body.details.reason).toBe('DANGEROUS_COMMANDS_DISABLED');
    });

    it('runs FLUSHALL when the database allows it and the caller has databases:admin', async () => {
      const scratch = await startRedis();
      try {
        const id = await registerDatabase(gateway, { url: scratch.url, allowDangerous: true });
        await command(gateway, id, 'SET doomed 1');
        const admin = await gateway.tokenWithScopes(['databases:admin']);
        const result = await command(gateway, id, 'FLUSHALL', admin);
        expect(result.status).toBe(200);
        expect(result.body.data).toMatchObject({ command: 'FLUSHALL', class: 'admin', result: 'OK' });
        expect((await command(gateway, id, 'DBSIZE')).body.data.result).toBe(0);
      } finally {
        await scratch.stop();
      }
    });

    it('refuses an admin command with 403 to a caller without databases:admin even when allowed', async () => {
      const id = await registerDatabase(gateway, { url: server.url, allowDangerous: true });
      const writer = await gateway.tokenWithScopes(['databases:write']);
      const result = await command(gateway, id, 'FLUSHALL', writer);
      expectError(result, 403, 'FORBIDDEN');
      expect(result.body.details.requiredScope).toBe('databases:admin');
    });

    describe('on one database', () => {
      it('lets databases:write:<id> run a write there', async () => {
        const writer = await gateway.tokenWithScopes([`databases:write:${db}`]);
        expect((await command(gateway, db, `SET ${key()} v`, writer)).status).toBe(200);
      });

      it('answers 404 to databases:write:<id> on another database', async () => {
        const other = await registerDatabase(gateway, { url: server.url });
        const writer = await gateway.tokenWithScopes([`databases:write:${db}`]);
        expectError(await command(gateway, other, `GET ${key()}`, writer), 404, 'NOT_FOUND');
        const history = await gateway.call('GET', `/api/databases/${other}/keyvalue/history`, {
          token: writer,
        });
        expectError(history, 404, 'NOT_FOUND');
      });

      it('refuses a write to databases:read:<id> with 403 naming the class scope', async () => {
        const reader = await gateway.tokenWithScopes([`databases:read:${db}`]);
        expect((await command(gateway, db, `GET ${key()}`, reader)).status).toBe(200);
        const write = await command(gateway, db, `SET ${key()} v`, reader);
        expectError(write, 403, 'FORBIDDEN');
        expect(write.body.details).toMatchObject({ requiredScope: 'databases:write', commandClass: 'write' });
      });

      it('lets a class scope on one database add to an area-wide one', async () => {
        const token = await gateway.tokenWithScopes(['databases:read', `databases:write:${db}`]);
        const other = await registerDatabase(gateway, { url: server.url });
        expect((await command(gateway, db, `SET ${key()} v`, token)).status).toBe(200);
        expect((await command(gateway, other, `GET ${key()}`, token)).status).toBe(200);
        expectError(await command(gateway, other, `SET ${key()} v`, token), 403, 'FORBIDDEN');
      });
    });

    it.each([
      ['BLPOP', 'BLPOP some-list 0', 'BLOCKING_COMMAND'],
      ['XREAD with BLOCK', 'XREAD BLOCK 0 STREAMS s $', 'BLOCKING_COMMAND'],
      ['SUBSCRIBE', 'SUBSCRIBE news', 'STREAMING_COMMAND'],
      ['PSUBSCRIBE', 'PSUBSCRIBE n*', 'STREAMING_COMMAND'],
      ['MONITOR', 'MONITOR', 'STREAMING_COMMAND'],
      ['SELECT', 'SELECT 2', 'CONNECTION_STATE_COMMAND'],
      ['MULTI', 'MULTI', 'CONNECTION_STATE_COMMAND'],
    ])('always refuses %s with 422', async (_what, line, reason) => {
      const result = await command(gateway, db, line);
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(result.body.details.reason).toBe(reason);
    });

    it('runs XREAD without BLOCK (it answers at once)', async () => {
      const stream = key();
      await command(gateway, db, `XADD ${stream} * field value`);
      const result = await command(gateway, db, `XREAD COUNT 1 STREAMS ${stream} 0`);
      expect(result.status).toBe(200);
    });
  });

  describe('connecting', () => {
    it('answers a wrong password with 422 and a clear message', async () => {
      const id = await registerDatabase(gateway, { url: secured.url, password: 'wrong-password' });
      const result = await command(gateway, id, 'PING');
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(result.body.details.reason).toBe('AUTH_FAILED');
      expect(result.body.details.explanation).toMatch(/WRONGPASS/);
      expect(result.text).not.toContain('wrong-password');
    });

    it('answers a missing password with 422 AUTH_FAILED', async () => {
      const id = await registerDatabase(gateway, { url: secured.url });
      const result = await command(gateway, id, 'GET x');
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(result.body.details.reason).toBe('AUTH_FAILED');
    });

    it('connects with the right password, and with an ACL user', async () => {
      const byPassword = await registerDatabase(gateway, { url: secured.url, password: 'right-password' });
      expect((await command(gateway, byPassword, 'PING')).body.data.result).toBe('PONG');
      const byUser = await registerDatabase(gateway, {
        url: secured.url,
        username: 'alice',
        password: 'alice-pw',
      });
      expect((await command(gateway, byUser, 'ACL WHOAMI')).body.data.result).toBe('alice');
    });

    it('answers 422 UNREACHABLE at once when the server is down', async () => {
      const down = await startRedis();
      await down.stop();
      const id = await registerDatabase(gateway, { url: down.url });
      const result = await command(gateway, id, 'PING');
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(result.body.details.reason).toBe('UNREACHABLE');
    });

    it('picks the connection back up when the server returns', async () => {
      const flaky = await startRedis();
      const id = await registerDatabase(gateway, { url: flaky.url });
      expect((await command(gateway, id, 'PING')).status).toBe(200);
      await flaky.stop();
      expect((await command(gateway, id, 'PING')).body.details.reason).toBe('UNREACHABLE');
      const again = await startRedis([], { port: flaky.port });
      try {
        expect((await command(gateway, id, 'PING')).status).toBe(200);
      } finally {
        await again.stop();
      }
    });
  });

  describe('history and audit', () => {
    it("lists the caller's commands newest first, with credentials masked", async () => {
      const id = await registerDatabase(gateway, { url: server.url });
      const user = await gateway.tokenWithScopes(['databases:read', 'databases:write']);
      await command(gateway, id, 'SET history-key "a value"', user);
      await command(gateway, id, 'AUTH someone top-secret-pw', user);
      await command(gateway, id, 'HELLO 3 AUTH default hello-secret', user);
      await command(gateway, id, 'PING', gateway.adminToken);
      const result = await gateway.call('GET', `/api/databases/${id}/keyvalue/history`, { token: user });
      expect(result.status).toBe(200);
      expect(result.body.data.map((entry: { command: string }) => entry.command)).toEqual([
        'HELLO 3 AUTH default ***',
        'AUTH *** ***',
        'SET history-key "a value"',
      ]);
      expect(result.body.data[0]).toMatchObject({ status: 'refused', commandName: 'HELLO' });
      expect(result.body.data[2]).toMatchObject({ status: 'ok', commandName: 'SET', error: null });
      expect(result.text).not.toContain('secret');
    });

    it('keeps the last 50 commands', async () => {
      const id = await registerDatabase(gateway, { url: server.url });
      for (let i = 1; i <= 53; i++) await command(gateway, id, `ECHO n${i}`);
      const result = await gateway.call('GET', `/api/databases/${id}/keyvalue/history`);
      expect(result.body.data).toHaveLength(50);
      expect(result.body.data[0].command).toBe('ECHO n53');
      expect(result.body.data[49].command).toBe('ECHO n4');
    });

    it('answers 404 for an unknown database, 403 without databases:read, 400 for a limit over 50', async () => {
      expectError(
        await gateway.call('GET', `/api/databases/${crypto.randomUUID()}/keyvalue/history`),
        404,
        'NOT_FOUND',
      );
      const forbidden = await gateway.call('GET', `/api/databases/${db}/keyvalue/history`, {
        token: await gateway.tokenWithScopes(['databases:view']),
      });
      expectError(forbidden, 403, 'FORBIDDEN');
      expectValidationError(
        await gateway.call('GET', `/api/databases/${db}/keyvalue/history`, { query: { limit: 51 } }),
        ['limit'],
      );
    });

    it('audits every command with its name and key count, never its values', async () => {
      const id = await registerDatabase(gateway, { url: server.url });
      await command(gateway, id, 'MSET audit-a value-one audit-b value-two');
      await command(gateway, id, 'FLUSHALL');
      const events = await gateway.deps.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.targetId, id), eq(auditEvents.action, 'databases.keyvalue.command_run')))
        .orderBy(desc(auditEvents.entry));
      expect(events.map((event) => [event.outcome, event.metadata])).toEqual([
        [
          'failure',
          expect.objectContaining({
            command: 'FLUSHALL',
            class: 'admin',
            status: 'refused',
            reason: 'DANGEROUS_COMMANDS_DISABLED',
          }),
        ],
        [
          'success',
          expect.objectContaining({
            command: 'MSET',
            class: 'write',
            keyCount: 2,
            argCount: 4,
            status: 'ok',
          }),
        ],
      ]);
      expect(JSON.stringify(events)).not.toContain('value-one');
    });

    it('keeps the audit chain intact when concurrent commands are committed together', async () => {
      const id = await registerDatabase(gateway, { url: server.url });
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) => command(gateway, id, `ECHO c${i}`)),
      );
      expect(results.map((result) => result.status)).toEqual(Array(30).fill(200));
      // ECHO is a read: its events are written behind the answer, then sequenced into the chain.
      const report = await eventually(async () => {
        const events = await auditEventsAbout(gateway, id);
        if (events.length !== 31 || events.some((event) => event.seq === null)) return undefined;
        return (await gateway.call('GET', '/api/audit/verify')).body.data;
      }, 'every command audited and sequenced');
      expect(report).toMatchObject({ valid: true, firstBrokenLink: null });
    });

    it('answers a read command before its audit event is written, and writes it soon after', async () => {
      const id = await registerDatabase(gateway, { url: server.url });
      const events = () =>
        gateway.deps.db
          .select()
          .from(auditEvents)
          .where(and(eq(auditEvents.targetId, id), eq(auditEvents.action, 'databases.keyvalue.command_run')));
      expect((await command(gateway, id, 'GET later-key')).status).toBe(200);
      const [event] = await eventually(async () => {
        const found = await events();
        return found.length === 1 ? found : undefined;
      }, 'the read audited');
      expect(event!.metadata).toMatchObject({ command: 'GET', class: 'read', status: 'ok' });
    });

    it('commits the audit event of a write command before answering it', async () => {
      const id = await registerDatabase(gateway, { url: server.url });
      expect((await command(gateway, id, 'SET durable-key v')).status).toBe(200);
      const [event] = await gateway.deps.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.targetId, id), eq(auditEvents.action, 'databases.keyvalue.command_run')));
      expect(event!.metadata).toMatchObject({ command: 'SET', class: 'write', status: 'ok' });
    });

    it('counts the keys of a command whose keys move with its arguments', async () => {
      const id = await registerDatabase(gateway, { url: server.url });
      await command(gateway, id, 'EVAL "return 1" 2 k1 k2 arg');
      const [event] = await gateway.deps.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.targetId, id), eq(auditEvents.action, 'databases.keyvalue.command_run')));
      expect(event!.metadata).toMatchObject({ command: 'EVAL', class: 'write', keyCount: 2 });
    });
  });
});

describe.skipIf(!redis.path)('key-value console limits', () => {
  let gateway: TestGateway;
  let server: RedisServer;

  beforeAll(async () => {
    [gateway, server] = await Promise.all([
      startTestGateway({
        keyvalue: { commandTimeoutMs: 300, connectTimeoutMs: 1000, maxReplyBytes: 2048, poolSize: 2 },
      }),
      startRedis(['--enable-debug-command', 'yes']),
    ]);
  });
  afterAll(async () => {
    await gateway?.close();
    await server?.stop();
  });

  it('cuts a large string reply and marks it truncated', async () => {
    const id = await registerDatabase(gateway, { url: server.url });
    await command(gateway, id, `SET big ${'x'.repeat(10_000)}`);
    const result = await command(gateway, id, 'GET big');
    expect(result.body.data.truncated).toBe(true);
    expect(result.body.data.result.length).toBeLessThanOrEqual(2048);
    expect(result.body.data.result.length).toBeGreaterThan(1000);
  });

  it('cuts a long array reply and marks it truncated', async () => {
    const id = await registerDatabase(gateway, { url: server.url });
    await command(gateway, id, `RPUSH long ${Array.from({ length: 1000 }, (_, i) => `item-${i}`).join(' ')}`);
    const result = await command(gateway, id, 'LRANGE long 0 -1');
    expect(result.body.data.truncated).toBe(true);
    expect(result.body.data.result.length).toBeLessThan(1000);
    expect(result.body.data.result[0]).toBe('item-0');
  });

  it('answers a command that outlives the timeout with 422 TIMEOUT', async () => {
    const id = await registerDatabase(gateway, { url: server.url, allowDangerous: true });
    const result = await command(gateway, id, 'DEBUG SLEEP 1');
    expectError(result, 422, 'UNPROCESSABLE_ENTITY');
    expect(result.body.details.reason).toBe('TIMEOUT');
  });

  it('refuses a loopback database when egress to loopback is not allowed', async () => {
    const strict = await startTestGateway({ egress: 'private' });
    try {
      const id = await registerDatabase(strict, { url: server.url });
      const result = await command(strict, id, 'PING');
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(result.body.details.reason).toBe('EGRESS_DENIED');
    } finally {
      await strict.close();
    }
  });
});

describe.skipIf(!redis.path || !openssl.path)('key-value console over TLS', () => {
  let gateway: TestGateway;
  let server: RedisServer;

  beforeAll(async () => {
    [gateway, server] = await Promise.all([startTestGateway(), startRedis([], { tls: true })]);
  });
  afterAll(async () => {
    await gateway?.close();
    await server?.stop();
  });

  it('runs commands on a rediss:// database whose certificate the given CA signed', async () => {
    const id = await registerDatabase(gateway, { url: server.url, tls: { caPem: server.caPem } });
    const result = await command(gateway, id, 'PING');
    expect(result.status).toBe(200);
    expect(result.body.data.result).toBe('PONG');
  });

  it('answers 422 TLS_FAILED when the certificate cannot be verified', async () => {
    const id = await registerDatabase(gateway, { url: server.url });
    const result = await command(gateway, id, 'PING');
    expectError(result, 422, 'UNPROCESSABLE_ENTITY');
    expect(result.body.details.reason).toBe('TLS_FAILED');
  });

  it('answers 422 TLS_FAILED when the certificate does not name the server', async () => {
    const id = await registerDatabase(gateway, {
      url: server.url,
      tls: { caPem: server.caPem, serverName: 'other.example' },
    });
    const result = await command(gateway, id, 'PING');
    expect(result.body.details?.reason).toBe('TLS_FAILED');
  });

  it('connects without verification when rejectUnauthorized is false', async () => {
    const id = await registerDatabase(gateway, { url: server.url, tls: { rejectUnauthorized: false } });
    expect((await command(gateway, id, 'PING')).status).toBe(200);
  });
});
