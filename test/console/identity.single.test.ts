import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { identityProviders } from '../../src/db/schema/index.js';
import { codeFor } from '../identity/helpers.js';
import { addProvider } from '../identity/oidc-helpers.js';
import { type OidcPeer, startOidcProvider } from '../services/oidc-provider.js';
import {
  accessibilityViolations,
  type ConsoleHarness,
  type ConsoleUser,
  clickAndConfirm,
  describeInBrowser,
  screenshot,
  signIn,
  startConsole,
} from '../support/console.js';

describeInBrowser('identity in the console: two-factor sign-in, password, single sign-on, lifecycle', () => {
  let harness: ConsoleHarness;
  let oidc: OidcPeer;
  beforeAll(async () => {
    harness = await startConsole();
    oidc = await startOidcProvider();
  });
  afterAll(async () => {
    await harness?.close();
    await oidc?.close();
  });

  async function openAccount(user: ConsoleUser) {
    const opened = await harness.open('/account');
    await signIn(opened.page, user);
    await opened.page.getByRole('heading', { name: 'My account' }).waitFor();
    return opened;
  }

  const userRecord = async (email: string) =>
    (await harness.gateway.call('GET', '/api/admin/users', { query: { q: email } })).body.data[0];

  it('sets up two-factor sign-in from a QR code, shows the recovery codes once, then asks for a code at sign-in', async () => {
    const user = await harness.createUser([]);
    const { page, problems } = await openAccount(user);
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const dialog = page.getByRole('dialog', { name: 'Turn on two-factor sign-in' });
    await dialog.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'account-two-factor');
    const secret = (await dialog.getByText(/^[A-Z2-7]{32}$/).textContent())!;
    await dialog.getByLabel('Authentication code').fill(await codeFor(secret));
    await dialog.getByRole('button', { name: 'Turn on' }).click();
    const codes = (await dialog.getByText(/^([a-z2-7]{4}-){3}[a-z2-7]{4}/).textContent())!.split('\n');
    expect(codes).toHaveLength(10);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.getByText('10 recovery codes left', { exact: false }).waitFor();
    expect((await userRecord(user.email)).totpEnabled).toBe(true);
    expect(problems).toEqual([]);

    const again = await harness.open('/account');
    await signIn(again.page, user);
    await again.page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    expect(await accessibilityViolations(again.page)).toEqual([]);
    await again.page.getByLabel('Authentication code').fill(await codeFor(secret, 1));
    await again.page.getByRole('button', { name: 'Verify' }).click();
    await again.page.getByRole('heading', { name: 'My account' }).waitFor();
  });

  it('signs in with a recovery code instead of the authenticator', async () => {
    const user = await harness.createUser([]);
    const { page } = await openAccount(user);
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const dialog = page.getByRole('dialog', { name: 'Turn on two-factor sign-in' });
    const secret = (await dialog.getByText(/^[A-Z2-7]{32}$/).textContent())!;
    await dialog.getByLabel('Authentication code').fill(await codeFor(secret));
    await dialog.getByRole('button', { name: 'Turn on' }).click();
    const [first] = (await dialog.getByText(/^([a-z2-7]{4}-){3}[a-z2-7]{4}/).textContent())!.split('\n');
    const again = await harness.open('/account');
    await signIn(again.page, user);
    await again.page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await again.page.getByLabel('Recovery code').fill(first!);
    await again.page.getByRole('button', { name: 'Verify' }).click();
    await again.page.getByRole('heading', { name: 'My account' }).waitFor();
  });

  it('makes a member of a group that requires it enrol at sign-in, then shows the recovery codes', async () => {
    const user = await harness.createUser([]);
    const { groupId } = await userRecord(user.email);
    await harness.gateway.call('PATCH', `/api/admin/groups/${groupId}`, { body: { requireMfa: true } });
    const { page, problems } = await harness.open('/account');
    await signIn(page, user);
    await page.getByRole('heading', { name: 'Set up two-factor sign-in' }).waitFor();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    const secret = (await page.getByText(/^[A-Z2-7]{32}$/).textContent())!;
    await page.getByLabel('Authentication code').fill(await codeFor(secret));
    await page.getByRole('button', { name: 'Turn on and sign in' }).click();
    await page.getByRole('heading', { name: 'Save your recovery codes' }).waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('heading', { name: 'My account' }).waitFor();
    expect((await userRecord(user.email)).totpEnabled).toBe(true);
    expect(problems).toEqual([]);
  });

  it('changes my own password, asked twice: the new one signs in', async () => {
    const user = await harness.createUser([]);
    const { page } = await openAccount(user);
    await page.getByLabel('Current password').fill(user.password);
    await page.getByLabel('New password', { exact: true }).fill('a brand new password');
    await page.getByLabel('Repeat the new password').fill('a brand new pasword');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('The two new passwords differ.').waitFor();
    await page.getByLabel('Repeat the new password').fill('a brand new password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed', { exact: false }).waitFor();
    const login = await harness.gateway.call('POST', '/auth/login', {
      token: null,
      body: { email: user.email, password: 'a brand new password' },
    });
    expect(login.status).toBe(200);
  });

  it('shows a wrong current password next to its field', async () => {
    const user = await harness.createUser([]);
    const { page } = await openAccount(user);
    await page.getByLabel('Current password').fill('not my password');
    await page.getByLabel('New password', { exact: true }).fill('a brand new password');
    await page.getByLabel('Repeat the new password').fill('a brand new password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('is not your current password').waitFor();
  });

  it('offers a button per single sign-on provider that starts the sign-in there', async () => {
    const provider = await addProvider(harness.gateway, oidc, { name: 'Corporate SSO' });
    const { page } = await harness.open('/signin?next=/account');
    const button = page.getByRole('link', { name: 'Sign in with Corporate SSO' });
    await button.waitFor();
    await expect(button.getAttribute('href')).resolves.toBe(
      `/auth/oidc/${provider.id}/start?next=%2Faccount`,
    );
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'sign-in-sso');
  });

  it('signs in through the provider in the browser and lands on the page asked for', async () => {
    // The redirect URI the gateway sends must be where this browser reaches it.
    harness.gateway.deps.config.publicUrl = harness.baseUrl;
    const user = await harness.createUser(['admin:users']);
    oidc.accounts.set('browser-person', { email: user.email, email_verified: true });
    await addProvider(harness.gateway, oidc, { name: 'Browser SSO' });
    const { page, problems } = await harness.open('/signin?next=/account');
    await page.getByRole('link', { name: 'Sign in with Browser SSO' }).click();
    await page.getByPlaceholder('Enter any login').fill('browser-person');
    await page.getByPlaceholder('and password').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'My account' }).waitFor();
    await page.getByText(user.email).first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/account');
    expect(problems).toEqual([]);
  });

  it('says in words why a single sign-on was refused', async () => {
    const { page } = await harness.open('/signin?sso=SSO_USER_DISABLED');
    await page.getByText('Your account is disabled.').waitFor();
  });

  it('deletes a user from the Users page', async () => {
    const admin = await harness.createUser(['admin:users']);
    const doomed = await harness.createUser([]);
    const { page } = await harness.open(`/users?q=${encodeURIComponent(doomed.email)}`);
    await signIn(page, admin);
    await page.getByRole('button', { name: `Edit ${doomed.email}` }).click();
    await page.getByRole('button', { name: 'Delete user' }).click();
    await page
      .getByRole('dialog', { name: `Delete ${doomed.email}?` })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page.getByText(`Deleted ${doomed.email}.`).waitFor();
    expect(await userRecord(doomed.email)).toBeUndefined();
  });

  it("resets a user's two-factor sign-in from the Users page", async () => {
    const admin = await harness.createUser(['admin:users']);
    const user = await harness.createUser([]);
    const login = await harness.gateway.call('POST', '/auth/login', {
      token: null,
      body: { email: user.email, password: user.password },
    });
    const token = login.body.data.token;
    const { secret } = (await harness.gateway.call('POST', '/auth/me/totp', { token })).body.data;
    await harness.gateway.call('POST', '/auth/me/totp/confirm', {
      token,
      body: { code: await codeFor(secret) },
    });
    const { page } = await harness.open(`/users?q=${encodeURIComponent(user.email)}`);
    await signIn(page, admin);
    await page.getByRole('button', { name: `Edit ${user.email}` }).click();
    await page.getByRole('button', { name: 'Reset two-factor sign-in' }).click();
    await page
      .getByRole('dialog', { name: `Reset the two-factor sign-in of ${user.email}?` })
      .getByRole('button', { name: 'Reset' })
      .click();
    await page.getByText(`Reset the two-factor sign-in of ${user.email}.`).waitFor();
    expect((await userRecord(user.email)).totpEnabled).toBe(false);
  });

  it('renames a group and deletes an empty one from the Users page', async () => {
    const admin = await harness.createUser(['admin:users']);
    await harness.gateway.call('POST', '/api/admin/groups', { body: { name: 'to-rename', scopes: [] } });
    const { page } = await harness.open('/users/groups');
    await signIn(page, admin);
    await page.getByRole('button', { name: 'Settings of to-rename' }).click();
    const dialog = page.getByRole('dialog', { name: 'Settings of to-rename' });
    expect(await accessibilityViolations(page)).toEqual([]);
    await dialog.getByLabel('Name').fill('renamed');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('row', { name: /renamed/ }).waitFor();
    await clickAndConfirm(page, 'Delete group renamed', 'Delete the group renamed?', 'Delete');
    await page.getByText('Deleted the group renamed.').waitFor();
    const groups = (await harness.gateway.call('GET', '/api/admin/groups')).body.data;
    expect(groups.map((group: { name: string }) => group.name)).not.toContain('renamed');
  });

  it("requires two-factor sign-in for a group's members from its settings", async () => {
    const admin = await harness.createUser(['admin:users']);
    const created = await harness.gateway.call('POST', '/api/admin/groups', {
      body: { name: 'strict-group', scopes: [] },
    });
    const { page } = await harness.open('/users/groups');
    await signIn(page, admin);
    await page.getByRole('button', { name: 'Settings of strict-group' }).click();
    const dialog = page.getByRole('dialog', { name: 'Settings of strict-group' });
    await dialog.getByRole('switch', { name: 'Require two-factor sign-in' }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page
      .getByRole('row', { name: /strict-group/ })
      .getByText('Required')
      .waitFor();
    const groups = (await harness.gateway.call('GET', '/api/admin/groups')).body.data;
    expect(groups.find((group: { id: string }) => group.id === created.body.data.id)?.requireMfa).toBe(true);
  });

  /** Opens the Identity providers tab as a new admin. */
  async function openProviders(path = '/users/identity-providers') {
    const admin = await harness.createUser(['admin:users']);
    const opened = await harness.open(path);
    await signIn(opened.page, admin);
    await opened.page.getByRole('tab', { name: 'Identity providers', selected: true }).waitFor();
    return opened;
  }

  /** Fills the "Add an identity provider" dialog for the oidc-provider peer (not submitted). */
  async function fillNewProvider(page: Page, name: string, issuer = oidc.issuer) {
    await page.getByRole('button', { name: 'Add identity provider' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add an identity provider' });
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('Issuer URL').fill(issuer);
    await dialog.getByLabel('Client ID').fill(oidc.sso.signIn);
    await dialog.getByLabel('Client secret').fill(oidc.sso.secretOf(oidc.sso.signIn));
    return dialog;
  }

  const storedProvider = async (id: string) =>
    (await harness.gateway.deps.db.select().from(identityProviders).where(eq(identityProviders.id, id)))[0]!;

  it('adds an identity provider, shows the redirect URI to register, and a new person signs in through it into the mapped group', async () => {
    // The redirect URI the gateway sends must be where this browser reaches it.
    harness.gateway.deps.config.publicUrl = harness.baseUrl;
    await harness.gateway.call('POST', '/api/admin/groups', { body: { name: 'sso-engineers', scopes: [] } });
    oidc.accounts.set('new-engineer', {
      email: 'new-engineer@test',
      email_verified: true,
      groups: ['engineers'],
    });
    const { page, problems } = await openProviders();
    const dialog = await fillNewProvider(page, 'Company directory');
    const scopes = dialog.getByRole('combobox', { name: 'Scopes' });
    await scopes.fill('groups');
    await scopes.press('Enter');
    await dialog.getByRole('switch', { name: 'Create accounts at their first sign-in' }).check();
    await dialog.getByLabel('Groups claim').fill('groups');
    await dialog.getByRole('button', { name: 'Add mapping' }).click();
    await dialog.getByLabel('Provider group 1').fill('engineers');
    await dialog.getByRole('combobox', { name: 'Gateway group 1' }).click();
    await page.getByRole('option', { name: 'sso-engineers' }).click();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'identity-provider-add');
    await dialog.getByRole('button', { name: 'Add provider' }).click();

    const added = page.getByRole('dialog', { name: 'Added Company directory' });
    await added.getByText(`${harness.baseUrl}/auth/oidc/callback`).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await added.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('table', { name: 'Identity providers' }).getByText('Company directory').waitFor();
    expect(await page.getByText(oidc.sso.secretOf(oidc.sso.signIn)).count()).toBe(0);
    await screenshot(page, 'identity-providers');
    expect(problems).toEqual([]);
    const listed = await harness.gateway.call('GET', '/api/admin/identity-providers', {
      query: { q: 'Company directory' },
    });
    expect(listed.body.data[0]).toMatchObject({
      issuer: oidc.issuer,
      scopes: ['openid', 'email', 'profile', 'groups'],
      groupMap: { engineers: 'sso-engineers' },
      autoCreateUsers: true,
    });

    const person = await harness.open('/signin?next=/account');
    await person.page.getByRole('link', { name: 'Sign in with Company directory' }).click();
    await person.page.getByPlaceholder('Enter any login').fill('new-engineer');
    await person.page.getByPlaceholder('and password').fill('any password');
    await person.page.getByRole('button', { name: 'Sign-in' }).click();
    await person.page.getByRole('button', { name: 'Continue' }).click();
    await person.page.getByRole('heading', { name: 'My account' }).waitFor();
    expect((await userRecord('new-engineer@test')).groupName).toBe('sso-engineers');
  });

  it('shows why an issuer was refused next to the Issuer URL field, and saves nothing', async () => {
    const { page } = await openProviders();
    // A loopback port nothing listens on once it is closed.
    const dialog = await fillNewProvider(page, 'Nowhere SSO', 'http://127.0.0.1:9');
    await dialog.getByRole('button', { name: 'Add provider' }).click();
    await dialog.getByRole('alert').waitFor();
    const issuer = dialog.getByLabel('Issuer URL');
    await expect(issuer.getAttribute('aria-invalid')).resolves.toBe('true');
    expect(await accessibilityViolations(page)).toEqual([]);
    const listed = await harness.gateway.call('GET', '/api/admin/identity-providers', {
      query: { q: 'Nowhere SSO' },
    });
    expect(listed.body.data).toEqual([]);
  });

  it('edits a provider: turns it off the sign-in page, and an empty secret keeps the stored one', async () => {
    const provider = await addProvider(harness.gateway, oidc, { name: 'Edited SSO' });
    const sealed = (await storedProvider(provider.id)).clientSecretSealed;
    const { page } = await openProviders('/users/identity-providers?q=Edited');
    await page.getByRole('button', { name: 'Edit Edited SSO' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Edited SSO' });
    await expect(dialog.getByLabel('Client secret').inputValue()).resolves.toBe('');
    await dialog.getByRole('switch', { name: 'Offer it on the sign-in page' }).uncheck();
    expect(await accessibilityViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Save provider' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page
      .getByRole('row', { name: /Edited SSO/ })
      .getByText('Turned off')
      .waitFor();
    const stored = await storedProvider(provider.id);
    expect(stored.enabled).toBe(false);
    expect(stored.clientSecretSealed).toBe(sealed);
  });

  it('deletes a provider after confirming', async () => {
    const provider = await addProvider(harness.gateway, oidc, { name: 'Doomed SSO' });
    const { page } = await openProviders('/users/identity-providers?q=Doomed');
    await clickAndConfirm(page, 'Delete Doomed SSO', 'Delete Doomed SSO?', 'Delete');
    await page.getByText('Deleted Doomed SSO.').waitFor();
    const answer = await harness.gateway.call('GET', `/api/admin/identity-providers/${provider.id}`);
    expect(answer.status).toBe(404);
  });
});
