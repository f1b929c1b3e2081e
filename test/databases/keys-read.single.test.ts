import crypto from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, redisBinary } from '../services/redis.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import type { TestGateway } from '../support/gateway.js';
import { type KeyValueFixture, registerDatabase, startKeyValueFixture } from './helpers.js';

const redis = redisBinary();

describe.skipIf(!redis.path)(`key browser reads${redis.skipReason ? ` (${redis.skipReason})` : ''}`, () => {
  let gateway: TestGateway;
  let server: RedisServer;
  let direct: Redis;
  let db: string;
  const prefix = `kb-${crypto.randomBytes(3).toString('hex')}`;

  let fixture: KeyValueFixture | undefined;

  beforeAll(async () => {
    fixture = await startKeyValueFixture({
      config: {
        keyvalue: { commandTimeoutMs: 5000, connectTimeoutMs: 3000, maxReplyBytes: 1024, poolSize: 2 },
      },
    });
    ({ gateway, server, direct, db } = fixture);
  });
  afterAll(() => fixture?.stop());

  const keys = (query: Record<string, string | number> = {}, token?: string) =>
    gateway.call('GET', `/api/databases/${db}/keyvalue/keys`, { query, ...(token ? { token } : {}) });
  const readKey = (key: string, query: Record<string, string | number> = {}, token?: string) =>
    gateway.call('GET', `/api/databases/${db}/keyvalue/keys/${encodeURIComponent(key)}`, {
      query,
      ...(token ? { token } : {}),
    });

  describe('listing keys', () => {
    it('pages through every matching key by cursor, each with its type, TTL and memory', async () => {
      const names = Array.from({ length: 25 }, (_, i) => `${prefix}:page:${i}`);
      for (const name of names) await direct.set(name, 'v');
      await direct.expire(names[0]!, 500);
      const seen = new Map<string, { type: string; ttl: number | null; memoryBytes: number }>();
      let cursor = '0';
      let pages = 0;
      do {
        const page = await keys({ pattern: `${prefix}:page:*`, count: 10, cursor });
        expect(page.status, page.text).toBe(200);
        for (const summary of page.body.data) seen.set(summary.key, summary);
        cursor = page.body.cursor ?? '0';
        pages += 1;
      } while (cursor !== '0');
      expect([...seen.keys()].sort()).toEqual([...names].sort());
      expect(pages).toBeGreaterThan(1);
      expect(seen.get(names[0]!)).toMatchObject({ type: 'string', ttl: expect.any(Number) });
      expect(seen.get(names[0]!)!.ttl).toBeGreaterThan(400);
      expect(seen.get(names[1]!)).toMatchObject({ type: 'string', ttl: null });
      expect(seen.get(names[1]!)!.memoryBytes).toBeGreaterThan(0);
    });

    it('filters by type', async () => {
      await direct.hset(`${prefix}:typed:h`, 'f', 'v');
      await direct.set(`${prefix}:typed:s`, 'v');
      const page = await keys({ pattern: `${prefix}:typed:*`, type: 'hash', count: 1000 });
      expect(page.body.data.map((summary: { key: string }) => summary.key)).toEqual([`${prefix}:typed:h`]);
    });

    it('answers a key that is not UTF-8 as base64 and matches a base64 pattern', async () => {
      const binary = Buffer.concat([Buffer.from(`${prefix}:bin:`), Buffer.from([0xff, 0x00, 0xfe])]);
      await direct.set(binary, 'v');
      const page = await keys({
        pattern: Buffer.from(`${prefix}:bin:*`).toString('base64url'),
        encoding: 'base64',
        count: 1000,
      });
      expect(page.body.data).toEqual([
        expect.objectContaining({ key: { base64: binary.toString('base64') }, type: 'string' }),
      ]);
    });

    it('refuses a count out of range and a cursor that is not a number with 400', async () => {
      expectValidationError(await keys({ count: 0 }), ['count']);
      expectValidationError(await keys({ count: 1001 }), ['count']);
      expectValidationError(await keys({ cursor: 'abc' }), ['cursor']);
      expectValidationError(await keys({ type: 'blob' }), ['type']);
    });
  });

  describe('reading a key', () => {
    it('reads a string, and a long one in pages flagged truncated', async () => {
      await direct.set(`${prefix}:str`, 'hello world');
      const short = await readKey(`${prefix}:str`);
      expect(short.status, short.text).toBe(200);
      expect(short.body.data).toMatchObject({
        type: 'string',
        value: 'hello world',
        length: 11,
        truncated: false,
        cursor: null,
        ttl: null,
      });
      const long = 'x'.repeat(1500);
      await direct.set(`${prefix}:long`, long);
      const first = await readKey(`${prefix}:long`);
      expect(first.body.data).toMatchObject({ length: 1500, truncated: true, cursor: '1024' });
      const rest = await readKey(`${prefix}:long`, { cursor: first.body.data.cursor });
      expect(first.body.data.value + rest.body.data.value).toBe(long);
      expect(rest.body.data).toMatchObject({ truncated: false, cursor: null });
    });

    it('pages a hash by HSCAN cursor until every field was seen', async () => {
      const fields: Record<string, string> = {};
      for (let i = 0; i < 300; i++) fields[`f${i}`] = `v${i}`;
      await direct.hset(`${prefix}:hash`, fields);
      const seen: Record<string, string> = {};
      let cursor: string | undefined;
      do {
        const page = await readKey(`${prefix}:hash`, { count: 50, ...(cursor ? { cursor } : {}) });
        expect(page.body.data).toMatchObject({ type: 'hash', length: 300 });
        for (const { field, value } of page.body.data.entries) seen[field] = value;
        cursor = page.body.data.cursor ?? undefined;
      } while (cursor);
      expect(seen).toEqual(fields);
    });

    it('pages a list by index', async () => {
      await direct.rpush(`${prefix}:list`, 'a', 'b', 'c');
      const first = await readKey(`${prefix}:list`, { count: 2 });
      expect(first.body.data).toMatchObject({
        type: 'list',
        length: 3,
        items: [
          { index: 0, value: 'a' },
          { index: 1, value: 'b' },
        ],
        cursor: '2',
      });
      const rest = await readKey(`${prefix}:list`, { count: 2, cursor: '2' });
      expect(rest.body.data).toMatchObject({ items: [{ index: 2, value: 'c' }], cursor: null });
    });

    it('reads a set, a sorted set with scores and a stream by entry range', async () => {
      await direct.sadd(`${prefix}:set`, 'm1', 'm2');
      await direct.zadd(`${prefix}:zset`, 1.5, 'low', 3, 'high');
      const first = await direct.xadd(`${prefix}:stream`, '*', 'event', 'one');
      const second = await direct.xadd(`${prefix}:stream`, '*', 'event', 'two');
      const set = await readKey(`${prefix}:set`);
      expect(set.body.data.members.sort()).toEqual(['m1', 'm2']);
      const zset = await readKey(`${prefix}:zset`);
      expect(zset.body.data.members).toEqual([
        { member: 'low', score: 1.5 },
        { member: 'high', score: 3 },
      ]);
      const page = await readKey(`${prefix}:stream`, { count: 1 });
      expect(page.body.data).toMatchObject({
        type: 'stream',
        length: 2,
        entries: [{ id: first, fields: [{ field: 'event', value: 'one' }] }],
        cursor: first,
      });
      const next = await readKey(`${prefix}:stream`, { count: 1, cursor: page.body.data.cursor });
      expect(next.body.data.entries).toEqual([{ id: second, fields: [{ field: 'event', value: 'two' }] }]);
    });

    it('reads keys with slashes, spaces and bytes that are not UTF-8', async () => {
      await direct.set(`${prefix}/a b/ü`, 'slashed');
      expect((await readKey(`${prefix}/a b/ü`)).body.data.value).toBe('slashed');
      const binary = Buffer.from([0xc3, 0x28, 0x00, 0xff]);
      await direct.hset(binary, Buffer.from([0xfe]), Buffer.from([0x80, 0x81]));
      const result = await gateway.call(
        'GET',
        `/api/databases/${db}/keyvalue/keys/${binary.toString('base64url')}`,
        { query: { encoding: 'base64' } },
      );
      expect(result.body.data).toMatchObject({
        key: { base64: binary.toString('base64') },
        entries: [
          { field: { base64: '/g==' }, value: { base64: Buffer.from([0x80, 0x81]).toString('base64') } },
        ],
      });
    });

    it('answers 404 KEY_NOT_FOUND for a key that is gone', async () => {
      const result = await readKey(`${prefix}:never`);
      expectError(result, 404, 'NOT_FOUND');
      expect(result.body.details.reason).toBe('KEY_NOT_FOUND');
    });

    it('answers 409 KEY_TYPE_CHANGED when the key holds another type than the list said', async () => {
      await direct.set(`${prefix}:changed`, 'now a string');
      const result = await readKey(`${prefix}:changed`, { type: 'hash' });
      expectError(result, 409, 'CONFLICT');
      expect(result.body.details).toMatchObject({ reason: 'KEY_TYPE_CHANGED', type: 'string' });
    });

    it('refuses a cursor that does not fit the type and a bad base64 key with 400', async () => {
      await direct.rpush(`${prefix}:cursor-list`, 'a');
      expectValidationError(await readKey(`${prefix}:cursor-list`, { cursor: 'x' }), ['cursor']);
      expectValidationError(await readKey('not base64!', { encoding: 'base64' }), ['key']);
    });

    it('answers 404 for an unknown database', async () => {
      const result = await gateway.call('GET', `/api/databases/${crypto.randomUUID()}/keyvalue/keys`);
      expectError(result, 404, 'NOT_FOUND');
    });
  });

  describe('who may read', () => {
    it('refuses a request without a token with 401 and databases:view alone with 403', async () => {
      expectError(
        await gateway.call('GET', `/api/databases/${db}/keyvalue/keys`, { token: null }),
        401,
        'UNAUTHORIZED',
      );
      const viewer = await gateway.tokenWithScopes(['databases:view']);
      expectError(await keys({}, viewer), 403, 'FORBIDDEN');
      expectError(await readKey(`${prefix}:str`, {}, viewer), 403, 'FORBIDDEN');
    });

    it.each([['databases:read'], ['databases:write'], ['databases:admin']])(
      'lets %s read keys',
      async (scope) => {
        const token = await gateway.tokenWithScopes([scope]);
        expect((await keys({}, token)).status).toBe(200);
        expect((await readKey(`${prefix}:str`, {}, token)).status).toBe(200);
      },
    );

    it('lets databases:read:<id> read that database and answers 404 on another', async () => {
      const other = await registerDatabase(gateway, { url: server.url });
      const token = await gateway.tokenWithScopes([`databases:read:${db}`]);
      expect((await readKey(`${prefix}:str`, {}, token)).status).toBe(200);
      const elsewhere = await gateway.call('GET', `/api/databases/${other}/keyvalue/keys`, { token });
      expectError(elsewhere, 404, 'NOT_FOUND');
    });
  });
});
