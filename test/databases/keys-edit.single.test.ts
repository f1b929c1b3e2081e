import crypto from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, redisBinary } from '../services/redis.js';
import { auditEventsMatching } from '../support/audit-events.js';
import { eventually } from '../support/eventually.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import type { TestGateway } from '../support/gateway.js';
import { type KeyValueFixture, registerDatabase, startKeyValueFixture } from './helpers.js';

const redis = redisBinary();

describe.skipIf(!redis.path)(`key browser edits${redis.skipReason ? ` (${redis.skipReason})` : ''}`, () => {
  let gateway: TestGateway;
  let server: RedisServer;
  let direct: Redis;
  let db: string;
  const key = () => `ke-${crypto.randomBytes(4).toString('hex')}`;

  let fixture: KeyValueFixture | undefined;

  beforeAll(async () => {
    ({ gateway, server, direct, db } = fixture = await startKeyValueFixture());
  });
  afterAll(() => fixture?.stop());

  const at = (k: string, rest = '') => `/api/databases/${db}/keyvalue/keys/${encodeURIComponent(k)}${rest}`;
  const edit = (method: 'PUT' | 'POST' | 'DELETE', path: string, body?: unknown, token?: string) =>
    gateway.call(method, path, { ...(body === undefined ? {} : { body }), ...(token ? { token } : {}) });

  describe('whole values', () => {
    it.each([
      ['string', 'hello', async (k: string) => direct.get(k), 'hello'],
      [
        'hash',
        [
          { field: 'a', value: '1' },
          { field: 'b', value: '2' },
        ],
        async (k: string) => direct.hgetall(k),
        { a: '1', b: '2' },
      ],
      ['list', ['x', 'y'], async (k: string) => direct.lrange(k, 0, -1), ['x', 'y']],
      ['set', ['m'], async (k: string) => direct.smembers(k), ['m']],
      [
        'zset',
        [{ member: 'm', score: 2.5 }],
        async (k: string) => direct.zrange(k, '0', '-1', 'WITHSCORES'),
        ['m', '2.5'],
      ],
    ] as const)('creates a %s and replaces whatever was there', async (type, value, readBack, expected) => {
      const k = key();
      await direct.set(k, 'old string');
      const result = await edit('PUT', at(k), { type, value, ttl: 300 });
      expect(result.status, result.text).toBe(200);
      expect(result.body.data).toEqual({ created: false });
      expect(await readBack(k)).toEqual(expected);
      expect(await direct.ttl(k)).toBeGreaterThan(200);
    });

    it('creates a stream with its entries and a binary string that round-trips', async () => {
      const k = key();
      const created = await edit('PUT', at(k), {
        type: 'stream',
        value: [{ fields: [{ field: 'e', value: '1' }] }, { fields: [{ field: 'e', value: '2' }] }],
      });
      expect(created.body.data).toEqual({ created: true });
      expect(await direct.xlen(k)).toBe(2);
      const bytes = Buffer.from([0x00, 0xff, 0x80]);
      await edit('PUT', at(k), { type: 'string', value: { base64: bytes.toString('base64') } });
      expect(await direct.getBuffer(k)).toEqual(bytes);
      const read = await gateway.call('GET', at(k));
      expect(read.body.data.value).toEqual({ base64: bytes.toString('base64') });
    });

    it('refuses an empty collection, an unknown type and a TTL of 0 with 400', async () => {
      expectError(await edit('PUT', at(key()), { type: 'hash', value: [] }), 400, 'VALIDATION_ERROR');
      expectError(await edit('PUT', at(key()), { type: 'blob', value: 'x' }), 400, 'VALIDATION_ERROR');
      expectError(
        await edit('PUT', at(key()), { type: 'string', value: 'x', ttl: 0 }),
        400,
        'VALIDATION_ERROR',
      );
    });
  });

  describe('parts of values', () => {
    it('sets and deletes a hash field, 404 for a field that is not there', async () => {
      const k = key();
      expect((await edit('PUT', at(k, '/fields/name'), { value: 'Ada' })).body.data).toEqual({
        created: true,
      });
      expect(await direct.hget(k, 'name')).toBe('Ada');
      expect((await edit('DELETE', at(k, '/fields/name'))).status).toBe(200);
      const missing = await edit('DELETE', at(k, '/fields/name'));
      expectError(missing, 404, 'NOT_FOUND');
      expect(missing.body.details.reason).toBe('FIELD_NOT_FOUND');
    });

    it('pushes onto both ends of a list, sets and removes items by index', async () => {
      const k = key();
      await edit('POST', at(k, '/items'), { value: 'b' });
      expect((await edit('POST', at(k, '/items'), { value: 'a', end: 'head' })).body.data).toEqual({
        length: 2,
      });
      await edit('POST', at(k, '/items'), { value: 'c' });
      expect((await edit('PUT', at(k, '/items/1'), { value: 'B' })).status).toBe(200);
      expect((await edit('DELETE', at(k, '/items/0'))).body.data).toEqual({ length: 2 });
      expect(await direct.lrange(k, 0, -1)).toEqual(['B', 'c']);
      const outside = await edit('PUT', at(k, '/items/9'), { value: 'x' });
      expectError(outside, 404, 'NOT_FOUND');
      expect(outside.body.details.reason).toBe('ITEM_NOT_FOUND');
      expectError(await edit('DELETE', at(k, '/items/9')), 404, 'NOT_FOUND');
      expectError(await edit('PUT', at(key(), '/items/0'), { value: 'x' }), 404, 'NOT_FOUND');
    });

    it('adds and removes set and sorted-set members', async () => {
      const set = key();
      const zset = key();
      expect((await edit('POST', at(set, '/members'), { member: 'm' })).body.data).toEqual({ created: true });
      await edit('POST', at(zset, '/members'), { member: 'm', score: 4 });
      expect(await direct.zscore(zset, 'm')).toBe('4');
      expect((await edit('DELETE', at(set, '/members/m'))).status).toBe(200);
      expect((await edit('DELETE', at(zset, '/members/m'))).status).toBe(200);
      expectError(await edit('DELETE', at(zset, '/members/m')), 404, 'NOT_FOUND');
    });

    it('adds a stream entry and answers its id', async () => {
      const k = key();
      const result = await edit('POST', at(k, '/entries'), { fields: [{ field: 'event', value: 'login' }] });
      expect(result.body.data.id).toMatch(/^\d+-\d+$/);
      expect(await direct.xlen(k)).toBe(1);
      expectValidationError(
        await edit('POST', at(k, '/entries'), { id: 'nope', fields: [{ field: 'a', value: 'b' }] }),
        ['id'],
      );
    });

    it('answers 409 KEY_TYPE_CHANGED for an edit of the wrong type', async () => {
      const k = key();
      await direct.set(k, 'a string');
      const result = await edit('PUT', at(k, '/fields/f'), { value: 'v' });
      expectError(result, 409, 'CONFLICT');
      expect(result.body.details.reason).toBe('KEY_TYPE_CHANGED');
      expectError(await edit('DELETE', at(k, '/members/m')), 409, 'CONFLICT');
    });
  });

  describe('TTL, rename and delete', () => {
    it('sets a TTL and with null persists the key', async () => {
      const k = key();
      await direct.set(k, 'v');
      await edit('PUT', at(k, '/ttl'), { ttl: 100 });
      expect(await direct.ttl(k)).toBeGreaterThan(50);
      await edit('PUT', at(k, '/ttl'), { ttl: null });
      expect(await direct.ttl(k)).toBe(-1);
      expectError(await edit('PUT', at(key(), '/ttl'), { ttl: 5 }), 404, 'NOT_FOUND');
      expectError(await edit('PUT', at(key(), '/ttl'), { ttl: null }), 404, 'NOT_FOUND');
    });

    it('renames a key, refusing to overwrite another unless asked', async () => {
      const from = key();
      const to = key();
      await direct.set(from, '1');
      await direct.set(to, '2');
      const refused = await edit('POST', at(from, '/rename'), { newKey: to });
      expectError(refused, 409, 'CONFLICT');
      expect(refused.body.details.reason).toBe('KEY_EXISTS');
      expect((await edit('POST', at(from, '/rename'), { newKey: to, overwrite: true })).status).toBe(200);
      expect(await direct.get(to)).toBe('1');
      expectError(await edit('POST', at(from, '/rename'), { newKey: key() }), 404, 'NOT_FOUND');
    });

    it('deletes a key, 404 the second time', async () => {
      const k = key();
      await direct.set(k, 'v');
      expect((await edit('DELETE', at(k))).body).toEqual({ success: true });
      expect(await direct.exists(k)).toBe(0);
      expectError(await edit('DELETE', at(k)), 404, 'NOT_FOUND');
    });
  });

  it('audits every edit with the key and the operation, never the value', async () => {
    const k = `audited-${crypto.randomBytes(4).toString('hex')}`;
    await edit('PUT', at(k), { type: 'string', value: 'secret-value-1' });
    await edit('PUT', at(`${k}-h`, '/fields/f'), { value: 'secret-value-2' });
    await edit('DELETE', at(k));
    const written = await auditEventsMatching(gateway, {
      action: 'databases.keyvalue.key_written',
      targetId: db,
    });
    const mine = written.filter((event) => String((event.metadata as { key: string }).key).startsWith(k));
    expect(mine.map((event) => event.metadata)).toEqual([
      expect.objectContaining({ key: k, operation: 'put', type: 'string', created: true }),
      expect.objectContaining({ key: `${k}-h`, operation: 'field_put' }),
    ]);
    const deleted = await auditEventsMatching(gateway, {
      action: 'databases.keyvalue.key_deleted',
      targetId: db,
    });
    expect(deleted.some((event) => (event.metadata as { key: string }).key === k)).toBe(true);
    expect(JSON.stringify([...written, ...deleted])).not.toContain('secret-value');
  });

  describe('who may edit', () => {
    it('refuses databases:read with 403 and lets databases:write and databases:admin edit', async () => {
      const k = key();
      const reader = await gateway.tokenWithScopes(['databases:read']);
      expectError(await edit('PUT', at(k), { type: 'string', value: 'v' }, reader), 403, 'FORBIDDEN');
      expectError(await edit('DELETE', at(k), undefined, reader), 403, 'FORBIDDEN');
      for (const scope of ['databases:write', 'databases:admin']) {
        const token = await gateway.tokenWithScopes([scope]);
        expect((await edit('PUT', at(k), { type: 'string', value: 'v' }, token)).status).toBe(200);
      }
      expectError(
        await gateway.call('PUT', at(k), { token: null, body: { type: 'string', value: 'v' } }),
        401,
        'UNAUTHORIZED',
      );
    });

    it('lets databases:write:<id> edit that database and answers 404 on another', async () => {
      const other = await registerDatabase(gateway, { url: server.url });
      const token = await gateway.tokenWithScopes([`databases:write:${db}`]);
      expect((await edit('PUT', at(key()), { type: 'string', value: 'v' }, token)).status).toBe(200);
      const elsewhere = await gateway.call('DELETE', `/api/databases/${other}/keyvalue/keys/x`, { token });
      expectError(elsewhere, 404, 'NOT_FOUND');
      const reader = await gateway.tokenWithScopes([`databases:read:${db}`]);
      expectError(await edit('PUT', at(key()), { type: 'string', value: 'v' }, reader), 403, 'FORBIDDEN');
    });
  });

  describe('bulk delete by pattern', () => {
    const bulk = (body: unknown, token?: string) =>
      gateway.call('POST', `/api/databases/${db}/keyvalue/bulk-delete`, {
        body,
        ...(token ? { token } : {}),
      });

    it('counts 100,000 keys in a dry run, then deletes them in the background with progress', async () => {
      const pattern = `bulk-${crypto.randomBytes(3).toString('hex')}:*`;
      const base = pattern.slice(0, -1);
      for (let start = 0; start < 100_000; start += 10_000) {
        const pipeline = direct.pipeline();
        for (let i = start; i < start + 10_000; i++) pipeline.set(`${base}${i}`, '1');
        await pipeline.exec();
      }
      await direct.set('survivor', '1');
      const plan = await bulk({ pattern, dryRun: true });
      expect(plan.status, plan.text).toBe(200);
      expect(plan.body.data).toMatchObject({ count: 100_000, confirmToken: expect.any(String) });
      expect(await direct.exists(`${base}0`)).toBe(1);

      const started = await bulk({ pattern, confirmToken: plan.body.data.confirmToken });
      expect(started.status, started.text).toBe(202);
      expect(started.body.data).toMatchObject({ status: 'running', expected: 100_000 });
      const progress = () =>
        gateway.call('GET', `/api/databases/${db}/keyvalue/bulk-delete/${started.body.data.id}`);
      const finished = await eventually(async () => {
        const result = await progress();
        return result.body.data.status !== 'running' && result.body.data;
      }, 'the bulk delete');
      expect(finished).toMatchObject({ status: 'done', deleted: 100_000, scanned: 100_000, error: null });
      expect(await direct.exists(`${base}0`, `${base}99999`)).toBe(0);
      expect(await direct.get('survivor')).toBe('1');
      const audited = await auditEventsMatching(gateway, {
        action: 'databases.keyvalue.bulk_delete_finished',
        targetId: db,
      });
      expect(audited.map((event) => event.metadata)).toContainEqual(
        expect.objectContaining({ jobId: started.body.data.id, deleted: 100_000, status: 'done' }),
      );
    });

    it('refuses a token used twice, for another pattern, or none at all', async () => {
      const plan = await bulk({ pattern: 'nothing-here:*', dryRun: true });
      expect(plan.body.data.count).toBe(0);
      const other = await bulk({ pattern: 'other:*', confirmToken: plan.body.data.confirmToken });
      expectError(other, 422, 'UNPROCESSABLE_ENTITY');
      expect(other.body.details.reason).toBe('CONFIRM_TOKEN_INVALID');
      expect(
        (await bulk({ pattern: 'nothing-here:*', confirmToken: plan.body.data.confirmToken })).status,
      ).toBe(202);
      expectError(
        await bulk({ pattern: 'nothing-here:*', confirmToken: plan.body.data.confirmToken }),
        422,
        'UNPROCESSABLE_ENTITY',
      );
      expectValidationError(await bulk({ pattern: 'x*' }), ['confirmToken']);
      expectValidationError(await bulk({ pattern: '', dryRun: true }), ['pattern']);
    });

    it('answers 404 for a job that does not exist', async () => {
      const result = await gateway.call(
        'GET',
        `/api/databases/${db}/keyvalue/bulk-delete/${crypto.randomUUID()}`,
      );
      expectError(result, 404, 'NOT_FOUND');
    });

    it('needs databases:admin: write is refused with 403, admin:<id> allowed on that database only', async () => {
      const writer = await gateway.tokenWithScopes(['databases:write']);
      expectError(await bulk({ pattern: 'x*', dryRun: true }, writer), 403, 'FORBIDDEN');
      const scoped = await gateway.tokenWithScopes([`databases:admin:${db}`]);
      expect((await bulk({ pattern: 'x*', dryRun: true }, scoped)).status).toBe(200);
      const other = await registerDatabase(gateway, { url: server.url });
      const elsewhere = await gateway.call('POST', `/api/databases/${other}/keyvalue/bulk-delete`, {
        token: scoped,
        body: { pattern: 'x*', dryRun: true },
      });
      expectError(elsewhere, 404, 'NOT_FOUND');
    });
  });
});
