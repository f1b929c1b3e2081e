import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectValidationError } from '../support/expectations.js';
import type { TestGateway } from '../support/gateway.js';
import { created, createWebhookChannel, startNotifyGateway } from './helpers.js';

const BASE = '/api/notifications/rules';
const MISSING = '00000000-0000-4000-8000-000000000000';

let gateway: TestGateway;
let channelId: string;
beforeAll(async () => {
  gateway = await startNotifyGateway();
  channelId = await createWebhookChannel(gateway, 'http://127.0.0.1:9/unused');
});
afterAll(async () => gateway?.close());

let counter = 0;
const ruleBody = (extra: Record<string, unknown> = {}) => ({
  name: `rule-${++counter}`,
  event: 'certificates.expiring',
  channelIds: [channelId],
  ...extra,
});

describe('access to rules', () => {
  const routes = [
    ['GET', BASE],
    ['POST', BASE],
    ['GET', `${BASE}/${MISSING}`],
    ['PATCH', `${BASE}/${MISSING}`],
    ['DELETE', `${BASE}/${MISSING}`],
  ] as const;

  it('refuses every route without a token with 401 and without the scope with 403', async () => {
    const token = await gateway.tokenWithScopes(['audit:manage']);
    for (const [method, url] of routes) {
      expectError(await gateway.call(method, url, { token: null, body: {} }), 401, 'UNAUTHORIZED');
      expectError(await gateway.call(method, url, { token, body: {} }), 403, 'FORBIDDEN');
    }
  });

  it('lets notifications:view list and read but not change', async () => {
    const token = await gateway.tokenWithScopes(['notifications:view']);
    expect((await gateway.call('GET', BASE, { token })).status).toBe(200);
    expectError(await gateway.call('POST', BASE, { token, body: ruleBody() }), 403, 'FORBIDDEN');
  });
});

describe('creating a rule', () => {
  it('answers 201 with the thresholds in force for an expiry event', async () => {
    const response = await gateway.call('POST', BASE, { body: ruleBody({ name: 'certs soon' }) });
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({
      name: 'certs soon',
      event: 'certificates.expiring',
      enabled: true,
      channelIds: [channelId],
      filters: {},
      withinDays: [30, 14, 7, 1],
      renotifyMinutes: null,
    });
  });

  it('keeps the given thresholds, filters and reminder interval', async () => {
    const certificateId = '5d9a1c2b-3e4f-4a5b-8c6d-7e8f9a0b1c2d';
    const expiring = await gateway.call('POST', BASE, {
      body: ruleBody({ withinDays: [1, 21], filters: { certificateId } }),
    });
    expect(expiring.body.data).toMatchObject({ withinDays: [21, 1], filters: { certificateId } });
    const health = await gateway.call('POST', BASE, {
      body: ruleBody({
        event: 'containerhost.health_check.changed',
        filters: { containerName: 'web' },
        renotifyMinutes: 60,
      }),
    });
    expect(health.body.data).toMatchObject({
      withinDays: null,
      renotifyMinutes: 60,
      filters: { containerName: 'web' },
    });
  });

  it('answers 400 for an event outside the closed list and for settings that do not apply to the event', async () => {
    const before = (await gateway.call('GET', BASE)).body.pagination.total;
    expectValidationError(await gateway.call('POST', BASE, { body: ruleBody({ event: 'disk.full' }) }), [
      'event',
    ]);
    expectValidationError(await gateway.call('POST', BASE, { body: ruleBody({ channelIds: [] }) }), [
      'channelIds',
    ]);
    expectValidationError(await gateway.call('POST', BASE, { body: ruleBody({ channelIds: ['x'] }) }), [
      'channelIds',
      0,
    ]);
    expectValidationError(
      await gateway.call('POST', BASE, { body: ruleBody({ channelIds: [channelId, channelId] }) }),
      ['channelIds'],
    );
    expectValidationError(await gateway.call('POST', BASE, { body: ruleBody({ withinDays: [0] }) }), [
      'withinDays',
      0,
    ]);
    expectValidationError(
      await gateway.call('POST', BASE, { body: ruleBody({ filters: { nodeId: MISSING } }) }),
      ['filters', 'nodeId'],
    );
    expectValidationError(await gateway.call('POST', BASE, { body: ruleBody({ renotifyMinutes: 5 }) }), [
      'renotifyMinutes',
    ]);
    expectValidationError(
      await gateway.call('POST', BASE, { body: ruleBody({ event: 'audit.chain.broken', withinDays: [3] }) }),
      ['withinDays'],
    );
    expectValidationError(
      await gateway.call('POST', BASE, {
        body: ruleBody({ event: 'audit.chain.broken', renotifyMinutes: 0 }),
      }),
      ['renotifyMinutes'],
    );
    expect((await gateway.call('GET', BASE)).body.pagination.total).toBe(before);
  });

  it('answers 404 for a channel that does not exist', async () => {
    const response = await gateway.call('POST', BASE, {
      body: ruleBody({ channelIds: [channelId, MISSING] }),
    });
    expectError(response, 404, 'NOT_FOUND');
    expect(response.body.details).toEqual({ channelId: MISSING });
  });

  it('answers 409 for a name that is taken', async () => {
    await created(gateway, BASE, ruleBody({ name: 'once' }));
    const again = await gateway.call('POST', BASE, { body: ruleBody({ name: 'once' }) });
    expectError(again, 409, 'CONFLICT');
    expect(again.body.details.reason).toBe('RULE_NAME_TAKEN');
  });
});

