import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
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

describeInBrowser('the Logging area', () => {
  let harness: ConsoleHarness;
  let operator: ConsoleUser;
  beforeAll(async () => {
    harness = await startConsole();
    operator = await harness.createUser(['logging:manage']);
  });
  afterAll(() => harness?.close());

  async function openLogging(path = '/logging', viewport?: { width: number; height: number }) {
    const opened = await harness.openSignedIn(operator, path, viewport);
    return opened;
  }

  const api = async (method: string, url: string, body?: unknown) => {
    const answer = await harness.gateway.call(method, url, body === undefined ? {} : { body });
    expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
    return answer.body.data;
  };
  const folder = (id: string) => api('GET', `/api/logging/environment-folders/${id}`);

  async function chooseOption(
    page: Page,
    scope: ReturnType<Page['getByRole']>,
    label: string,
    option: string,
  ) {
    await scope.getByRole('combobox', { name: label }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
  }

  it('shows the environments beside their folders, and passes the accessibility checks', async () => {
    await api('POST', '/api/logging/environments', { name: 'listed-env', description: 'Shown in the list' });
    const { page, problems } = await openLogging();
    await page.getByRole('heading', { name: 'Logging' }).waitFor();
    await page.getByRole('table', { name: 'Environments' }).getByText('listed-env').waitFor();
    await page.getByRole('navigation', { name: 'Environment folders' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'logging');
    expect(problems).toEqual([]);
  });

  it('creates an environment with its ingest settings, which the API then lists', async () => {
    const { page } = await openLogging();
    await page.getByRole('button', { name: 'Create environment' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create an environment' });
    await dialog.getByLabel('Name').fill('browser-env');
    await dialog.getByLabel('Retention (days)').fill('14');
    await dialog.getByLabel('Most records per request').fill('500');
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'logging-create-environment');
    await dialog.getByRole('button', { name: 'Create environment' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const [created] = await api('GET', '/api/logging/environments?q=browser-env');
    expect(created).toMatchObject({ name: 'browser-env', retentionDays: 14, ingest: { maxRecords: 500 } });
  });

  it('refuses to move a folder under its own child, showing the reason, and changes nothing', async () => {
    const parent = await api('POST', '/api/logging/environment-folders', { name: 'cycle-parent' });
    await api('POST', '/api/logging/environment-folders', { name: 'cycle-child', parentId: parent.id });
    const { page } = await openLogging();
    await page.getByRole('button', { name: 'Move cycle-parent' }).click();
    const dialog = page.getByRole('dialog', { name: 'Move cycle-parent' });
    await chooseOption(page, dialog, 'New parent folder', 'cycle-parent / cycle-child');
    await dialog.getByRole('button', { name: 'Move' }).click();
    await dialog
      .getByRole('alert')
      .getByText(/cannot be moved under one of its descendants/)
      .waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    expect((await folder(parent.id)).parentId).toBeNull();
  });

  it('moves a folder by dragging it onto another', async () => {
    const target = await api('POST', '/api/logging/environment-folders', { name: 'drop-target' });
    const dragged = await api('POST', '/api/logging/environment-folders', { name: 'dragged' });
    const { page } = await openLogging();
    const tree = page.getByRole('navigation', { name: 'Environment folders' });
    await tree
      .getByRole('button', { name: 'dragged', exact: true })
      .dragTo(tree.getByRole('button', { name: 'drop-target', exact: true }));
    await tree
      .getByRole('button', { name: 'drop-target / dragged' })
      .or(page.getByText('Moved dragged.'))
      .first()
      .waitFor();
    await expect.poll(async () => (await folder(dragged.id)).parentId).toBe(target.id);
  });

  it('moves an environment into a folder with its Move button', async () => {
    const target = await api('POST', '/api/logging/environment-folders', { name: 'env-home' });
    const environment = await api('POST', '/api/logging/environments', { name: 'to-move' });
    const { page } = await openLogging('/logging?q=to-move');
    await page.getByRole('button', { name: 'Move to-move' }).click();
    const dialog = page.getByRole('dialog', { name: 'Move to-move' });
    await chooseOption(page, dialog, 'Folder', 'env-home');
    await dialog.getByRole('button', { name: 'Move' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await api('GET', `/api/logging/environments/${environment.id}`)).folderId).toBe(target.id);
  });

  it('creates a schema with fields, which the API then shows', async () => {
    const { page } = await openLogging('/logging/schemas');
    await page.getByRole('button', { name: 'Create schema' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create a schema' });
    await dialog.getByLabel('Name', { exact: true }).fill('access-log');
    await dialog.getByLabel('Field 1 name').fill('route');
    await dialog.getByRole('checkbox', { name: 'Field 1 required' }).check();
    await dialog.getByRole('button', { name: 'Add field' }).click();
    await dialog.getByLabel('Field 2 name').fill('latencyMs');
    await chooseOption(page, dialog, 'Field 2 type', 'number');
    expect(await accessibilityViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Create schema' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const [schema] = await api('GET', '/api/logging/schemas?q=access-log');
    expect(schema.fields).toEqual([
      { name: 'route', type: 'string', required: true },
      { name: 'latencyMs', type: 'number', required: false },
    ]);
    await page.getByRole('table', { name: 'Schemas' }).getByText('access-log').waitFor();
    await screenshot(page, 'logging-schemas');
  });

  it('creates an ingest token shown once, whose records the search then finds, and tails new ones', async () => {
    const environment = await api('POST', '/api/logging/environments', { name: 'searched-env' });
    const { page } = await openLogging(`/logging/environments/${environment.id}/tokens`);
    await page.getByRole('button', { name: 'Create ingest token' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create an ingest token' });
    await dialog.getByLabel('Name').fill('api-servers');
    await dialog.getByRole('button', { name: 'Create token' }).click();
    const shown = page.getByRole('dialog', { name: 'Your new ingest token' });
    const secret = await shown.getByText(/^igl_/).textContent();
    expect(await accessibilityViolations(page)).toEqual([]);
    await shown.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('table', { name: 'Ingest tokens' }).getByText('api-servers').waitFor();

    const ingest = (message: string) =>
      harness.gateway.call('POST', '/api/logging/ingest', {
        token: secret,
        body: { level: 'error', service: 'payments', message, fields: { route: '/pay' } },
      });
    expect((await ingest('upstream timeout at the bank')).body.data).toMatchObject({ accepted: 1 });

    await page.getByRole('tab', { name: 'Records' }).click();
    await page.getByRole('searchbox', { name: 'Search messages' }).fill('bank');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const records = page.getByRole('table', { name: 'Log records' });
    await records.getByText('upstream timeout at the bank').waitFor();
    const services = page.getByRole('region', { name: 'Services' });
    await services.getByRole('button', { name: 'payments' }).waitFor();
    await services.getByText('1', { exact: true }).waitFor();
    await page.getByRole('img', { name: /^1 record in this range/ }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByRole('switch', { name: 'Live tail' }).check();
    await page
      .getByRole('status')
      .getByText(/Listening/)
      .waitFor();
    await ingest('second call to the bank');
    await records.getByText('second call to the bank').waitFor();
    await screenshot(page, 'logging-records');
  });

  /** A new environment and a function that ingests records into it with its own token. */
  async function environmentWithRecords(name: string) {
    const environment = await api('POST', '/api/logging/environments', { name });
    const { token } = await api('POST', `/api/logging/environments/${environment.id}/tokens`, {
      name: 'test',
    });
    const ingest = async (records: Record<string, unknown>[]) => {
      const answer = await harness.gateway.call('POST', '/api/logging/ingest', { token, body: records });
      expect(answer.body.data, JSON.stringify(answer.body)).toMatchObject({ accepted: records.length });
    };
    return { environment, ingest };
  }

  /** Opens an environment's records; answers the page and the records table. */
  async function openRecords(environmentId: string) {
    const { page } = await openLogging(`/logging/environments/${environmentId}`);
    const records = page.getByRole('table', { name: 'Log records' });
    await records.waitFor();
    return { page, records };
  }

  const messagesIn = (records: ReturnType<Page['getByRole']>) =>
    records.getByRole('row').filter({ has: records.page().getByRole('cell') });

  it('filters the records by level', async () => {
    const { environment, ingest } = await environmentWithRecords('levels-env');
    await ingest([
      { level: 'info', message: 'all is well' },
      { level: 'error', message: 'the disk is full' },
    ]);
    const { page, records } = await openRecords(environment.id);
    await records.getByText('all is well').waitFor();
    await page.getByRole('combobox', { name: 'Levels' }).click();
    await page.getByRole('option', { name: 'error', exact: true }).click();
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await records.getByText('all is well').waitFor({ state: 'detached' });
    await records.getByText('the disk is full').waitFor();
    await expect.poll(() => messagesIn(records).count()).toBe(1);
  });

  it('filters the records by a field, written as name=value', async () => {
    const { environment, ingest } = await environmentWithRecords('field-filter-env');
    await ingest([
      { message: 'paid', fields: { route: '/pay' } },
      { message: 'browsed', fields: { route: '/shop' } },
    ]);
    const { page, records } = await openRecords(environment.id);
    await records.getByText('browsed').waitFor();
    const fields = page.getByRole('combobox', { name: 'Field filters' });
    await fields.fill('route=/pay');
    await fields.press('Enter');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await records.getByText('browsed').waitFor({ state: 'detached' });
    await records.getByText('paid').waitFor();
  });

  it('counts the records per value of a field chosen by name, and searches for a value chosen there', async () => {
    const { environment, ingest } = await environmentWithRecords('field-facet-env');
    await ingest([
      { message: 'first payment', fields: { route: '/pay' } },
      { message: 'second payment', fields: { route: '/pay' } },
      { message: 'a look around', fields: { route: '/shop' } },
    ]);
    const { page, records } = await openRecords(environment.id);
    await page.getByRole('textbox', { name: 'Count by field' }).fill('route');
    await page.getByRole('button', { name: 'Count', exact: true }).click();
    const counts = page.getByRole('region', { name: 'Field route' });
    await counts.getByRole('button', { name: '/pay' }).waitFor();
    await counts.getByLabel('2 records').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await counts.getByRole('button', { name: '/shop' }).click();
    await records.getByText('first payment').waitFor({ state: 'detached' });
    await records.getByText('a look around').waitFor();
  });

  it('shows only the records of the chosen time range', async () => {
    const { environment, ingest } = await environmentWithRecords('range-env');
    await ingest([
      { message: 'from two hours ago', timestamp: new Date(Date.now() - 2 * 3_600_000).toISOString() },
      { message: 'from just now' },
    ]);
    const { page, records } = await openRecords(environment.id);
    await records.getByText('from two hours ago').waitFor();
    await chooseOption(page, page.getByRole('main'), 'Time range', 'Last hour');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await records.getByText('from two hours ago').waitFor({ state: 'detached' });
    await records.getByText('from just now').waitFor();
  });

  it('holds the records that arrive while the tail is paused, says how many, and shows them on resume', async () => {
    const { environment, ingest } = await environmentWithRecords('paused-env');
    await ingest([{ message: 'before the tail' }]);
    const { page, records } = await openRecords(environment.id);
    await records.getByText('before the tail').waitFor();
    await page.getByRole('switch', { name: 'Live tail' }).check();
    const status = page.getByRole('status').filter({ hasText: /Listening|Paused|Connecting/ });
    await status.getByText(/Listening/).waitFor();
    await page.getByRole('button', { name: 'Pause' }).click();
    await ingest([{ message: 'sent while paused' }, { message: 'also sent while paused' }]);
    await status.getByText('Paused; 2 new records').waitFor();
    expect(await records.getByText('sent while paused').count()).toBe(0);
    await screenshot(page, 'logging-tail-paused');
    await page.getByRole('button', { name: 'Resume' }).click();
    await records.getByText('also sent while paused').waitFor();
    await records.getByText('sent while paused', { exact: true }).waitFor();
    await status.getByText(/Listening/).waitFor();
  });

  it('pages back through older records with "Show older records"', async () => {
    const { environment, ingest } = await environmentWithRecords('paging-env');
    const start = Date.now() - 60 * 60_000;
    await ingest(
      Array.from({ length: 60 }, (_, index) => ({
        message: `record number ${index}`,
        timestamp: new Date(start + index * 1000).toISOString(),
      })),
    );
    const { page, records } = await openRecords(environment.id);
    await records.getByText('record number 59', { exact: true }).waitFor();
    await expect.poll(() => messagesIn(records).count()).toBe(50);
    expect(await records.getByText('record number 0', { exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Show older records' }).click();
    await records.getByText('record number 0', { exact: true }).waitFor();
    await expect.poll(() => messagesIn(records).count()).toBe(60);
    await page.getByRole('button', { name: 'Show older records' }).waitFor({ state: 'detached' });
  });

  it('revokes an ingest token after confirming, which the API then shows', async () => {
    const environment = await api('POST', '/api/logging/environments', { name: 'revoke-env' });
    await api('POST', `/api/logging/environments/${environment.id}/tokens`, { name: 'old-sender' });
    const { page } = await openLogging(`/logging/environments/${environment.id}/tokens`);
    await page.getByRole('button', { name: 'Revoke token old-sender' }).click();
    await page
      .getByRole('dialog', { name: 'Revoke the token old-sender?' })
      .getByRole('button', { name: 'Revoke' })
      .click();
    await expect
      .poll(async () => (await api('GET', `/api/logging/environments/${environment.id}/tokens`))[0].revokedAt)
      .not.toBeNull();
  });

  it('fits a phone screen: the lists do not scroll sideways', async () => {
    const { page } = await openLogging('/logging', PHONE);
    await page.getByRole('table', { name: 'Environments' }).waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await screenshot(page, 'logging-phone');
  });

  it('is not offered to a user without a logging scope', async () => {
    const outsider = await harness.createUser(['audit:view']);
    const { page } = await harness.open('/');
    await signIn(page, outsider);
    const nav = page.getByRole('navigation').first();
    await nav
      .getByRole('link', { name: 'Audit' })
      .or(nav.getByRole('link', { name: 'Account' }))
      .first()
      .waitFor();
    expect(await nav.getByRole('link', { name: 'Logging' }).count()).toBe(0);
  });
});
