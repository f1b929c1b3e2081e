import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import {
  createRule,
  createWebhookChannel,
  emit,
  healthEvent,
  runJob,
  WEBHOOK_SECRET,
} from '../notifications/helpers.js';
import { type NotificationReceiver, startNotificationReceiver } from '../services/notification-receiver.js';
import { freePort } from '../services/peers.js';
import { startSmtpSink } from '../services/smtp-sink.js';
import {
  accessibilityViolations,
  type ConsoleHarness,
  type ConsoleUser,
  describeInBrowser,
  PHONE,
  screenshot,
  scrollsSideways,
  signIn,
  startConsole,
} from '../support/console.js';
import { eventually } from '../support/eventually.js';

describeInBrowser('the Notifications page', () => {
  let harness: ConsoleHarness;
  let receiver: NotificationReceiver;
  let manager: ConsoleUser;
  beforeAll(async () => {
    receiver = await startNotificationReceiver({ secret: WEBHOOK_SECRET });
    // One attempt per delivery, and the worker only runs when a test asks it to.
    harness = await startConsole({
      notify: { ...loadConfig({}).notify, maxAttempts: 1, pollIntervalMs: 60_000 },
    });
    manager = await harness.createUser(['notifications:manage']);
  });
  afterAll(async () => {
    await harness?.close();
    await receiver?.stop();
  });

  async function openPage(target: string, viewport?: { width: number; height: number }) {
    const opened = await harness.openSignedIn(manager, target, viewport);
    await opened.page.getByRole('heading', { name: 'Notifications' }).waitFor();
    return opened;
  }

  const deliveries = async (query: Record<string, string>) =>
    (await harness.gateway.call('GET', '/api/notifications/deliveries', { query })).body.data as {
      id: string;
      status: string;
    }[];

  it('creates a signed webhook channel, and its test send reaches the receiver', async () => {
    const { page, problems } = await openPage('/notifications');
    await page.getByRole('button', { name: 'Create channel' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create a channel' });
    await dialog.getByLabel('Name', { exact: true }).fill('ops hook');
    await dialog.getByLabel('URL').fill(receiver.webhookUrl);
    await dialog.getByLabel('Signing secret').fill(WEBHOOK_SECRET);
    await dialog.getByLabel('Custom headers').fill('X-Receiver-Token: from-the-console');
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'notifications-channel');
    await dialog.getByRole('button', { name: 'Create channel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const [channel] = (
      await harness.gateway.call('GET', '/api/notifications/channels', { query: { q: 'ops hook' } })
    ).body.data;
    expect(channel).toMatchObject({ kind: 'webhook', hasSecret: true, headerNames: ['x-receiver-token'] });

    await page.getByRole('button', { name: 'Send test to ops hook' }).click();
    await page.getByRole('table', { name: 'Channels' }).getByText('Test delivered').waitFor();
    const test = receiver.accepted.find(
      (request) => request.headers['x-infragate-event'] === 'notifications.test',
    );
    expect(test?.headers['x-receiver-token']).toBe('from-the-console');
    expect(receiver.rejectedSignatures).toBe(0);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'notifications');
    expect(problems).toEqual([]);
  });

  it('shows why a test send failed', async () => {
    await createWebhookChannel(harness.gateway, `http://127.0.0.1:${await freePort()}/nobody`, {
      name: 'dead end',
    });
    const { page } = await openPage('/notifications?q=dead');
    await page.getByRole('button', { name: 'Send test to dead end' }).click();
    const row = page
      .getByRole('table', { name: 'Channels' })
      .getByRole('row')
      .filter({ hasText: 'dead end' });
    await row.getByText('Test failed').waitFor();
    await expect(row.getByRole('status').textContent()).resolves.toMatch(/Test failed.+/);
  });

  it('creates an email channel, and its test send shows that the mail went out', async () => {
    const smtp = await startSmtpSink();
    try {
      const { page } = await openPage('/notifications');
      await page.getByRole('button', { name: 'Create channel' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Create a channel' });
      await dialog.getByLabel('Name', { exact: true }).fill('ops mail');
      await dialog.getByText('Email', { exact: true }).click();
      await dialog.getByLabel('SMTP host').fill('127.0.0.1');
      await dialog.getByLabel('SMTP port').fill(String(smtp.port));
      await dialog.getByRole('combobox', { name: 'STARTTLS' }).click();
      await page.getByRole('option', { name: 'Never' }).click();
      await dialog.getByLabel('From', { exact: true }).fill('infragate@example.test');
      const to = dialog.getByLabel('To', { exact: true });
      await to.fill('ops@example.test');
      await to.press('Enter');
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'notifications-email-channel');
      await dialog.getByRole('button', { name: 'Create channel' }).click();
      await dialog.waitFor({ state: 'hidden' });

      await page.getByRole('button', { name: 'Send test to ops mail' }).click();
      const row = page
        .getByRole('table', { name: 'Channels' })
        .getByRole('row')
        .filter({ hasText: 'ops mail' });
      await row.getByText('Test delivered').waitFor();
      expect(smtp.mails.map((mail) => mail.subject)).toEqual([
        '[infragate] Test notification for channel ops mail',
      ]);
      expect(smtp.mails[0]!.to).toMatchObject({ text: 'ops@example.test' });
    } finally {
      await smtp.stop();
    }
  });

  it('creates a Slack-compatible channel, and its test send shows that the chat took it', async () => {
    const { page } = await openPage('/notifications');
    await page.getByRole('button', { name: 'Create channel' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create a channel' });
    await dialog.getByLabel('Name', { exact: true }).fill('ops chat');
    await dialog.getByText('Slack-compatible', { exact: true }).click();
    await dialog.getByLabel('Incoming-webhook URL').fill(receiver.slackUrl);
    expect(await accessibilityViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Create channel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const [channel] = (
      await harness.gateway.call('GET', '/api/notifications/channels', { query: { q: 'ops chat' } })
    ).body.data;
    expect(channel).toMatchObject({ kind: 'slack', url: null, urlOrigin: receiver.baseUrl });

    await page.getByRole('button', { name: 'Send test to ops chat' }).click();
    const row = page
      .getByRole('table', { name: 'Channels' })
      .getByRole('row')
      .filter({ hasText: 'ops chat' });
    await row.getByText('Test delivered').waitFor();
    const posted = receiver.accepted.filter((request) => request.path.startsWith('/slack/'));
    expect(posted.map((request) => request.json.text.split('\n')[0])).toEqual([
      '*Test notification for channel ops chat*',
    ]);
  });

  it('creates a rule for an event, with its channels and thresholds', async () => {
    const { page } = await openPage('/notifications/rules');
    await page.getByRole('button', { name: 'Create rule' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create a rule' });
    await dialog.getByLabel('Name', { exact: true }).fill('certificates soon');
    await dialog.getByRole('combobox', { name: 'Event' }).click();
    await page.getByRole('option', { name: 'certificates.expiring' }).click();
    await dialog.getByRole('combobox', { name: 'Channels' }).click();
    await page.getByRole('option', { name: 'ops hook' }).click();
    const days = dialog.getByRole('combobox', { name: 'Days before expiry' });
    await days.fill('10');
    await days.press('Enter');
    await days.fill('3');
    await days.press('Enter');
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'notifications-rule');
    await dialog.getByRole('button', { name: 'Create rule' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('table', { name: 'Rules' }).getByText('certificates soon').waitFor();
    const [rule] = (
      await harness.gateway.call('GET', '/api/notifications/rules', { query: { q: 'certificates soon' } })
    ).body.data;
    expect(rule).toMatchObject({ event: 'certificates.expiring', withinDays: [10, 3] });
  });

  it('lists failed deliveries by status, and requeues one, which is then delivered', async () => {
    receiver.mode = 'fail';
    const channelId = await createWebhookChannel(harness.gateway, receiver.webhookUrl, {
      name: 'flaky hook',
      secret: WEBHOOK_SECRET,
    });
    const ruleId = await createRule(harness.gateway, 'containerhost.health_check.changed', [channelId], {
      name: 'web down',
    });
    await emit(harness.gateway, healthEvent('offline'));
    await eventually(async () => {
      await runJob(harness.gateway, 'notifications.deliver');
      return (await deliveries({ ruleId }))[0]?.status === 'failed';
    }, 'the delivery failing');
    receiver.mode = 'ok';

    const { page } = await openPage('/notifications/deliveries');
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'failed' }).click();
    await page.waitForURL('**/notifications/deliveries?status=failed');
    const table = page.getByRole('table', { name: 'Deliveries' });
    const row = table.getByRole('row').filter({ hasText: 'flaky hook' });
    await row.getByText('receiver is down', { exact: false }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'notifications-deliveries');
    await row.getByRole('button', { name: /^Requeue/ }).click();
    await eventually(async () => {
      await runJob(harness.gateway, 'notifications.deliver');
      return (await deliveries({ ruleId }))[0]?.status === 'delivered';
    }, 'the requeued delivery arriving');
  });

  it('shows a delivery’s attempts on its page: the failed one and the one after the requeue', async () => {
    const { page, problems } = await openPage('/notifications/deliveries?status=delivered');
    const row = page
      .getByRole('table', { name: 'Deliveries' })
      .getByRole('row')
      .filter({ hasText: 'flaky hook' });
    await row.getByRole('link', { name: 'Health check of web is offline' }).click();
    await page.getByRole('heading', { level: 1, name: 'Health check of web is offline' }).waitFor();
    const attempts = page.getByRole('table', { name: 'Attempts' }).getByRole('row');
    await attempts.filter({ hasText: 'succeeded' }).waitFor();
    const failed = attempts.filter({ hasText: '#1' });
    await failed.getByText('failed', { exact: true }).waitFor();
    await failed.getByText('503', { exact: true }).waitFor();
    await failed.getByText('receiver is down', { exact: false }).waitFor();
    await attempts.filter({ hasText: '#2' }).getByText('succeeded', { exact: true }).waitFor();
    await page
      .getByRole('region', { name: 'Payload' })
      .getByText('"kind": "containerhost.health_check.changed"')
      .waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'notifications-delivery');
    expect(problems).toEqual([]);
  });

  it('shows the open alerts on the overview', async () => {
    const watcher = await harness.createUser(['notifications:view']);
    const { page } = await harness.open('/overview');
    await signIn(page, watcher);
    const alerts = page.getByRole('region', { name: 'Open alerts' });
    await alerts.getByRole('listitem').filter({ hasText: 'offline' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'overview-alerts');
  });

  it('is not offered to a user without a notifications scope', async () => {
    expect(await harness.navigationFor(['admin:users'])).not.toContain('Notifications');
  });

  it('fits a phone screen: channels and deliveries do not scroll sideways', async () => {
    const { page } = await openPage('/notifications', PHONE);
    await page.getByRole('table', { name: 'Channels' }).getByText('ops hook').waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await screenshot(page, 'notifications-phone');
    await page.goto('/notifications/deliveries');
    await page.getByRole('table', { name: 'Deliveries' }).waitFor();
    expect(await scrollsSideways(page)).toBe(false);
  });
});
