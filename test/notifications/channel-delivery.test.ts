import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NotificationReceiver, startNotificationReceiver } from '../services/notification-receiver.js';
import { openssl } from '../services/openssl-pki.js';
import { type SmtpSink, startSmtpSink } from '../services/smtp-sink.js';
import { eventually } from '../support/eventually.js';
import type { TestGateway } from '../support/gateway.js';
import {
  created,
  createRule,
  createWebhookChannel,
  deliveriesSettle,
  emit,
  healthEvent,
  startNotifyGateway,
  WEBHOOK_SECRET,
} from './helpers.js';

let gateway: TestGateway;
let receiver: NotificationReceiver;
beforeAll(async () => {
  gateway = await startNotifyGateway();
  receiver = await startNotificationReceiver({ secret: WEBHOOK_SECRET });
});
afterAll(async () => {
  await gateway?.close();
  await receiver?.stop();
});

describe('a webhook channel', () => {
  it('posts the event as JSON signed with HMAC-SHA256 over the timestamp and body, with its custom headers', async () => {
    const channelId = await createWebhookChannel(gateway, receiver.webhookUrl, {
      secret: WEBHOOK_SECRET,
      headers: { 'X-Receiver-Token': 'receiver-token-value' },
    });
    const ruleId = await createRule(gateway, 'containerhost.health_check.changed', [channelId]);
    expect(await emit(gateway, healthEvent('offline', '0d3b9a57-4c02-4a4e-9a3e-2f9d7f1b6c01'))).toBe(1);
    await deliveriesSettle(gateway, `channelId=${channelId}`, 'delivered');

    const request = receiver.accepted.find((r) => r.json?.rule?.id === ruleId)!;
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['x-receiver-token']).toBe('receiver-token-value');
    expect(request.headers['x-infragate-event']).toBe('containerhost.health_check.changed');
    expect(request.json).toMatchObject({
      kind: 'containerhost.health_check.changed',
      title: 'Health check of web is offline',
      resource: { type: 'containerhost_health_check', name: 'web' },
      state: 'offline',
      previousState: null,
      url: 'https://console.example.test/containers/0b6d8c8e-1f0e-4d9c-8b0a-2a8b5f1c9e77/containers/web/health',
    });
    expect(request.headers['x-infragate-delivery']).toBe(request.json.deliveryId);
    expect(receiver.rejectedSignatures).toBe(0);
  });

  it('is refused by a receiver that checks the signature with another secret: retried, every attempt recorded, then failed', async () => {
    const channelId = await createWebhookChannel(gateway, receiver.webhookUrl, {
      secret: 'a-different-secret-0123456789',
    });
    await createRule(gateway, 'containerhost.health_check.changed', [channelId]);
    await emit(gateway, healthEvent('offline', '6a0e4c1d-77b2-4d0e-8f3c-9c1e2b3a4d05'));
    const [delivery] = await deliveriesSettle(gateway, `channelId=${channelId}`, 'failed');
    expect(delivery).toMatchObject({
      attempts: 10,
      maxAttempts: 10,
      lastError: 'webhook answered HTTP 401: bad signature',
    });
    const detail = await gateway.call('GET', `/api/notifications/deliveries/${delivery!.id}`);
    expect(detail.body.data.attemptLog).toHaveLength(10);
    expect(detail.body.data.attemptLog[9]).toMatchObject({ attempt: 10, outcome: 'failed', httpStatus: 401 });
    expect(receiver.rejectedSignatures).toBe(10);
  });
});

describe('a Slack-compatible channel', () => {
  it('posts {text} with the title, the details and a link back to the console', async () => {
    const channelId = await created(gateway, '/api/notifications/channels', {
      name: 'chat',
      kind: 'slack',
      url: receiver.slackUrl,
    });
    await createRule(gateway, 'containerhost.health_check.changed', [channelId]);
    await emit(gateway, healthEvent('degraded', '9b7c2e11-3d4f-4a6b-8c9d-0e1f2a3b4c06'));
    await deliveriesSettle(gateway, `channelId=${channelId}`, 'delivered');

    const request = receiver.accepted.find((r) => r.path.startsWith('/slack/'))!;
    expect(Object.keys(request.json)).toEqual(['text']);
    const lines = request.json.text.split('\n');
    expect(lines[0]).toBe('*Health check of web is degraded*');
    expect(lines).toContain('State: degraded');
    expect(lines.at(-1)).toBe(
      '<https://console.example.test/containers/0b6d8c8e-1f0e-4d9c-8b0a-2a8b5f1c9e77/containers/web/health|Open in infragate>',
    );
  });
});

