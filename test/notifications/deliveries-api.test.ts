import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NotificationReceiver, startNotificationReceiver } from '../services/notification-receiver.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import type { TestGateway } from '../support/gateway.js';
import {
  createRule,
  createWebhookChannel,
  deliveriesSettle,
  emit,
  healthEvent,
  startNotifyGateway,
} from './helpers.js';

const BASE = '/api/notifications/deliveries';
const MISSING = '00000000-0000-4000-8000-000000000000';

let gateway: TestGateway;
let receiver: NotificationReceiver;
let channelId: string;
let ruleId: string;
beforeAll(async () => {
  gateway = await startNotifyGateway({ maxAttempts: 2 });
  receiver = await startNotificationReceiver();
  channelId = await createWebhookChannel(gateway, receiver.webhookUrl);
  ruleId = await createRule(gateway, 'containerhost.health_check.changed', [channelId]);
});
afterAll(async () => {
  await gateway?.close();
  await receiver?.stop();
});

describe('access to deliveries', () => {
  it('needs a token (401) and a notifications scope (403); requeue needs manage', async () => {
    const none = await gateway.tokenWithScopes([]);
    const viewer = await gateway.tokenWithScopes(['notifications:view']);
    for (const [method, url] of [
      ['GET', BASE],
      ['GET', `${BASE}/${MISSING}`],
      ['POST', `${BASE}/${MISSING}/requeue`],
      ['GET', '/api/notifications/events'],
      ['GET', '/api/notifications/alerts'],
    ] as const) {
      expectError(await gateway.call(method, url, { token: null }), 401, 'UNAUTHORIZED');
      expectError(await gateway.call(method, url, { token: none }), 403, 'FORBIDDEN');
    }
    expectError(
      await gateway.call('POST', `${BASE}/${MISSING}/requeue`, { token: viewer }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('a delivery whose channel fails', () => {
  it('ends failed after its attempts, is requeued once the channel is back, and is delivered', async () => {
    receiver.mode = 'fail';
    await emit(gateway, healthEvent('offline', 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c01'));
    const [failed] = await deliveriesSettle(gateway, `ruleId=${ruleId}`, 'failed');
    expect(failed).toMatchObject({
      attempts: 2,
      maxAttempts: 2,
      lastError: 'webhook answered HTTP 503: receiver is down',
    });

    expectError(await gateway.call('POST', `${BASE}/${MISSING}/requeue`), 404, 'NOT_FOUND');
    receiver.mode = 'ok';
    const requeued = await gateway.call('POST', `${BASE}/${failed!.id}/requeue`);
    expect(requeued.status).toBe(200);
    expect(requeued.body.data).toMatchObject({ attempts: 2, maxAttempts: 4 });
    const [delivered] = await deliveriesSettle(gateway, `ruleId=${ruleId}`, 'delivered');
    expect(delivered).toMatchObject({ attempts: 3, lastError: null, nextAttemptAt: null });

    const again = await gateway.call('POST', `${BASE}/${failed!.id}/requeue`);
    expectError(again, 409, 'CONFLICT');
    expect(again.body.details).toMatchObject({ reason: 'DELIVERY_NOT_REQUEUEABLE', status: 'delivered' });

    const detail = await gateway.call('GET', `${BASE}/${failed!.id}`);
    expect(detail.body.data.attemptLog.map((attempt: { outcome: string }) => attempt.outcome)).toEqual([
      'failed',
      'failed',
      'succeeded',
    ]);
    expect(detail.body.data.payload).toMatchObject({
      kind: 'containerhost.health_check.changed',
      state: 'offline',
    });
  });
});

describe('listing deliveries', () => {
  it('filters by status, channel, rule and event, and validates each filter', async () => {
    const byAll = await gateway.call('GET', BASE, {
      query: { status: 'delivered', channelId, ruleId, event: 'containerhost.health_check.changed' },
    });
    expect(byAll.body.data.length).toBeGreaterThan(0);
    expect(byAll.body.data[0]).toMatchObject({
      channelId,
      ruleId,
      summary: 'Health check of web is offline',
    });
    const none = await gateway.call('GET', BASE, { query: { status: 'queued', channelId } });
    expect(none.body.pagination.total).toBe(0);
    expectValidationError(await gateway.call('GET', BASE, { query: { status: 'lost' } }), ['status']);
    expectValidationError(await gateway.call('GET', BASE, { query: { channelId: 'x' } }), ['channelId']);
    expectValidationError(await gateway.call('GET', BASE, { query: { limit: 101 } }), ['limit']);
    expectValidationError(await gateway.call('GET', `${BASE}/not-an-id`), ['id']);
  });
});
