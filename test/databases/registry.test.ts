import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases } from '../../src/db/schema/index.js';
import { type RedisServer, redisBinary, startRedis } from '../services/redis.js';
import { auditEventsAbout } from '../support/audit-events.js';
import { describeBoundaryScope } from '../support/boundary-scopes.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { describeResourceScopes } from '../support/resource-scopes.js';
import { command, registerDatabase } from './helpers.js';

const redis = redisBinary();
const missing = crypto.randomUUID();

describe.skipIf(!redis.path)(`database registry${redis.skipReason ? ` (${redis.skipReason})` : ''}`, () => {
  let gateway: TestGateway;
  let server: RedisServer;

  beforeAll(async () => {
    [gateway, server] = await Promise.all([startTestGateway(), startRedis()]);
  });
  afterAll(async () => {
    await gateway?.close();
    await server?.stop();
  });

  describe('POST /api/databases', () => {
    it('registers a database and answers 201 without the password', async () => {
      const result = await gateway.call('POST', '/api/databases', {
        body: {
          name: 'cache',
          type: 'keyvalue',
          url: server.url,
          username: 'default',
          password: 'write-only-secret',
        },
      });
      expect(result.status).toBe(201);
      expect(result.body.data).toMatchObject({
        name: 'cache',
        type: 'keyvalue',
        url: server.url,
        username: 'default',
        hasPassword: true,
        tls: null,
        dbIndex: 0,
        allowDangerous: false,
      });
      expect(result.text).not.toContain('write-only-secret');
      expect(result.body.data).not.toHaveProperty('password');
    });

    it('stores the password sealed, never as plain text', async () => {
      const id = await registerDatabase(gateway, { url: server.url, password: 'sealed-pw-123' });
      const [row] = await gateway.deps.db.select().from(databases).where(eq(databases.id, id));
      expect(row!.passwordSealed).not.toContain('sealed-pw-123');
      expect(gateway.deps.secrets.open(row!.passwordSealed!, 'databases.password')).toBe('sealed-pw-123');
    });

    it('audits the registration without the password', async () => {
      const id = await registerDatabase(gateway, { url: server.url, password: 'audit-secret-9' });
      const events = await auditEventsAbout(gateway, id);
      expect(events.map((event) => event.action)).toEqual(['databases.database.created']);
      expect(JSON.stringify(events)).not.toContain('audit-secret-9');
      expect(events[0]!.metadata).toMatchObject({ withPassword: true });
    });

    it('takes the database number from the URL path', async () => {
      const result = await gateway.call('POST', '/api/databases', {
        body: { name: 'numbered', type: 'keyvalue', url: `${server.url}/3` },
      });
      expect(result.body.data).toMatchObject({ url: server.url, dbIndex: 3 });
    });

    it('defaults TLS to verified for a rediss:// URL', async () => {
      const result = await gateway.call('POST', '/api/databases', {
        body: { name: 'secure', type: 'keyvalue', url: 'rediss://cache.example.net:6380' },
      });
      expect(result.status).toBe(201);
      expect(result.body.data.tls).toEqual({ rejectUnauthorized: true });
    });

    it('refuses a duplicate name with 409 CONFLICT', async () => {
      const body = { name: 'twice', type: 'keyvalue', url: server.url };
      expect((await gateway.call('POST', '/api/databases', { body })).status).toBe(201);
      const again = await gateway.call('POST', '/api/databases', { body });
      expectError(again, 409, 'CONFLICT');
      expect(again.body.details.reason).toBe('DATABASE_NAME_TAKEN');
    });

    it('refuses a request without a token with 401', async () => {
      const result = await gateway.call('POST', '/api/databases', {
        token: null,
        body: { name: 'x', type: 'keyvalue', url: server.url },
      });
      expectError(result, 401, 'UNAUTHORIZED');
    });

    it('refuses a caller without databases:manage with 403', async () => {
      for (const scopes of [[], ['databases:view']]) {
        const result = await gateway.call('POST', '/api/databases', {
          token: await gateway.tokenWithScopes(scopes),
          body: { name: 'x', type: 'keyvalue', url: server.url },
        });
        expectError(result, 403, 'FORBIDDEN');
      }
    });

    it.each([
      ['a missing name', { type: 'keyvalue', url: 'redis://h' }, ['name']],
      ['a name over 255 characters', { name: 'n'.repeat(256), type: 'keyvalue', url: 'redis://h' }, ['name']],
      ['a blank name', { name: '   ', type: 'keyvalue', url: 'redis://h' }, ['name']],
      ['a missing url', { name: 'n', type: 'keyvalue' }, ['url']],
      ['another type', { name: 'n', type: 'sql', url: 'redis://h' }, ['type']],
      ['an http URL', { name: 'n', type: 'keyvalue', url: 'http://h' }, ['url']],
      ['a URL that does not parse', { name: 'n', type: 'keyvalue', url: 'not a url' }, ['url']],
      ['credentials in the URL', { name: 'n', type: 'keyvalue', url: 'redis://u:p@h:6379' }, ['url']],
      ['a path that is not a number', { name: 'n', type: 'keyvalue', url: 'redis://h/x' }, ['url']],
      ['a dbIndex over 1023', { name: 'n', type: 'keyvalue', url: 'redis://h', dbIndex: 1024 }, ['dbIndex']],
      ['a negative dbIndex', { name: 'n', type: 'keyvalue', url: 'redis://h', dbIndex: -1 }, ['dbIndex']],
      ['TLS options on redis://', { name: 'n', type: 'keyvalue', url: 'redis://h', tls: {} }, ['tls']],
      [
        'a CA that is not PEM',
        { name: 'n', type: 'keyvalue', url: 'rediss://h', tls: { caPem: 'nope' } },
        ['tls', 'caPem'],
      ],
      [
        'a password over 1024 characters',
        { name: 'n', type: 'keyvalue', url: 'redis://h', password: 'p'.repeat(1025) },
        ['password'],
      ],
    ])('refuses %s with 400 VALIDATION_ERROR', async (_what, body, path) => {
      expectValidationError(await gateway.call('POST', '/api/databases', { body }), path);
    });
  });

  describe('GET /api/databases', () => {
    it('lists databases by name with pagination and a name filter', async () => {
      await registerDatabase(gateway, { url: server.url, name: 'list-alpha' });
      await registerDatabase(gateway, { url: server.url, name: 'list-beta' });
      const result = await gateway.call('GET', '/api/databases', { query: { q: 'list-', limit: 1 } });
      expect(result.status).toBe(200);
      expect(result.body.data.map((item: { name: string }) => item.name)).toEqual(['list-alpha']);
      expect(result.body.pagination).toEqual({ page: 1, limit: 1, total: 2, totalPages: 2 });
    });

    it('refuses a caller without databases:view with 403 and no token with 401', async () => {
      const forbidden = await gateway.call('GET', '/api/databases', {
        token: await gateway.tokenWithScopes([]),
      });
      expectError(forbidden, 403, 'FORBIDDEN');
      expectError(await gateway.call('GET', '/api/databases', { token: null }), 401, 'UNAUTHORIZED');
    });

    it('refuses a page size over 100', async () => {
      expectValidationError(await gateway.call('GET', '/api/databases', { query: { limit: 101 } }), [
        'limit',
      ]);
    });
  });

  describe('GET /api/databases/:id', () => {
    it('shows the server as reachable with its version', async () => {
      const id = await registerDatabase(gateway, { url: server.url });
      const result = await gateway.call('GET', `/api/databases/${id}`, {
        token: await gateway.tokenWithScopes(['databases:view']),
      });
      expect(result.status).toBe(200);
      expect(result.body.data.status).toMatchObject({ reachable: true, reason: null, error: null });
      expect(result.body.data.status.serverVersion).toMatch(/^\d+\.\d+\.\d+/);
    });

    it('never shows the password, in the list or in one database', async () => {
      const id = await registerDatabase(gateway, { url: server.url, password: 'hidden-everywhere' });
      const one = await gateway.call('GET', `/api/databases/${id}`);
      const list = await gateway.call('GET', '/api/databases', { query: { limit: 100 } });
      expect(one.body.data.hasPassword).toBe(true);
      expect(one.text + list.text).not.toContain('hidden-everywhere');
      expect(one.text + list.text).not.toContain('passwordSealed');
    });

    it('shows refused credentials as AUTH_FAILED', async () => {
      const secured = await startRedis(['--requirepass', 'the-right-one']);
      try {
        const id = await registerDatabase(gateway, { url: secured.url, password: 'the-wrong-one' });
        const result = await gateway.call('GET', `/api/databases/${id}`);
        expect(result.body.data.status).toMatchObject({ reachable: false, reason: 'AUTH_FAILED' });
        expect(result.text).not.toContain('the-wrong-one');
      } finally {
        await secured.stop();
      }
    });

    it('shows a server that is down as unreachable, with the reason', async () => {
      const down = await startRedis();
      await down.stop();
      const id = await registerDatabase(gateway, { url: down.url });
      const result = await gateway.call('GET', `/api/databases/${id}`);
      expect(result.status).toBe(200);
      expect(result.body.data.status).toMatchObject({
        reachable: false,
        reason: 'UNREACHABLE',
        serverVersion: null,
      });
    });

    it('answers 404 for an unknown id and 400 for an id that is not a UUID', async () => {
      expectError(await gateway.call('GET', `/api/databases/${missing}`), 404, 'NOT_FOUND');
      expectValidationError(await gateway.call('GET', '/api/databases/nope'), ['id']);
    });

    it('refuses a caller without databases:view with 403', async () => {
      const id = await registerDatabase(gateway, { url: server.url });
      const result = await gateway.call('GET', `/api/databases/${id}`, {
        token: await gateway.tokenWithScopes([]),
      });
      expectError(result, 403, 'FORBIDDEN');
    });
  });

  describe('PATCH /api/databases/:id', () => {
    it('renames a database and audits the change', async () => {
      const id = await registerDatabase(gateway, { url: server.url });
      const result = await gateway.call('PATCH', `/api/databases/${id}`, { body: { name: 'renamed-db' } });
      expect(result.status).toBe(200);
      expect(result.body.data.name).toBe('renamed-db');
      const events = await auditEventsAbout(gateway, id);
      expect(events.map((event) => event.action)).toContain('databases.database.updated');
    });

    it('removes the password when it is set to null', async () => {
      const id = await registerDatabase(gateway, { url: server.url, password: 'temporary' });
      const result = await gateway.call('PATCH', `/api/databases/${id}`, { body: { password: null } });
      expect(result.body.data.hasPassword).toBe(false);
    });

    it('closes the open connections so the next command uses the new settings', async () => {
      const id = await registerDatabase(gateway, { url: server.url, dbIndex: 5 });
      expect((await command(gateway, id, 'SET patch-key in-five')).status).toBe(200);
      await gateway.call('PATCH', `/api/databases/${id}`, { body: { dbIndex: 6 } });
      const after = await command(gateway, id, 'GET patch-key');
      expect(after.body.data).toMatchObject({ type: 'null', result: null });
    });

    it('refuses a name that another database has with 409', async () => {
      await registerDatabase(gateway, { url: server.url, name: 'taken-name' });
      const id = await registerDatabase(gateway, { url: server.url });
      const result = await gateway.call('PATCH', `/api/databases/${id}`, { body: { name: 'taken-name' } });
      expectError(result, 409, 'CONFLICT');
    });

    it('answers 404 for an unknown id, 400 for bad values, 403 without databases:manage', async () => {
      expectError(
        await gateway.call('PATCH', `/api/databases/${missing}`, { body: { name: 'x' } }),
        404,
        'NOT_FOUND',
      );
      const id = await registerDatabase(gateway, { url: server.url });
      expectValidationError(
        await gateway.call('PATCH', `/api/databases/${id}`, { body: { url: 'ftp://h' } }),
        ['url'],
      );
      expectValidationError(await gateway.call('PATCH', `/api/databases/${id}`, { body: { name: '' } }), [
        'name',
      ]);
      const result = await gateway.call('PATCH', `/api/databases/${id}`, {
        token: await gateway.tokenWithScopes(['databases:view']),
        body: { name: 'x' },
      });
      expectError(result, 403, 'FORBIDDEN');
    });
  });

  describe('PATCH /api/databases/:id to another server', () => {
    const passwordOf = async (id: string) => {
      const [row] = await gateway.deps.db.select().from(databases).where(eq(databases.id, id));
      return row!.passwordSealed;
    };

    it('drops the stored password when the host moves, and says so in the answer', async () => {
      const id = await registerDatabase(gateway, { url: 'redis://cache-a.example.net', password: 'pw-a-1' });
      const result = await gateway.call('PATCH', `/api/databases/${id}`, {
        body: { url: 'redis://cache-b.example.net' },
      });
      expect(result.status, result.text).toBe(200);
      expect(result.body.droppedSecrets).toEqual(['password']);
      expect(result.body.data).toMatchObject({ url: 'redis://cache-b.example.net', hasPassword: false });
      expect(await passwordOf(id)).toBeNull();
    });

    it('drops it when the port or the scheme changes', async () => {
      for (const url of ['redis://cache.example.net:6380', 'rediss://cache.example.net']) {
        const id = await registerDatabase(gateway, { url: 'redis://cache.example.net', password: 'pw-port' });
        const result = await gateway.call('PATCH', `/api/databases/${id}`, { body: { url } });
        expect(result.body.droppedSecrets, url).toEqual(['password']);
      }
    });

    it('keeps the password sent in the same request', async () => {
      const id = await registerDatabase(gateway, { url: 'redis://cache-a.example.net', password: 'pw-old' });
      const result = await gateway.call('PATCH', `/api/databases/${id}`, {
        body: { url: 'redis://cache-b.example.net', password: 'pw-new' },
      });
      expect(result.body).not.toHaveProperty('droppedSecrets');
      expect(gateway.deps.secrets.open((await passwordOf(id))!, 'databases.password')).toBe('pw-new');
    });

    it('keeps the password for another database number or another spelling of the same address', async () => {
      const id = await registerDatabase(gateway, { url: 'redis://cache.example.net', password: 'pw-same' });
      for (const url of ['redis://cache.example.net/4', 'redis://CACHE.example.net:6379']) {
        const result = await gateway.call('PATCH', `/api/databases/${id}`, { body: { url } });
        expect(result.body, url).not.toHaveProperty('droppedSecrets');
      }
      expect(gateway.deps.secrets.open((await passwordOf(id))!, 'databases.password')).toBe('pw-same');
    });

    it('audits the dropped password by name, never its value', async () => {
      const id = await registerDatabase(gateway, {
        url: 'redis://cache-a.example.net',
        password: 'pw-audit-7',
      });
      await gateway.call('PATCH', `/api/databases/${id}`, { body: { url: 'redis://cache-b.example.net' } });
      const events = await auditEventsAbout(gateway, id);
      const updated = events.find((event) => event.action === 'databases.database.updated')!;
      expect(updated.metadata).toMatchObject({ droppedSecrets: ['password'] });
      expect(JSON.stringify(events)).not.toContain('pw-audit-7');
    });

    it('opens the next connection without the old password: a server that would take it refuses', async () => {
      const [first, second] = await Promise.all([
        startRedis(['--requirepass', 'shared-pw']),
        startRedis(['--requirepass', 'shared-pw']),
      ]);
      try {
        const id = await registerDatabase(gateway, { url: first.url, password: 'shared-pw' });
        expect((await command(gateway, id, 'PING')).body.data).toMatchObject({ result: 'PONG' });
        await gateway.call('PATCH', `/api/databases/${id}`, { body: { url: second.url } });
        const result = await command(gateway, id, 'PING');
        expectError(result, 422, 'UNPROCESSABLE_ENTITY');
        expect(result.body.details).toMatchObject({ reason: 'AUTH_FAILED', serverError: /^NOAUTH/ });
      } finally {
        await Promise.all([first.stop(), second.stop()]);
      }
    });
  });

  describeBoundaryScope(() => gateway, {
    area: 'databases',
    create: () => registerDatabase(gateway, { url: 'redis://cache-a.example.net', password: 'pw-scope' }),
    path: (id) => `/api/databases/${id}`,
    move: { body: { url: 'redis://cache-b.example.net' }, fields: ['url'] },
    rename: { name: `renamed-${crypto.randomUUID()}`, url: 'redis://cache-a.example.net:6379/2' },
  });

  describe('DELETE /api/databases/:id', () => {
    it('removes a database; afterwards it is 404', async () => {
      const id = await registerDatabase(gateway, { url: server.url });
      await command(gateway, id, 'PING');
      const result = await gateway.call('DELETE', `/api/databases/${id}`);
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ success: true });
      expectError(await gateway.call('GET', `/api/databases/${id}`), 404, 'NOT_FOUND');
      expectError(await command(gateway, id, 'PING'), 404, 'NOT_FOUND');
    });

    it('answers 404 for an unknown id and 403 without databases:manage', async () => {
      expectError(await gateway.call('DELETE', `/api/databases/${missing}`), 404, 'NOT_FOUND');
      const id = await registerDatabase(gateway, { url: server.url });
      const result = await gateway.call('DELETE', `/api/databases/${id}`, {
        token: await gateway.tokenWithScopes(['databases:view']),
      });
      expectError(result, 403, 'FORBIDDEN');
    });
  });

  describeResourceScopes(() => gateway, {
    area: 'databases',
    list: '/api/databases',
    read: (id) => `/api/databases/${id}`,
    create: () => registerDatabase(gateway, { url: server.url }),
  });
});
