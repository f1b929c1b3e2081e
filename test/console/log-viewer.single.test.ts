import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  accessibilityViolations,
  type ConsoleHarness,
  type ConsoleUser,
  DESKTOP,
  describeInBrowser,
  PHONE,
  screenshot,
  scrollsSideways,
  startConsole,
} from '../support/console.js';

// The records view as a log viewer: one line per record, its fields as a table to filter from, the
// search in the address, and the histogram as a chart to zoom with.
describeInBrowser('the log viewer', () => {
  let harness: ConsoleHarness;
  let operator: ConsoleUser;
  beforeAll(async () => {
    harness = await startConsole();
    operator = await harness.createUser(['logging:manage']);
  });
  afterAll(() => harness?.close());

  const api = async (method: string, url: string, body?: unknown) => {
    const answer = await harness.gateway.call(method, url, body === undefined ? {} : { body });
    expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
    return answer.body.data;
  };

  /** A new environment holding `records`, ingested with a token of its own. */
  async function environmentWith(name: string, records: Record<string, unknown>[]) {
    const environment = await api('POST', '/api/logging/environments', { name });
    const { token } = await api('POST', `/api/logging/environments/${environment.id}/tokens`, {
      name: 'test',
    });
    const answer = await harness.gateway.call('POST', '/api/logging/ingest', { token, body: records });
    expect(answer.body.data, JSON.stringify(answer.body)).toMatchObject({ accepted: records.length });
    return environment.id as string;
  }

  async function openRecords(environmentId: string, query = '', viewport = DESKTOP) {
    const { page, problems } = await harness.openSignedIn(
      operator,
      `/logging/environments/${environmentId}${query}`,
      viewport,
    );
    const records = page.getByRole('table', { name: 'Log records' });
    await records.waitFor();
    return { page, problems, records };
  }

  const ago = (minutes: number, extraMs = 0) =>
    new Date(Date.now() - minutes * 60_000 + extraMs).toISOString();
  const lineOf = (records: ReturnType<Page['getByRole']>, message: string) =>
    records.getByRole('row').filter({ hasText: message });

  const dateInput = (page: Page, name: 'From' | 'To') => page.getByRole('textbox', { name, exact: true });

  /** Whether each level's word shows whole: neither its badge nor the badge's cell cuts it off. */
  const levelsWhole = (records: ReturnType<Page['getByRole']>, levels: string[]) =>
    Promise.all(
      levels.map((level) =>
        records.getByText(level, { exact: true }).evaluate((badge) => {
          const fits = (box: { scrollWidth: number; clientWidth: number }) =>
            box.scrollWidth <= box.clientWidth;
          return fits(badge) && fits(badge.parentElement!);
        }),
      ),
    );

  it('shows one line per record with its time to the millisecond, the exact time and zone on hover, and whole level words', async () => {
    const at = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 3 * 60_000 + 7_045).toISOString();
    const environmentId = await environmentWith('lines-env', [
      { timestamp: at, level: 'debug', service: 'payments', message: 'cache warmed for the bank' },
      { level: 'fatal', service: 'payments', message: 'the ledger is unreachable' },
      { level: 'info', service: 'web', message: 'served /pay in 12 ms' },
      { level: 'warn', service: 'web', message: 'slow answer from the bank' },
    ]);
    for (const viewport of [DESKTOP, PHONE]) {
      const { page, problems, records } = await openRecords(environmentId, '', viewport);
      const time = lineOf(records, 'cache warmed').locator('time');
      await expect.poll(() => time.textContent()).toMatch(/\d{2}:\d{2}:07\.045$/);
      expect(await time.getAttribute('title')).toMatch(
        /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:07\.045 UTC[+-]\d{2}:\d{2} \(/,
      );
      expect(await levelsWhole(records, ['debug', 'fatal', 'info', 'warn'])).toEqual([
        true,
        true,
        true,
        true,
      ]);
      expect(await scrollsSideways(page)).toBe(false);
      if (viewport === DESKTOP) expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, viewport === DESKTOP ? 'log-viewer-records' : 'log-viewer-records-phone');
      expect(problems).toEqual([]);
      await page.context().close();
    }
  });

  it("opens a record's values as a table, and excludes or filters on one of them", async () => {
    const environmentId = await environmentWith('fields-env', [
      { message: 'paid the order', fields: { route: '/pay', attempt: 3, cart: { items: 2 } } },
      { message: 'browsed the shop', fields: { route: '/shop' } },
      { message: 'no route at all' },
    ]);
    const { page, records } = await openRecords(environmentId);
    await lineOf(records, 'paid the order')
      .getByRole('button', { name: /^Details of the record/ })
      .click();
    const fields = records.getByRole('table', { name: 'Fields of the record' });
    await fields.getByRole('row', { name: /attempt 3/ }).waitFor();
    await fields.getByRole('row', { name: /cart \{"items":2\}/ }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'log-viewer-fields');

    await fields.getByRole('button', { name: 'Exclude this: route = /pay' }).click();
    await records.getByText('paid the order').waitFor({ state: 'detached' });
    await records.getByText('browsed the shop').waitFor();
    await records.getByText('no route at all').waitFor();
    expect(new URL(page.url()).searchParams.getAll('not')).toEqual(['route=/pay']);

    await lineOf(records, 'browsed the shop')
      .getByRole('button', { name: /^Details of the record/ })
      .click();
    await fields.getByRole('button', { name: 'Filter on this: route = /shop' }).click();
    await records.getByText('no route at all').waitFor({ state: 'detached' });
    await records.getByText('browsed the shop').waitFor();
    expect(new URL(page.url()).searchParams.getAll('field')).toEqual(['route=/shop']);
  });

  it('searches as you type and keeps the whole search in the address, so a reload shows the same; a range it cannot search is marked not applied', async () => {
    const environmentId = await environmentWith('address-env', [
      { level: 'error', service: 'payments', message: 'bank timeout', fields: { region: 'eu' } },
      { level: 'error', service: 'payments', message: 'bank timeout', fields: { region: 'us' } },
      { level: 'info', service: 'payments', message: 'bank answered' },
    ]);
    const { page, records } = await openRecords(environmentId);
    await page.getByRole('searchbox', { name: 'Search messages' }).fill('timeout');
    const excluded = page.getByRole('combobox', { name: 'Excluded field values' });
    await excluded.fill('region=us');
    await excluded.press('Enter');
    await page.getByRole('textbox', { name: 'Service' }).fill('payments');
    // No Search button pressed: the search follows once typing pauses, and says when it does.
    const status = page.getByRole('status').filter({ hasText: /filters|applied/ });
    await status.getByText('Showing these filters').waitFor();
    await expect.poll(() => lineOf(records, 'bank timeout').count()).toBe(1);
    const address = new URL(page.url()).searchParams;
    expect(Object.fromEntries(address)).toEqual({ q: 'timeout', service: 'payments', not: 'region=us' });

    await page.reload();
    await page.getByRole('table', { name: 'Log records' }).getByText('bank timeout').waitFor();
    expect(await page.getByRole('searchbox', { name: 'Search messages' }).inputValue()).toBe('timeout');
    expect(await page.getByRole('textbox', { name: 'Service' }).inputValue()).toBe('payments');
    await page.getByText('region=us').waitFor();
    await expect.poll(() => lineOf(page.getByRole('table', { name: 'Log records' }), 'bank').count()).toBe(1);

    // A custom range that cannot be searched is kept in the bar, marked, and not searched.
    await page.getByRole('combobox', { name: 'Time range' }).click();
    await page.getByRole('option', { name: 'Custom range' }).click();
    await dateInput(page, 'From').fill('2026-11-30T14:07:00');
    await dateInput(page, 'To').fill('2026-11-30T14:02:00');
    await page.getByRole('status').getByText('Not applied: From must be before To.').waitFor();
    expect(new URL(page.url()).searchParams.get('from')).toBeNull();
  });

  it('draws the histogram as a chart, tells a bar’s range and count on hover, and narrows the search to a dragged range', async () => {
    const environmentId = await environmentWith('histogram-env', [
      { timestamp: ago(50), level: 'error', message: 'early failure' },
      { timestamp: ago(50), level: 'info', message: 'early success' },
      { timestamp: ago(5), level: 'warn', message: 'late warning' },
    ]);
    const { page, records } = await openRecords(environmentId, '?range=1h');
    await records.getByText('late warning').waitFor();
    const chart = page.getByRole('img', { name: /^3 records in this range, in 1-minute buckets/ });
    const box = (await chart.boundingBox())!;
    // The hour is about 61 one-minute buckets: the early records are about a sixth of the way in.
    const early = box.x + box.width * (10.5 / 61);
    await page.mouse.move(early, box.y + box.height - 5);
    const hover = page.getByRole('tooltip');
    await hover.getByText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:00 – \d{2}:\d{2}:00$/).waitFor();
    await hover.getByText('2 records').waitFor();
    await hover.getByText(/1 error, 1 info/).waitFor();
    await screenshot(page, 'log-viewer-histogram');

    await page.mouse.move(box.x + 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await records.getByText('late warning').waitFor({ state: 'detached' });
    await records.getByText('early failure').waitFor();
    const address = new URL(page.url()).searchParams;
    const from = Date.parse(address.get('from')!);
    const to = Date.parse(address.get('to')!);
    expect(to - from).toBeLessThan(25 * 60_000);
    expect(to - from).toBeGreaterThan(10 * 60_000);
    expect(await dateInput(page, 'From').inputValue()).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:00)?$/);
    await page.getByRole('img', { name: /^2 records in this range/ }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
  });
});
