import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { issueToken } from '../../src/core/auth/tokens.js';
import { users } from '../../src/db/schema/index.js';
import {
  accessibilityViolations,
  type ConsoleHarness,
  type ConsoleUser,
  clickAndConfirm,
  describeInBrowser,
  PHONE,
  screenshot,
  scrollsSideways,
  startConsole,
} from '../support/console.js';

describeInBrowser('the Account page', () => {
  let harness: ConsoleHarness;
  beforeAll(async () => {
    harness = await startConsole();
  });
  afterAll(() => harness?.close());

  async function openAccount(user: ConsoleUser, viewport?: { width: number; height: number }) {
    const opened = await harness.openSignedIn(user, '/account', viewport);
    await opened.page.getByRole('heading', { name: 'My account' }).waitFor();
    return opened;
  }

  /** Opens the "Create an API token" dialog of the Account page. */
  async function openNewToken(page: Page) {
    await page.getByRole('button', { name: 'Create token' }).click();
    return page.getByRole('dialog', { name: 'Create an API token' });
  }

  /** Fills the new-token dialog with a name and the scopes to narrow the token to, and sends it. */
  async function createNarrowedToken(page: Page, name: string, scopes: string[]) {
    const dialog = await openNewToken(page);
    await dialog.getByLabel('Name').fill(name);
    const box = dialog.getByRole('combobox', { name: 'Scopes' });
    for (const scope of scopes) {
      await box.fill(scope);
      await box.press('Enter');
    }
    await box.press('Tab');
    await dialog.getByRole('button', { name: 'Create token' }).click();
    return dialog;
  }

  /** The user's own view through the API, with a token made outside the browser. */
  async function apiAs(user: ConsoleUser) {
    const [row] = await harness.gateway.deps.db.select().from(users).where(eq(users.email, user.email));
    const { token } = await issueToken(harness.gateway.deps.db, {
      userId: row!.id,
      kind: 'api',
      name: 'outside the browser',
      expiresAt: null,
    });
    return (path: string) => harness.gateway.call('GET', path, { token });
  }

  it('shows my profile, sessions and tokens, and passes the accessibility checks', async () => {
    const user = await harness.createUser(['logging:view']);
    const { page, problems } = await openAccount(user);
    await page.getByText(user.email).first().waitFor();
    await page.getByRole('table', { name: 'Sessions' }).getByText('This browser').waitFor();
    await page.getByText('logging:view').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'account');
    expect(problems).toEqual([]);
  });

  it('reloads by itself when code the page needs fails to arrive, as when the network changed', async () => {
    const user = await harness.createUser([]);
    const { page, problems } = await harness.openSignedIn(user, '/');
    const account = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' });
    await account.waitFor();
    // Every request for a module the Account page imports fails until the tab loads again, as
    // Chromium fails the requests in flight when a network interface comes or goes
    // (net::ERR_NETWORK_CHANGED, seen while a container engine on the same host adds one).
    let reloads = 0;
    page.on('load', () => reloads++);
    await page.route('**/assets/Section-*.js', (route) =>
      reloads === 0 ? route.abort('internetdisconnected') : route.continue(),
    );
    await account.click();
    await page.getByRole('heading', { name: 'My account' }).waitFor();
    expect(reloads).toBe(1);
    expect(problems).toEqual([]);
  });

  it('creates an API token, shows it once, and the token works against the API', async () => {
    const user = await harness.createUser([]);
    const { page } = await openAccount(user);
    const dialog = await openNewToken(page);
    await dialog.getByLabel('Name').fill('ci-deploy');
    await dialog.getByRole('button', { name: 'Create token' }).click();
    const shown = page.getByRole('dialog', { name: 'Your new API token' });
    const token = (await shown.getByText(/^igw_/).textContent())!;
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'account-token-created');
    const me = await harness.gateway.call('GET', '/auth/me', { token });
    expect(me.body.data.email).toBe(user.email);
    await shown.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('table', { name: 'API tokens' }).getByText('ci-deploy').waitFor();
    expect(await page.getByText(token).count()).toBe(0);
  });

  it('creates an API token that expires after the days given', async () => {
    const user = await harness.createUser([]);
    const { page } = await openAccount(user);
    const dialog = await openNewToken(page);
    await dialog.getByLabel('Name').fill('short-lived');
    await dialog.getByLabel('Expires in days').fill('7');
    await dialog.getByRole('button', { name: 'Create token' }).click();
    await page
      .getByRole('dialog', { name: 'Your new API token' })
      .getByRole('button', { name: 'Done' })
      .click();
    const row = page.getByRole('table', { name: 'API tokens' }).getByRole('row', { name: /short-lived/ });
    await row.waitFor();
    expect(await row.getByText('Never').count()).toBe(0);
    const get = await apiAs(user);
    const tokens = (await get('/auth/tokens')).body.data as { name: string; expiresAt: string | null }[];
    const expiresAt = Date.parse(tokens.find((token) => token.name === 'short-lived')!.expiresAt!);
    const inSevenDays = Date.now() + 7 * 86_400_000;
    // Within the hour around seven days from now: the token was made moments ago.
    expect(Math.abs(expiresAt - inSevenDays)).toBeLessThan(3_600_000);
  });

  it('creates an API token narrowed to the scopes I choose, and lists them', async () => {
    const user = await harness.createUser(['logging:*', 'audit:view']);
    const { page } = await openAccount(user);
    await createNarrowedToken(page, 'log-reader', ['logging:view']);
    const shown = page.getByRole('dialog', { name: 'Your new API token' });
    const token = (await shown.getByText(/^igw_/).textContent())!;
    const me = await harness.gateway.call('GET', '/auth/me', { token });
    expect(me.body.data.scopes).toEqual(['logging:view']);
    await shown.getByRole('button', { name: 'Done' }).click();
    const row = page.getByRole('table', { name: 'API tokens' }).getByRole('row', { name: /log-reader/ });
    await row.getByText('logging:view').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'account-token-scopes');
  });

  it('offers only scopes I hold for a new token', async () => {
    const user = await harness.createUser(['logging:*']);
    const { page } = await openAccount(user);
    const dialog = await openNewToken(page);
    await dialog.getByRole('combobox', { name: 'Scopes' }).click();
    await page.getByRole('option', { name: 'logging:view' }).waitFor();
    expect(await page.getByRole('option', { name: 'audit:view' }).count()).toBe(0);
    expect(await page.getByRole('option', { name: '*', exact: true }).count()).toBe(0);
  });

  it('refuses a scope I do not hold for a new token, naming it, and makes no token', async () => {
    const user = await harness.createUser(['logging:view']);
    const { page } = await openAccount(user);
    const dialog = await createNarrowedToken(page, 'too-wide', ['audit:view']);
    await dialog
      .getByRole('alert')
      .getByText(/not held: audit:view/)
      .waitFor();
    const get = await apiAs(user);
    const names = (await get('/auth/tokens')).body.data.map((token: { name: string }) => token.name);
    expect(names).not.toContain('too-wide');
  });

  it('lists a token made without scopes as carrying all of mine', async () => {
    const user = await harness.createUser(['logging:view']);
    await apiAs(user);
    const { page } = await openAccount(user);
    const row = page
      .getByRole('table', { name: 'API tokens' })
      .getByRole('row', { name: /outside the browser/ });
    await row.getByText('All of mine').waitFor();
  });

  it('fits a phone screen: profile, sessions and tokens without scrolling sideways', async () => {
    const user = await harness.createUser(['logging:view']);
    const { page } = await openAccount(user, PHONE);
    await page.getByRole('table', { name: 'Sessions' }).getByText('This browser').waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'account-phone');
  });

  it("keeps making changes after a reload (the session's CSRF token is fetched again)", async () => {
    const user = await harness.createUser([]);
    const { page } = await openAccount(user);
    await page.reload();
    const dialog = await openNewToken(page);
    await dialog.getByLabel('Name').fill('after-reload');
    await dialog.getByRole('button', { name: 'Create token' }).click();
    await page.getByRole('dialog', { name: 'Your new API token' }).waitFor();
    const get = await apiAs(user);
    expect((await get('/auth/tokens')).body.data.map((token: { name: string }) => token.name)).toContain(
      'after-reload',
    );
  });

  it('revokes a token after confirming, and the token stops working', async () => {
    const user = await harness.createUser([]);
    const get = await apiAs(user);
    const { page } = await openAccount(user);
    await clickAndConfirm(
      page,
      'Revoke token outside the browser',
      'Revoke the token outside the browser?',
      'Revoke',
    );
    await page.getByRole('table', { name: 'API tokens' }).waitFor({ state: 'detached' });
    expect((await get('/auth/me')).status).toBe(401);
  });

  it('revokes my other sessions: the API then lists only this one', async () => {
    const user = await harness.createUser([]);
    const elsewhere = await openAccount(user);
    const { page } = await openAccount(user);
    const get = await apiAs(user);
    expect((await get('/auth/me/sessions')).body.data).toHaveLength(2);
    await clickAndConfirm(page, 'Revoke other sessions', 'Revoke your other sessions?', 'Revoke');
    await page.getByText('Revoked 1 other session.').waitFor();
    expect((await get('/auth/me/sessions')).body.data).toHaveLength(1);
    await elsewhere.page.reload();
    await elsewhere.page.waitForURL('**/signin**');
  });
});
