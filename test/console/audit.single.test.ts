import { afterAll, beforeAll, expect, it } from 'vitest';
import { fastSiem, WEBHOOK_SECRET } from '../audit/helpers.js';
import { type SiemSink, startSiemSink } from '../services/siem-sink.js';
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

describeInBrowser('the Audit area', () => {
  let harness: ConsoleHarness;
  let sink: SiemSink;
  let auditor: ConsoleUser;
  beforeAll(async () => {
    harness = await startConsole(fastSiem());
    sink = await startSiemSink({ secret: WEBHOOK_SECRET });
    auditor = await harness.createUser(['audit:manage']);
  });
  afterAll(async () => {
    await harness?.close();
    await sink?.stop();
  });

  async function openAudit(path = '/audit', viewport?: { width: number; height: number }) {
    const opened = await harness.openSignedIn(auditor, path, viewport);
    await opened.page.getByRole('heading', { name: 'Audit' }).waitFor();
    return opened;
  }

  const api = async (method: string, url: string, body?: unknown) => {
    const answer = await harness.gateway.call(method, url, body === undefined ? {} : { body });
    expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
    return answer.body.data;
  };

  it('verifies the chain and says it is intact, passing the accessibility checks', async () => {
    const { page, problems } = await openAudit();
    await page.getByRole('table', { name: 'Audit events' }).waitFor();
    await page.getByRole('button', { name: 'Verify chain' }).click();
    await page.getByRole('status').getByText('The chain is intact').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'audit');
    expect(problems).toEqual([]);
  });

  it('filters the events by an action prefix', async () => {
    await api('POST', '/api/logging/environments', { name: 'audited-env' });
    const { page } = await openAudit();
    await page.getByLabel('Action').fill('logging.');
    await page.getByRole('button', { name: 'Filter' }).click();
    const table = page.getByRole('table', { name: 'Audit events' });
    // The unfiltered list is on the page until the filtered one replaces it.
    const rows = await eventually(async () => {
      const shown = (await table.getByRole('row').allTextContents()).slice(1);
      return shown.length > 0 && shown.every((row) => row.includes('logging.')) ? shown : undefined;
    }, 'only logging events listed');
    expect(rows.some((row) => row.includes('logging.environment.created'))).toBe(true);
  });

  it('creates a webhook destination, which the API then lists with its health', async () => {
    const { page } = await openAudit('/audit/destinations');
    await page.getByRole('button', { name: 'Create destination' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create a destination' });
    await dialog.getByLabel('Name').fill('soc');
    await dialog.getByLabel('URL').fill(sink.webhookUrl);
    await dialog.getByLabel('Signing secret').fill(WEBHOOK_SECRET);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'audit-create-destination');
    await dialog.getByRole('button', { name: 'Create destination' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const destinations = await api('GET', '/api/audit/siem/destinations');
    expect(destinations.find((item: { name: string }) => item.name === 'soc')).toMatchObject({
      kind: 'webhook',
      url: sink.webhookUrl,
      hasSecret: true,
    });
    await page.getByRole('table', { name: 'SIEM destinations' }).getByText('Circuit closed').waitFor();
    await screenshot(page, 'audit-destinations');
  });

  it('sends a test event to a destination and says it arrived', async () => {
    const { page } = await openAudit('/audit/destinations');
    await page.getByRole('button', { name: 'Test send to soc' }).click();
    await page.getByText(/^Test event delivered to soc/).waitFor();
    expect(sink.webhookEvents.some((event) => event.action === 'audit.siem.test')).toBe(true);
  });

  it('requeues a failed delivery, which the API then shows delivered', async () => {
    sink.mode = 'fail';
    const destination = await api('POST', '/api/audit/siem/destinations', {
      name: 'flaky',
      kind: 'webhook',
      url: sink.webhookUrl,
      secret: WEBHOOK_SECRET,
      maxAttempts: 1,
    });
    await api('POST', '/api/logging/environments', { name: 'makes-an-event' });
    const deliveries = async () =>
      (await api('GET', `/api/audit/siem/deliveries?destinationId=${destination.id}&status=failed`)) as {
        id: string;
      }[];
    await expect.poll(async () => (await deliveries()).length).toBeGreaterThan(0);
    const failed = (await deliveries()).map((delivery) => delivery.id);
    sink.mode = 'ok';
    const { page } = await openAudit('/audit/deliveries');
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'failed' }).click();
    await page.waitForURL('**/audit/deliveries?status=failed');
    const table = page.getByRole('table', { name: 'Deliveries' });
    await table.getByText('flaky').first().waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'audit-deliveries');
    // Both lists are newest first: the first Requeue button is the first failed delivery.
    await table
      .getByRole('button', { name: /^Requeue events/ })
      .first()
      .click();
    await page.getByText(/^Requeued the delivery/).waitFor();
    const status = async () => (await api('GET', `/api/audit/siem/deliveries/${failed[0]}`)).status;
    await expect.poll(status).toBe('delivered');
  });

  it('deletes a destination after confirming', async () => {
    const destination = await api('POST', '/api/audit/siem/destinations', {
      name: 'to-delete',
      kind: 'webhook',
      url: sink.webhookUrl,
      secret: WEBHOOK_SECRET,
    });
    const { page } = await openAudit('/audit/destinations');
    await page.getByRole('button', { name: 'Delete to-delete' }).click();
    const confirmation = page.getByRole('dialog', { name: 'Delete to-delete?' });
    expect(await accessibilityViolations(page)).toEqual([]);
    await confirmation.getByRole('button', { name: 'Delete' }).click();
    await confirmation.waitFor({ state: 'hidden' });
    expect((await harness.gateway.call('GET', `/api/audit/siem/destinations/${destination.id}`)).status).toBe(
      404,
    );
  });

  it('fits a phone screen: the lists do not scroll sideways', async () => {
    const { page } = await openAudit('/audit', PHONE);
    await page.getByRole('table', { name: 'Audit events' }).waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await page.goto('/audit/destinations');
    await page.getByRole('table', { name: 'SIEM destinations' }).waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await screenshot(page, 'audit-phone');
  });

  it('is not offered to a user without an audit scope', async () => {
    const outsider = await harness.createUser(['logging:view']);
    const { page } = await harness.open('/');
    await signIn(page, outsider);
    const nav = page.getByRole('navigation').first();
    await nav.getByRole('link', { name: 'Logging' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Audit' }).count()).toBe(0);
  });
});
