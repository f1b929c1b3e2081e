import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  accessibilityViolations,
  type ConsoleHarness,
  type ConsoleUser,
  DESKTOP,
  describeInBrowser,
  PHONE,
  startConsole,
} from '../support/console.js';

/** The badges of the page whose text does not fit them (scrollWidth beyond clientWidth): `IN…`. */
function clippedBadges(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const { document } = globalThis as unknown as {
      document: {
        querySelectorAll(
          selector: string,
        ): Iterable<{ scrollWidth: number; clientWidth: number; textContent: string | null }>;
      };
    };
    return [...document.querySelectorAll('.mantine-Badge-root, .mantine-Badge-label')]
      .filter((element) => element.scrollWidth > element.clientWidth)
      .map((element) => element.textContent ?? '');
  });
}

describeInBrowser('forms and tables of the console', () => {
  let harness: ConsoleHarness;
  let admin: ConsoleUser;
  beforeAll(async () => {
    harness = await startConsole();
    admin = await harness.createUser(['*']);
  });
  afterAll(() => harness?.close());

  it('shows a refused nested rule filter next to its field, in words', async () => {
    // Without audit:view the destinations cannot be listed, so the filter asks for the id typed in.
    const notifier = await harness.createUser(['notifications:manage']);
    const { page } = await harness.openSignedIn(notifier, '/notifications/rules');
    await page.getByRole('button', { name: 'Create rule' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create a rule' });
    await dialog.getByLabel('Name', { exact: true }).fill('siem trouble');
    await dialog.getByRole('combobox', { name: 'Event' }).click();
    await page.getByRole('option', { name: 'siem.delivery.failed' }).click();
    const destination = dialog.getByRole('textbox', { name: 'SIEM destination id' });
    await destination.fill('not-an-id');
    await dialog.getByRole('button', { name: 'Create rule' }).click();
    const message = dialog.getByText(/^SIEM destination must be an id \(a UUID/);
    await message.waitFor();
    await expect(destination.getAttribute('aria-describedby')).resolves.toContain(
      await message.getAttribute('id'),
    );
    expect(await dialog.textContent()).not.toMatch(/must match|must NOT|format "uuid"|validation failed/);
  });

  it('names the target of an audit event and links to its page', async () => {
    const created = await harness.gateway.call('POST', '/api/admin/users', {
      body: { email: 'audited@test', name: 'Audited', group: 'admins' },
    });
    expect(created.status).toBe(201);
    const { page } = await harness.openSignedIn(admin, '/audit?action=users.user.created');
    const target = page
      .getByRole('table', { name: 'Audit events' })
      .getByRole('link', { name: 'audited@test' });
    await expect(target.getAttribute('href')).resolves.toBe('/users?q=audited%40test');
  });

  it('offers the way back to the list for a record that does not exist', async () => {
    const { page } = await harness.openSignedIn(admin, '/databases/0b5c6f3e-1d2a-4c8b-9e7f-112233445566');
    const notice = page.getByRole('alert').filter({ hasText: 'This does not exist' });
    await expect(notice.getByRole('link', { name: 'Back to the list' }).getAttribute('href')).resolves.toBe(
      '/databases',
    );
    expect(await notice.getByRole('button', { name: 'Try again' }).count()).toBe(0);
  });

  for (const [name, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`cuts no badge on the audit, overview and inference pages (${name})`, async () => {
      const { page } = await harness.openSignedIn(admin, '/audit', viewport);
      for (const [path, heading] of [
        ['/audit', 'Audit'],
        ['/overview', 'Overview'],
        ['/inference', 'Inference'],
      ] as const) {
        await page.goto(path);
        await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
        await page.waitForLoadState('networkidle');
        expect(await clippedBadges(page), path).toEqual([]);
        if (name === 'desktop') expect(await accessibilityViolations(page), path).toEqual([]);
      }
    });
  }
});