describe('changing, listing and deleting rules', () => {
  it('answers 404 for an unknown rule and 400 for a malformed id', async () => {
    expectValidationError(await gateway.call('GET', `${BASE}/42`), ['id']);
    for (const method of ['GET', 'PATCH', 'DELETE'] as const)
      expectError(await gateway.call(method, `${BASE}/${MISSING}`, { body: {} }), 404, 'NOT_FOUND');
  });

  it('changes the fields given and clears those set to null', async () => {
    const other = await createWebhookChannel(gateway, 'http://127.0.0.1:9/other');
    const id = await created(gateway, BASE, ruleBody({ withinDays: [3] }));
    const changed = await gateway.call('PATCH', `${BASE}/${id}`, {
      body: { channelIds: [other], withinDays: null, enabled: false },
    });
    expect(changed.body.data).toMatchObject({
      channelIds: [other],
      withinDays: [30, 14, 7, 1],
      enabled: false,
    });
  });

  it('refuses a change of event that leaves settings of the old one behind, and changes nothing', async () => {
    const id = await created(gateway, BASE, ruleBody({ withinDays: [3] }));
    expectValidationError(
      await gateway.call('PATCH', `${BASE}/${id}`, { body: { event: 'certificates.expired' } }),
      ['withinDays'],
    );
    const moved = await gateway.call('PATCH', `${BASE}/${id}`, {
      body: { event: 'certificates.expired', withinDays: null, renotifyMinutes: 1440 },
    });
    expect(moved.body.data).toMatchObject({
      event: 'certificates.expired',
      withinDays: null,
      renotifyMinutes: 1440,
    });
  });

  it('lists rules filtered by event and name', async () => {
    await created(gateway, BASE, ruleBody({ name: 'Throttle watch', event: 'auth.login.throttled' }));
    const found = await gateway.call('GET', BASE, {
      query: { event: 'auth.login.throttled', q: 'throttle' },
    });
    expect(found.body.data.map((rule: { name: string }) => rule.name)).toEqual(['Throttle watch']);
  });

  it('deletes a rule', async () => {
    const id = await created(gateway, BASE, ruleBody());
    expect((await gateway.call('DELETE', `${BASE}/${id}`)).body).toEqual({ success: true });
    expectError(await gateway.call('GET', `${BASE}/${id}`), 404, 'NOT_FOUND');
  });
});

describe('the event catalog', () => {
  it('lists every event kind with its mode, filters and thresholds', async () => {
    const catalog = await gateway.call('GET', '/api/notifications/events');
    expect(catalog.body.data.map((event: { kind: string }) => event.kind)).toEqual([
      'containerhost.health_check.changed',
      'certificates.expiring',
      'certificates.expired',
      'siem.destination.circuit_opened',
      'siem.delivery.failed',
      'repohost.token.expiring',
      'auth.login.throttled',
      'audit.chain.broken',
      'nodes.node.offline',
      'logging.query.threshold',
    ]);
    expect(catalog.body.data[1]).toMatchObject({
      mode: 'deadline',
      filters: ['certificateId'],
      defaultWithinDays: [30, 14, 7, 1],
    });
  });
});
