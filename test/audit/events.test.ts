import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { makeEvents, sequenced } from './helpers.js';

let gateway: TestGateway;
let viewer: string;
beforeAll(async () => {
  gateway = await startTestGateway();
  viewer = await gateway.tokenWithScopes(['audit:view']);
  await makeEvents(gateway, 3, 'events');
  await sequenced(gateway);
});
afterAll(() => gateway.close());

describe('GET /api/audit/events', () => {
  it('lists events newest first with actor, action, target, outcome, request id, client ip and hash links', async () => {
    const result = await gateway.call('GET', '/api/audit/events', { token: viewer });
    expect(result.status).toBe(200);
    const [newest, older] = result.body.data;
    expect(newest.seq).toBeGreaterThan(older.seq);
    expect(newest).toMatchObject({
      actorId: gateway.adminUserId,
      actorEmail: 'admin@test',
      action: 'users.group.created',
      targetType: 'group',
      outcome: 'success',
      clientIp: '127.0.0.1',
    });
    expect(newest.requestId).toEqual(expect.any(String));
    expect(newest.prevHash).toBe(older.hash);
    expect(newest.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(result.body.pagination).toMatchObject({ page: 1, limit: 20 });
  });

  it('filters by actor email, action prefix, target and time window', async () => {
    const byActor = await gateway.call('GET', '/api/audit/events', { query: { actor: 'admin@test' } });
    expect(byActor.body.data.length).toBeGreaterThanOrEqual(3);
    expect(new Set(byActor.body.data.map((event: { actorEmail: string }) => event.actorEmail))).toEqual(
      new Set(['admin@test']),
    );

    const byPrefix = await gateway.call('GET', '/api/audit/events', { query: { action: 'users.*' } });
    expect(byPrefix.body.pagination.total).toBe(3);

    const target = byPrefix.body.data[0];
    const byTarget = await gateway.call('GET', '/api/audit/events', {
      query: { targetType: 'group', targetId: target.targetId },
    });
    expect(byTarget.body.data.map((event: { id: string }) => event.id)).toEqual([target.id]);

    const future = await gateway.call('GET', '/api/audit/events', {
      query: { from: '2999-01-01T00:00:00Z' },
    });
    expect(future.body.data).toEqual([]);
  });

  it('pages with page and limit', async () => {
    const result = await gateway.call('GET', '/api/audit/events', { query: { page: 2, limit: 1 } });
    expect(result.body.data).toHaveLength(1);
    expect(result.body.pagination).toMatchObject({
      page: 2,
      limit: 1,
      totalPages: result.body.pagination.total,
    });
  });

  it('refuses a request without a token with 401', async () => {
    expectError(await gateway.call('GET', '/api/audit/events', { token: null }), 401, 'UNAUTHORIZED');
  });

  it('refuses a token without audit:view with 403', async () => {
    const token = await gateway.tokenWithScopes([]);
    expectError(await gateway.call('GET', '/api/audit/events', { token }), 403, 'FORBIDDEN');
  });

  it('rejects a bad time, a limit over 100 and from after to with 400', async () => {
    expectValidationError(await gateway.call('GET', '/api/audit/events', { query: { from: 'yesterday' } }), [
      'from',
    ]);
    expectValidationError(await gateway.call('GET', '/api/audit/events', { query: { limit: 101 } }), [
      'limit',
    ]);
    expectValidationError(
      await gateway.call('GET', '/api/audit/events', {
        query: { from: '2030-01-02T00:00:00Z', to: '2030-01-01T00:00:00Z' },
      }),
      ['from'],
    );
  });

  it('answers one event by id, and 404 for an unknown one', async () => {
    const [event] = (await gateway.call('GET', '/api/audit/events')).body.data;
    const result = await gateway.call('GET', `/api/audit/events/${event.id}`, { token: viewer });
    expect(result.body.data).toEqual(event);
    expectError(await gateway.call('GET', `/api/audit/events/${crypto.randomUUID()}`), 404, 'NOT_FOUND');
    expectError(await gateway.call('GET', '/api/audit/events/not-an-id'), 404, 'NOT_FOUND');
  });

  it('records a failed login with outcome failure and without the password', async () => {
    await gateway.call('POST', '/auth/login', {
      token: null,
      body: { email: 'admin@test', password: 'not-the-password-xyz' },
    });
    const result = await gateway.call('GET', '/api/audit/events', { query: { action: 'auth.login.failed' } });
    expect(result.body.data[0]).toMatchObject({ outcome: 'failure', actorEmail: 'admin@test' });
    expect(JSON.stringify(result.body)).not.toContain('not-the-password-xyz');
  });
});

describe('GET /api/audit/verify', () => {
  it('reports an intact chain with the number of events checked and the head', async () => {
    await sequenced(gateway);
    const result = await gateway.call('GET', '/api/audit/verify', { token: viewer });
    expect(result.status).toBe(200);
    const report = result.body.data;
    expect(report).toMatchObject({ valid: true, checkedEvents: report.headSeq, firstBrokenLink: null });
    expect(report.headSeq).toBeGreaterThanOrEqual(3);
    expect(report.headHash).toMatch(/^[0-9a-f]{64}$/);
    expect(report.unsequencedEvents).toEqual(expect.any(Number));
  });

  it('refuses a request without a token with 401, and a token without audit:view with 403', async () => {
    expectError(await gateway.call('GET', '/api/audit/verify', { token: null }), 401, 'UNAUTHORIZED');
    const token = await gateway.tokenWithScopes(['users:view']);
    expectError(await gateway.call('GET', '/api/audit/verify', { token }), 403, 'FORBIDDEN');
  });
});

describe('tampering', () => {
  it('is reported at the first changed event, then at a deleted one', async () => {
    const separate = await startTestGateway();
    try {
      await makeEvents(separate, 4, 'tamper');
      await sequenced(separate);
      await separate.deps.db.execute(
        sql`update audit_events set action = 'users.group.deleted' where seq = 2`,
      );
      const changed = (await separate.call('GET', '/api/audit/verify')).body.data;
      expect(changed).toMatchObject({
        valid: false,
        checkedEvents: 1,
        firstBrokenLink: { seq: 2, reason: 'HASH_MISMATCH' },
      });

      await separate.deps.db.execute(sql`delete from audit_events where seq = 2`);
      const deleted = (await separate.call('GET', '/api/audit/verify')).body.data;
      expect(deleted).toMatchObject({ valid: false, firstBrokenLink: { seq: 2, reason: 'SEQ_GAP' } });
    } finally {
      await separate.close();
    }
  });

  it('is reported when an event is re-linked to a forged predecessor hash', async () => {
    const separate = await startTestGateway();
    try {
      await makeEvents(separate, 3, 'relink');
      await sequenced(separate);
      await separate.deps.db.execute(sql`update audit_events set prev_hash = repeat('a', 64) where seq = 3`);
      const report = (await separate.call('GET', '/api/audit/verify')).body.data;
      expect(report).toMatchObject({
        valid: false,
        checkedEvents: 2,
        firstBrokenLink: { seq: 3, reason: 'PREV_HASH_MISMATCH' },
      });
    } finally {
      await separate.close();
    }
  });
});