describe.skipIf(!openssl.path)('an email channel', () => {
  let smtp: SmtpSink;
  beforeAll(async () => {
    smtp = await startSmtpSink({ tls: true, username: 'alerts', password: 'smtp-password-value' });
  });
  afterAll(async () => smtp?.stop());

  it('sends a mail with a plain text and an HTML part over STARTTLS, signed in with its credentials', async () => {
    const channelId = await created(gateway, '/api/notifications/channels', {
      name: 'ops mail',
      kind: 'email',
      smtp: {
        host: '127.0.0.1',
        port: smtp.port,
        username: 'alerts',
        password: 'smtp-password-value',
        caPem: smtp.caPem,
      },
      from: 'infragate@example.test',
      to: ['ops@example.test', 'oncall@example.test'],
    });
    await createRule(gateway, 'containerhost.health_check.changed', [channelId]);
    await emit(gateway, healthEvent('offline', 'c2d3e4f5-a6b7-4c8d-9e0f-1a2b3c4d5e07'));
    const [delivery] = await deliveriesSettle(gateway, `channelId=${channelId}`, 'delivered');

    const mail = await eventually(() => smtp.mails[0], 'the mail');
    expect(smtp.sessions[0]).toEqual({ secure: true, user: 'alerts' });
    expect(mail.subject).toBe('[infragate] Health check of web is offline');
    expect(mail.from?.text).toBe('infragate@example.test');
    expect(
      (Array.isArray(mail.to) ? mail.to : [mail.to]).flatMap((to) => to!.value.map((v) => v.address)),
    ).toEqual(['ops@example.test', 'oncall@example.test']);
    expect(mail.messageId).toBe(`<${delivery!.id}@console.example.test>`);
    expect(mail.text).toContain(
      'Open: https://console.example.test/containers/0b6d8c8e-1f0e-4d9c-8b0a-2a8b5f1c9e77/containers/web/health',
    );
    expect(mail.html).toContain('<h2>Health check of web is offline</h2>');
  });

  it('speaks TLS from the first byte when the channel is secure', async () => {
    const implicit = await startSmtpSink({ tls: 'implicit' });
    try {
      const channelId = await created(gateway, '/api/notifications/channels', {
        name: 'tls mail',
        kind: 'email',
        smtp: { host: '127.0.0.1', port: implicit.port, secure: true, caPem: implicit.caPem },
        from: 'infragate@example.test',
        to: ['ops@example.test'],
      });
      const test = await gateway.call('POST', `/api/notifications/channels/${channelId}/test`);
      expect(test.body.data).toEqual({ ok: true });
      expect(implicit.sessions).toEqual([{ secure: true, user: undefined }]);
    } finally {
      await implicit.stop();
    }
  });

  it('refuses a server whose certificate it cannot trust', async () => {
    const channelId = await created(gateway, '/api/notifications/channels', {
      name: 'untrusted mail',
      kind: 'email',
      smtp: { host: '127.0.0.1', port: smtp.port, username: 'alerts', password: 'smtp-password-value' },
      from: 'infragate@example.test',
      to: ['ops@example.test'],
    });
    const test = await gateway.call('POST', `/api/notifications/channels/${channelId}/test`);
    expect(test.body.data.ok).toBe(false);
    expect(test.body.data.error).toMatch(/certificate/i);
  });

  it('fails without sending when STARTTLS is required and the server does not offer it', async () => {
    const plain = await startSmtpSink();
    try {
      const channelId = await created(gateway, '/api/notifications/channels', {
        name: 'plain mail',
        kind: 'email',
        smtp: { host: '127.0.0.1', port: plain.port },
        from: 'infragate@example.test',
        to: ['ops@example.test'],
      });
      const test = await gateway.call('POST', `/api/notifications/channels/${channelId}/test`);
      expect(test.status).toBe(200);
      expect(test.body.data.ok).toBe(false);
      expect(test.body.data.error).toMatch(/STARTTLS/i);
      expect(plain.mails).toHaveLength(0);

      const relaxed = await gateway.call('PATCH', `/api/notifications/channels/${channelId}`, {
        body: { smtp: { starttls: 'off' } },
      });
      expect(relaxed.status).toBe(200);
      const again = await gateway.call('POST', `/api/notifications/channels/${channelId}/test`);
      expect(again.body.data).toEqual({ ok: true });
      expect(plain.mails[0]?.subject).toBe('[infragate] Test notification for channel plain mail');
    } finally {
      await plain.stop();
    }
  });
});
