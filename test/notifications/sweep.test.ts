import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeGitlab, startFakeGitlab } from '../services/fake-gitlab-v4.js';
import { type NotificationReceiver, startNotificationReceiver } from '../services/notification-receiver.js';
import { openssl } from '../services/openssl-pki.js';
import { type SmtpSink, startSmtpSink } from '../services/smtp-sink.js';
import { eventually } from '../support/eventually.js';
import type { TestGateway } from '../support/gateway.js';
import {
  certificateValidFor,
  created,
  createRule,
  createWebhookChannel,
  deliveriesSettle,
  emit,
  runJob,
  startNotifyGateway,
} from './helpers.js';

let gateway: TestGateway;
let receiver: NotificationReceiver;
beforeAll(async () => {
  gateway = await startNotifyGateway();
  receiver = await startNotificationReceiver();
});
afterAll(async () => {
  await gateway?.close();
  await receiver?.stop();
});

describe.skipIf(!openssl.path)('the sweep, for certificates', () => {
  let smtp: SmtpSink;
  beforeAll(async () => {
    smtp = await startSmtpSink();
  });
  afterAll(async () => smtp?.stop());

  it('mails as soon as a certificate that expires in 3 days is uploaded, and later sweeps send nothing new', async () => {
    const mail = await created(gateway, '/api/notifications/channels', {
      name: 'certificate mail',
      kind: 'email',
      smtp: { host: '127.0.0.1', port: smtp.port, starttls: 'off' },
      from: 'infragate@example.test',
      to: ['pki@example.test'],
    });
    const ruleId = await createRule(gateway, 'certificates.expiring', [mail]);
    const material = certificateValidFor(3, 'soon.example.test');
    const certificateId = await created(gateway, '/api/ssl-certificates/upload', {
      name: 'soon',
      certificatePem: material.certificatePem,
      privateKeyPem: material.privateKeyPem,
    });

    await deliveriesSettle(gateway, `ruleId=${ruleId}`, 'delivered');
    await runJob(gateway, 'notifications.sweep');
    await runJob(gateway, 'notifications.sweep');
    await deliveriesSettle(gateway, `ruleId=${ruleId}`, 'delivered');

    expect(smtp.mails).toHaveLength(1);
    const [message] = smtp.mails;
    expect(message!.subject).toMatch(/^\[infragate\] Certificate soon expires in [23] days$/);
    expect(message!.text).toContain('Threshold: within 7 days');
    expect(message!.text).toContain(`Open: https://console.example.test/certificates/${certificateId}`);
  });

  it('notifies an expired certificate once, and its replacement by a valid one as a recovery', async () => {
    const channelId = await createWebhookChannel(gateway, receiver.webhookUrl);
    const ruleId = await createRule(gateway, 'certificates.expired', [channelId]);
    const soon = certificateValidFor(1, 'brief.example.test');
    const certificateId = await created(gateway, '/api/ssl-certificates/upload', {
      name: 'brief',
      certificatePem: soon.certificatePem,
      privateKeyPem: soon.privateKeyPem,
    });
    await runJob(gateway, 'notifications.sweep');
    // Two days later, as far as the sweep can tell.
    await gateway.deps.db.execute(
      sql`update ssl_certificates set not_after = now() - interval '1 day' where id = ${certificateId}`,
    );
    await runJob(gateway, 'notifications.sweep');
    await runJob(gateway, 'notifications.sweep');
    const renewed = certificateValidFor(90, 'brief.example.test');
    const replaced = await gateway.call('PUT', `/api/ssl-certificates/${certificateId}`, {
      body: { certificatePem: renewed.certificatePem, privateKeyPem: renewed.privateKeyPem },
    });
    expect(replaced.status).toBe(200);
    await runJob(gateway, 'notifications.sweep');

    await deliveriesSettle(gateway, `ruleId=${ruleId}`, 'delivered', 2);
    const titles = receiver.accepted
      .filter((request) => request.json?.rule?.id === ruleId)
      .map((request) => request.json.title);
    expect(titles).toEqual(['Certificate brief has expired', 'Certificate brief is valid again']);
  });
});

