import zlib from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { issueToken } from '../../src/core/auth/tokens.js';
import { users } from '../../src/db/schema/index.js';
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
  tabTo,
} from '../support/console.js';

const SIGN_IN_SCRIPT_BUDGET = 200 * 1024;

describeInBrowser('signing in to the console', () => {
  let harness: ConsoleHarness;
  let admin: ConsoleUser;
  beforeAll(async () => {
    harness = await startConsole();
    admin = await harness.createUser(['*']);
  });
  afterAll(() => harness?.close());

  /** An API token of `user`, to change their sessions from outside the browser. */
  async function apiTokenOf(user: ConsoleUser) {
    const [row] = await harness.gateway.deps.db.select().from(users).where(eq(users.email, user.email));
    return (
      await issueToken(harness.gateway.deps.db, {
        userId: row!.id,
        kind: 'api',
        name: 't',
        expiresAt: null,
      })
    ).token;
  }

  it('asks for Email and Password, and passes the accessibility checks', async () => {
    const { page, problems } = await harness.open('/');
    await page.waitForURL('**/signin');
    await page.getByLabel('Email').waitFor();
    await page.getByLabel('Password', { exact: true }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'sign-in');
    expect(problems).toEqual([]);
  });

  it(`loads at most ${SIGN_IN_SCRIPT_BUDGET / 1024} KB of JavaScript, gzipped`, async () => {
    const { page } = await harness.open();
    const scripts: Promise<number>[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script')
        scripts.push(response.body().then((body) => zlib.gzipSync(body).length));
    });
    await page.goto('/signin');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    const total = (await Promise.all(scripts)).reduce((sum, size) => sum + size, 0);
    expect(total).toBeGreaterThan(0);
    expect(total).toBeLessThanOrEqual(SIGN_IN_SCRIPT_BUDGET);
  });

  it('signs in with email and password and shows the areas of the user', async () => {
    const { page, problems } = await harness.open('/');
    await signIn(page, admin);
    await page.waitForURL('**/overview');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Users' }).waitFor();
    await nav.getByRole('link', { name: 'Account' }).waitFor();
    expect(problems).toEqual([]);
  });

  it("starts loading an area's page when the pointer rests on its link, before the click", async () => {
    const { page } = await harness.openSignedIn(admin, '/account');
    const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Certificates' });
    await link.waitFor();
    const pageCode = page.waitForRequest((request) =>
      /\/assets\/CertificatesPage-[^/]*\.js$/.test(request.url()),
    );
    await link.hover();
    await pageCode;
    expect(page.url()).toMatch(/\/account$/);
  });

  it('refuses a wrong password with a message and stays on sign-in', async () => {
    const { page } = await harness.open('/signin');
    await signIn(page, { email: admin.email, password: 'not the password' });
    await expect(page.getByRole('alert').textContent()).resolves.toContain(
      'The email or password is not correct.',
    );
    expect(new URL(page.url()).pathname).toBe('/signin');
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'sign-in-refused');
  });

  it('signs out back to sign-in with a message', async () => {
    const { page } = await harness.open('/account');
    await signIn(page, admin);
    await page.getByRole('heading', { name: 'My account' }).waitFor();
    await page.getByRole('button', { name: `Account menu of ${admin.email}` }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL('**/signin**');
    await expect(page.getByRole('status').textContent()).resolves.toBe('You are signed out.');
  });

  it('takes a deep link through sign-in to the page it named', async () => {
    const { page } = await harness.open('/users/groups');
    await page.waitForURL('**/signin?next=**');
    await signIn(page, admin);
    await page.waitForURL('**/users/groups');
    await expect(page.getByRole('tab', { name: 'Groups' }).getAttribute('aria-selected')).resolves.toBe(
      'true',
    );
  });

  it('returns to sign-in with a message when the session ends mid-way, and back to the page after', async () => {
    const user = await harness.createUser(['*']);
    const { page } = await harness.open('/account');
    await signIn(page, user);
    await page.getByRole('heading', { name: 'My account' }).waitFor();
    // Elsewhere, the user signs every browser out.
    const revoked = await harness.gateway.call('POST', '/auth/me/sessions/revoke-others', {
      token: await apiTokenOf(user),
    });
    expect(revoked.body.revoked).toBe(1);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
    await page.waitForURL('**/signin?**');
    await expect(page.getByRole('status').textContent()).resolves.toBe(
      'Your session has ended. Sign in again to continue.',
    );
    await signIn(page, user);
    await page.waitForURL('**/users');
  });

  it('shows a user whose group has no scopes no area, and says why', async () => {
    const nobody = await harness.createUser([]);
    const { page, problems } = await harness.open('/');
    await signIn(page, nobody);
    await page.getByRole('heading', { name: `Welcome, ${nobody.name}` }).waitFor();
    const links = await page.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents();
    expect(links).toEqual(['Account']);
    await page.getByText('No area is open to you yet').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'no-area');
    expect(problems).toEqual([]);
  });

  it('tells a user who opens an area beyond their scopes that they have no access', async () => {
    const viewer = await harness.createUser(['audit:view']);
    const { page } = await harness.open('/users');
    await signIn(page, viewer);
    await page.waitForURL('**/users');
    await expect(page.getByRole('alert').textContent()).resolves.toContain('You do not have access to Users');
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('shows a not-found page for an address the console does not have', async () => {
    const { page } = await harness.open('/no/such/page');
    await signIn(page, admin);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'not-found');
  });

  it('signs in with the keyboard alone', async () => {
    const { page } = await harness.open('/signin');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.type(admin.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(admin.password);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/overview');
  });

  it('shows a user with every scope each area, in the order of the navigation', async () => {
    expect(await harness.navigationFor(['*'])).toEqual([
      'Overview',
      'Containers',
      'Databases',
      'Logging',
      'Audit',
      'Certificates',
      'Pages',
      'Integrations',
      'Inference',
      'Nodes',
      'Notifications',
      'Users',
      'Account',
    ]);
  });

  it('goes to an area and fills and submits a form with the keyboard alone', async () => {
    const { page } = await harness.open('/signin');
    await signIn(page, admin);
    await page.waitForURL('**/overview');
    await tabTo(page, page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }));
    await page.keyboard.press('Enter');
    const usersTab = page.getByRole('tab', { name: 'Users' });
    await tabTo(page, usersTab);
    await page.keyboard.press('ArrowRight');
    await page.waitForURL('**/users/groups');
    await tabTo(page, page.getByRole('button', { name: 'Create group' }));
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Create a group' });
    await tabTo(page, dialog.getByRole('textbox', { name: 'Name' }));
    await page.keyboard.type('made-by-keyboard');
    await tabTo(page, dialog.getByRole('combobox', { name: 'Scopes' }));
    await page.keyboard.type('audit:view');
    await page.keyboard.press('Enter');
    await tabTo(page, dialog.getByRole('button', { name: 'Create group' }));
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    const groups = (await harness.gateway.call('GET', '/api/admin/groups')).body.data;
    expect(groups.find((group: { name: string }) => group.name === 'made-by-keyboard')?.scopes).toEqual([
      'audit:view',
    ]);
  });

  it('sends an idle page to sign-in with a message when its session ends, and back to the page after', async () => {
    const { config } = harness.gateway.deps;
    const lifetime = config.sessionTtlSeconds;
    const user = await harness.createUser(['*']);
    const { page } = await harness.open('/account');
    // Sessions started now end soon; the page then does nothing until it is sent to sign-in.
    config.sessionTtlSeconds = 8;
    try {
      await signIn(page, user);
      await page.getByRole('heading', { name: 'My account' }).waitFor();
    } finally {
      config.sessionTtlSeconds = lifetime;
    }
    await page.waitForURL('**/signin?**', { timeout: 60_000 });
    await expect(page.getByRole('status').textContent()).resolves.toBe(
      'Your session has ended. Sign in again to continue.',
    );
    await signIn(page, user);
    await page.waitForURL('**/account');
  }, 90_000);

  it('fits a phone screen without scrolling sideways', async () => {
    const { page } = await harness.open('/signin', PHONE);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await screenshot(page, 'sign-in-phone');
  });
});
