import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createRule,
  createWebhookChannel,
  deliveriesSettle,
  startNotifyGateway,
} from '../notifications/helpers.js';
import { type NotificationReceiver, startNotificationReceiver } from '../services/notification-receiver.js';
import { expectError } from '../support/expectations.js';
import type { TestGateway } from '../support/gateway.js';

// The failed login that makes an account or a client address reach its limit queues one
// `auth.login.throttled` notification per lockout.
let gateway: TestGateway;
let receiver: NotificationReceiver;
let ruleId: string;

beforeAll(async () => {
  gateway = await startNotifyGateway({}, { loginMaxFailuresPerEmail: 3, loginMaxFailuresPerAddress: 5 });
  receiver = await startNotificationReceiver();
  const channelId = await createWebhookChannel(gateway, receiver.webhookUrl);
  ruleId = await createRule(gateway, 'auth.login.throttled', [channelId]);
});
afterAll(async () => {
  await gateway?.close();
  await receiver?.stop();
});

const failLogin = async (email: string) =>
  expectError(
    await gateway.call('POST', '/auth/login', { token: null, body: { email, password: 'wrong password' } }),
    401,
    'UNAUTHORIZED',
  );
const notified = () => receiver.accepted.filter((request) => request.json?.rule?.id === ruleId);

describe('auth.login.throttled', () => {
  it('notifies nothing for failures below the limit', async () => {
    await failLogin('locked@test');
    await failLogin('locked@test');
    const deliveries = await gateway.call('GET', `/api/notifications/deliveries?ruleId=${ruleId}`);
    expect(deliveries.body.data).toEqual([]);
  });

  it('notifies once when an account reaches its limit, however often it is tried while locked', async () => {
    await failLogin('locked@test');
    for (let attempt = 0; attempt < 3; attempt++) await failLogin('locked@test');
    await deliveriesSettle(gateway, `ruleId=${ruleId}`, 'delivered', 1);
    expect(notified()).toHaveLength(1);
    expect(notified()[0]!.json).toMatchObject({
      kind: 'auth.login.throttled',
      resource: { type: 'login', id: 'account:locked@test', name: 'locked@test' },
      details: { subject: 'account', failures: 3, windowSeconds: expect.any(Number) },
    });
  });

  it('notifies once when a client address reaches its limit across accounts', async () => {
    await failLogin('first@test');
    await failLogin('second@test');
    await failLogin('third@test');
    await deliveriesSettle(gateway, `ruleId=${ruleId}`, 'delivered', 2);
    expect(notified()).toHaveLength(2);
    expect(notified()[1]!.json).toMatchObject({
      resource: { type: 'login', name: expect.any(String) },
      details: { subject: 'address', failures: 5 },
    });
  });
});
