import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deliveriesSettle,
  emit,
  healthEvent,
  startNotifyGateway,
  WEBHOOK_SECRET,
} from '../notifications/helpers.js';
import { type NotificationReceiver, startNotificationReceiver } from '../services/notification-receiver.js';
import { type SmtpSink, startSmtpSink } from '../services/smtp-sink.js';
import { type ApiCli, apiCli } from '../support/cli.js';
import type { TestGateway } from '../support/gateway.js';

let gateway: TestGateway;
let receiver: NotificationReceiver;
let cli: ApiCli;
beforeAll(async () => {
  gateway = await startNotifyGateway({ maxAttempts: 1 });
  receiver = await startNotificationReceiver();
  cli = apiCli(await gateway.listen(), gateway.adminToken);
});
afterAll(async () => {
  await gateway?.close();
  await receiver?.stop();
});

function headersFile(text: string): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-headers-')), 'headers.txt');
  fs.writeFileSync(file, text);
  return file;
}

const webhook = (name: string) => [
  'notifications',
  'channels',
  'create',
  '--name',
  name,
  '--kind',
  'webhook',
  '--webhook-url',
  receiver.webhookUrl,
];

describe('infragate notifications channels', () => {
  it('creates a signed webhook with headers from a file, tests it, and deletes it', async () => {
    const file = headersFile('# for the receiver\nX-Receiver-Token: receiver-secret-value\n');
    const channel = await cli.json(
      [...webhook('ops hook'), '--secret-stdin', '--headers-file', file],
      `${WEBHOOK_SECRET}\n`,
    );
    expect(channel).toMatchObject({ kind: 'webhook', hasSecret: true, headerNames: ['x-receiver-token'] });
    expect(await cli.json(['notifications', 'channels', 'test', 'ops hook'])).toEqual({ ok: true });
    const sent = receiver.accepted.at(-1)!;
    expect(sent.headers['x-receiver-token']).toBe('receiver-secret-value');
    expect(sent.headers['x-infragate-event']).toBe('notifications.test');
    expect(sent.headers['x-infragate-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    const listed = await cli.json(['notifications', 'channels', 'ls', '--kind', 'webhook']);
    expect(listed.map((row: { id: string }) => row.id)).toContain(channel.id);
    expect((await cli.run(['notifications', 'channels', 'delete', 'ops hook'])).code).toBe(0);
    expect((await gateway.call('GET', `/api/notifications/channels/${channel.id}`)).status).toBe(404);
  });

  it('reads a Slack URL from standard input and never prints it', async () => {
    const result = await cli.run(
      ['notifications', 'channels', 'create', '--name', 'ops chat', '--kind', 'slack', '--slack-url-stdin'],
      `${receiver.slackUrl}\n`,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain(receiver.slackUrl);
    expect(JSON.parse(result.stdout)).toMatchObject({ url: null, urlOrigin: receiver.baseUrl });
    const shown = await cli.run(['notifications', 'channels', 'get', 'ops chat']);
    expect(shown.stdout).not.toContain(receiver.slackUrl);
  });

  it('creates an email channel from SMTP flags and sends its test mail', async () => {
    const sink: SmtpSink = await startSmtpSink({ username: 'alerts', password: 'smtp-password' });
    try {
      const channel = await cli.json(
        [
          'notifications',
          'channels',
          'create',
          '--name',
          'ops mail',
          '--kind',
          'email',
          '--smtp-host',
          '127.0.0.1',
          '--smtp-port',
          String(sink.port),
          '--starttls',
          'off',
          '--smtp-username',
          'alerts',
          '--smtp-password-stdin',
          '--from',
          'infragate@example.org',
          '--to',
          'ops@example.org, oncall@example.org',
        ],
        'smtp-password\n',
      );
      expect(channel).toMatchObject({
        smtp: { host: '127.0.0.1', port: sink.port, starttls: 'off', hasPassword: true },
        to: ['ops@example.org', 'oncall@example.org'],
      });
      expect(await cli.json(['notifications', 'channels', 'test', 'ops mail'])).toEqual({ ok: true });
      expect(sink.sessions.at(-1)?.user).toBe('alerts');
      const updated = await cli.json(['notifications', 'channels', 'update', 'ops mail', '--no-enabled']);
      expect(updated.enabled).toBe(false);
    } finally {
      await sink.stop();
    }
  });

  it('exits 1 when the test send fails, with the reason', async () => {
    await cli.json(webhook('flaky hook'));
    receiver.mode = 'fail';
    try {
      const result = await cli.run(['notifications', 'channels', 'test', 'flaky hook']);
      expect(result.code).toBe(1);
      expect(JSON.parse(result.stdout)).toMatchObject({ ok: false, error: expect.stringContaining('503') });
    } finally {
      receiver.mode = 'ok';
    }
  });

  it('refuses two secrets from standard input in one run', async () => {
    const result = await cli.run(
      [
        'notifications',
        'channels',
        'create',
        '--name',
        'x',
        '--kind',
        'slack',
        '--slack-url-stdin',
        '--secret-stdin',
      ],
      'https://hooks.example.org/x\n',
    );
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      'infragate: --slack-url-stdin and --secret-stdin both read standard input; give one of them per run',
    );
    expect(await cli.json(['notifications', 'channels', 'ls', '--q', 'x'])).toEqual([]);
  });
});

describe('infragate notifications rules', () => {
  it('creates a rule sending to channels named by name, changes it and deletes it', async () => {
    const first = await cli.json(webhook('rule hook 1'));
    const second = await cli.json(webhook('rule hook 2'));
    const rule = await cli.json([
      'notifications',
      'rules',
      'create',
      '--name',
      'web down',
      '--event',
      'containerhost.health_check.changed',
      '--channel',
      'rule hook 1',
      '--channel',
      second.id,
      '--container',
      'web',
      '--renotify-minutes',
      '60',
    ]);
    expect(rule).toMatchObject({
      channelIds: [first.id, second.id],
      filters: { containerName: 'web' },
      renotifyMinutes: 60,
    });
    const changed = await cli.json([
      'notifications',
      'rules',
      'update',
      'web down',
      '--channel',
      'rule hook 2',
      '--renotify-minutes',
      'none',
    ]);
    expect(changed).toMatchObject({ channelIds: [second.id], renotifyMinutes: null });
    const listed = await cli.json([
      'notifications',
      'rules',
      'ls',
      '--event',
      'containerhost.health_check.changed',
    ]);
    expect(listed.map((row: { id: string }) => row.id)).toContain(rule.id);
    expect((await cli.run(['notifications', 'rules', 'delete', 'web down'])).code).toBe(0);
    expect((await gateway.call('GET', `/api/notifications/rules/${rule.id}`)).status).toBe(404);
  });

  it('sets the thresholds of a deadline rule', async () => {
    await cli.json(webhook('cert hook'));
    const rule = await cli.json([
      'notifications',
      'rules',
      'create',
      '--name',
      'certificates soon',
      '--event',
      'certificates.expiring',
      '--channel',
      'cert hook',
      '--within-days',
      '30,7,1',
    ]);
    expect(rule.withinDays).toEqual([30, 7, 1]);
  });
});

describe('infragate notifications deliveries, alerts and events', () => {
  it('lists a failed delivery, shows its attempts, and requeues it until it is delivered', async () => {
    await cli.json(webhook('outbox hook'));
    const rule = await cli.json([
      'notifications',
      'rules',
      'create',
      '--name',
      'outbox rule',
      '--event',
      'containerhost.health_check.changed',
      '--channel',
      'outbox hook',
    ]);
    receiver.mode = 'fail';
    await emit(gateway, healthEvent('offline', 'c0ffee00-0000-4000-8000-000000000001'));
    await deliveriesSettle(gateway, `ruleId=${rule.id}`, 'failed');
    receiver.mode = 'ok';
    const [failed] = await cli.json([
      'notifications',
      'deliveries',
      'ls',
      '--rule',
      'outbox rule',
      '--status',
      'failed',
      '--channel',
      'outbox hook',
    ]);
    expect(failed).toMatchObject({ event: 'containerhost.health_check.changed', attempts: 1 });
    const detail = await cli.json(['notifications', 'deliveries', 'get', failed.id]);
    expect(detail.attemptLog).toEqual([
      expect.objectContaining({ attempt: 1, outcome: 'failed', httpStatus: 503 }),
    ]);
    const shown = await cli.terminal(['notifications', 'deliveries', 'get', failed.id]);
    expect(shown.stdout).toMatch(/attempts:\r?\nATTEMPT\s+OUTCOME\s+STARTED AT/);
    expect(shown.stdout).toMatch(/\r?\n1\s+failed\s/);
    expect((await cli.json(['notifications', 'deliveries', 'requeue', failed.id])).status).toBe('queued');
    await deliveriesSettle(gateway, `ruleId=${rule.id}`, 'delivered');
  });

  it('lists the open alerts and the event catalog', async () => {
    await emit(gateway, healthEvent('degraded', 'c0ffee00-0000-4000-8000-000000000002'));
    const alerts = await cli.json(['notifications', 'alerts']);
    expect(alerts).toContainEqual(
      expect.objectContaining({
        state: 'degraded',
        resource: expect.objectContaining({ id: 'c0ffee00-0000-4000-8000-000000000002' }),
      }),
    );
    const events = await cli.json(['notifications', 'events']);
    expect(events.map((event: { kind: string }) => event.kind)).toContain('certificates.expiring');
  });
});