describe.skipIf(!openssl.path)('the sweep, for deleted resources', () => {
  it('forgets the open alert of a certificate that was deleted', async () => {
    const material = certificateValidFor(1, 'gone.example.test');
    const certificateId = await created(gateway, '/api/ssl-certificates/upload', {
      name: 'gone',
      certificatePem: material.certificatePem,
      privateKeyPem: material.privateKeyPem,
    });
    await gateway.deps.db.execute(
      sql`update ssl_certificates set not_after = now() - interval '1 hour' where id = ${certificateId}`,
    );
    await runJob(gateway, 'notifications.sweep');
    const alertFor = async () =>
      (await gateway.call('GET', '/api/notifications/alerts?limit=100')).body.data.find(
        (alert: { resource: { id: string } }) => alert.resource.id === certificateId,
      );
    expect(await alertFor()).toMatchObject({ event: 'certificates.expired', state: 'expired' });
    expect((await gateway.call('DELETE', `/api/ssl-certificates/${certificateId}`)).status).toBe(200);
    await runJob(gateway, 'notifications.sweep');
    expect(await alertFor()).toBeUndefined();
  });
});

describe('the sweep, for repository-host tokens', () => {
  let gitlab: FakeGitlab;
  beforeAll(async () => {
    gitlab = await startFakeGitlab();
  });
  afterAll(async () => gitlab?.close());

  it('notifies a token that expires within a threshold, as the connector’s probe of the host reported it', async () => {
    const channelId = await createWebhookChannel(gateway, receiver.webhookUrl);
    const ruleId = await createRule(gateway, 'repohost.token.expiring', [channelId], { withinDays: [14] });
    const expiresOn = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    gitlab.users.push({ id: 1, username: 'deployer', name: 'Deploy Bot' });
    gitlab.tokens.push({
      token: 'glpat-ExpiresSoonToken00010',
      userId: 1,
      scopes: ['api'],
      expiresAt: expiresOn,
    });
    const connectorId = await created(gateway, '/api/integrations/repohost/connectors', {
      name: 'gitlab.example.test',
      baseUrl: gitlab.url,
      token: 'glpat-ExpiresSoonToken00010',
    });

    await runJob(gateway, 'notifications.sweep');
    await deliveriesSettle(gateway, `ruleId=${ruleId}`, 'delivered');
    const request = receiver.accepted.find((r) => r.json?.rule?.id === ruleId)!;
    expect(request.json).toMatchObject({
      title: expect.stringMatching(
        /^The access token of repository host gitlab\.example\.test expires in (9|10) days$/,
      ),
      resource: { type: 'repohost_connector', id: connectorId, name: 'gitlab.example.test' },
      threshold: 14,
      details: { baseUrl: gitlab.url, tokenExpiresAt: expiresOn },
      url: `https://console.example.test/integrations/repohost/${connectorId}`,
    });
  });
});

describe('the sweep, for reminders', () => {
  it('reminds of a health check that went offline more than the rule’s interval ago, once per interval', async () => {
    const node = await created(gateway, '/api/containerhost/nodes', {
      name: 'reminded-node',
      endpoint: 'unix:///run/infragate-test/reminded-node.sock',
    });
    // Disabled, so the background job does not run the check and report a state of its own meanwhile.
    const check = await gateway.call('PUT', `/api/containerhost/nodes/${node}/containers/api/health-check`, {
      body: { hostPort: 8080, enabled: false },
    });
    expect(check.status).toBe(200);
    const channelId = await createWebhookChannel(gateway, receiver.webhookUrl);
    const ruleId = await createRule(gateway, 'containerhost.health_check.changed', [channelId], {
      filters: { nodeId: node },
      renotifyMinutes: 60,
    });
    await emit(gateway, {
      kind: 'containerhost.health_check.changed',
      resource: { type: 'containerhost_health_check', id: check.body.data.id, name: 'api' },
      labels: { nodeId: node, containerName: 'api' },
      state: 'offline',
      occurredAt: new Date(Date.now() - 65 * 60_000),
    });

    await runJob(gateway, 'notifications.sweep');
    await runJob(gateway, 'notifications.sweep');
    await deliveriesSettle(gateway, `ruleId=${ruleId}`, 'delivered', 2);
    const titles = await eventually(() => {
      const mine = receiver.accepted.filter((request) => request.json?.rule?.id === ruleId);
      return mine.length === 2 ? mine.map((request) => request.json.title) : undefined;
    }, 'the change and one reminder');
    expect(titles.sort()).toEqual([
      'Health check of api is offline',
      'Reminder: Health check of api is still offline',
    ]);
  });
});
