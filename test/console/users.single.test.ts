import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  accessibilityViolations,
  type ConsoleHarness,
  type ConsoleUser,
  describeInBrowser,
  PHONE,
  screenshot,
  scrollsSideways,
  startConsole,
} from '../support/console.js';

describeInBrowser('the Users page', () => {
  let harness: ConsoleHarness;
  let admin: ConsoleUser;
  beforeAll(async () => {
    harness = await startConsole();
    admin = await harness.createUser(['admin:users']);
  });
  afterAll(() => harness?.close());

  async function openUsers(path = '/users', viewport?: { width: number; height: number }) {
    const opened = await harness.openSignedIn(admin, path, viewport);
    await opened.page.getByRole('heading', { name: 'Users and groups' }).waitFor();
    return opened;
  }

  /** Opens the Users page and fills the "Create a user" dialog in the group admins (not submitted). */
  async function fillNewUser(fields: { email: string; name: string; password: string }) {
    const opened = await openUsers();
    const { page } = opened;
    await page.getByRole('button', { name: 'Create user' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create a user' });
    await dialog.getByLabel('Email').fill(fields.email);
    await dialog.getByLabel('Name').fill(fields.name);
    await dialog.getByRole('combobox', { name: 'Group' }).click();
    await page.getByRole('option', { name: 'admins' }).click();
    await dialog.getByLabel('Password', { exact: true }).fill(fields.password);
    return { ...opened, dialog };
  }

  const findUser = async (email: string) =>
    (await harness.gateway.call('GET', '/api/admin/users', { query: { q: email } })).body.data[0];

  it('lists the users with a search box, and passes the accessibility checks', async () => {
    const { page, problems } = await openUsers();
    await page.getByRole('table', { name: 'Users' }).getByText(admin.email).waitFor();
    await page.getByRole('searchbox', { name: 'Search users' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'users');
    expect(problems).toEqual([]);
  });

  it('creates a user, which the API then lists in its group', async () => {
    const { page, dialog } = await fillNewUser({
      email: 'created@test',
      name: 'Created In Browser',
      password: 'a long password',
    });
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'users-create');
    await dialog.getByRole('button', { name: 'Create user' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await findUser('created@test')).toMatchObject({
      name: 'Created In Browser',
      groupName: 'admins',
      hasPassword: true,
    });
  });

  it('shows each refusal of the gateway next to its field, as a sentence without validator text', async () => {
    const { page, dialog } = await fillNewUser({ email: 'not-an-email', name: 'Short', password: 'short' });
    await dialog.getByRole('button', { name: 'Create user' }).click();
    const email = dialog.getByText('Enter an email address such as name@example.com.');
    const password = dialog.getByText('Password needs at least 8 characters.');
    await email.waitFor();
    for (const [label, message] of [
      ['Email', email],
      ['Password', password],
    ] as const) {
      await expect(
        dialog.getByLabel(label, { exact: true }).getAttribute('aria-describedby'),
      ).resolves.toContain(await message.getAttribute('id'));
    }
    const text = (await dialog.textContent()) ?? '';
    expect(text).not.toMatch(/must match|must NOT|pattern|validation failed/);
    await expect(dialog.getByRole('alert').textContent()).resolves.toContain('see the messages next to them');
    await screenshot(page, 'form-error');
    expect(await findUser('not-an-email')).toBeUndefined();
  });

  it('finds users by the search box, on the server', async () => {
    await harness.gateway.call('POST', '/api/admin/users', {
      body: { email: 'needle@test', name: 'Needle', group: 'admins' },
    });
    const { page } = await openUsers();
    await page.getByRole('searchbox', { name: 'Search users' }).fill('needle');
    await page.waitForURL('**/users?q=needle');
    const table = page.getByRole('table', { name: 'Users' });
    // The earlier page stays on screen while the search loads: wait for the answer to replace it.
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    await table.getByText('needle@test').waitFor();
  });

  it('disables a user after confirming, which the API then shows', async () => {
    await harness.gateway.call('POST', '/api/admin/users', {
      body: { email: 'to-disable@test', name: 'To Disable', group: 'admins' },
    });
    const { page } = await openUsers('/users?q=to-disable');
    await page.getByRole('button', { name: 'Edit to-disable@test' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit to-disable@test' });
    await dialog.getByRole('button', { name: 'Disable user' }).click();
    const confirmation = page.getByRole('dialog', { name: 'Disable to-disable@test?' });
    expect(await accessibilityViolations(page)).toEqual([]);
    await confirmation.getByRole('button', { name: 'Disable' }).click();
    await confirmation.waitFor({ state: 'hidden' });
    expect(await findUser('to-disable@test')).toMatchObject({ disabled: true });
  });

  it("sets a user's password, which then signs in", async () => {
    await harness.gateway.call('POST', '/api/admin/users', {
      body: { email: 'new-password@test', name: 'New Password', group: 'admins' },
    });
    const { page } = await openUsers('/users?q=new-password');
    await page.getByRole('button', { name: 'Edit new-password@test' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit new-password@test' });
    await dialog.getByLabel('New password').fill('set by an admin');
    await dialog.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Password set.').waitFor();
    const login = await harness.gateway.call('POST', '/auth/login', {
      token: null,
      body: { email: 'new-password@test', password: 'set by an admin' },
    });
    expect(login.status).toBe(200);
  });

  it('enables a disabled user, which the API then shows', async () => {
    const created = await harness.gateway.call('POST', '/api/admin/users', {
      body: { email: 'to-enable@test', name: 'To Enable', group: 'admins' },
    });
    await harness.gateway.call('PATCH', `/api/admin/users/${created.body.data.id}/disabled`, {
      body: { disabled: true },
    });
    const { page } = await openUsers('/users?q=to-enable');
    await page
      .getByRole('row', { name: /to-enable@test/ })
      .getByText('Disabled')
      .waitFor();
    await page.getByRole('button', { name: 'Edit to-enable@test' }).click();
    await page
      .getByRole('dialog', { name: 'Edit to-enable@test' })
      .getByRole('button', { name: 'Enable user' })
      .click();
    await page.getByText('Enabled to-enable@test.').waitFor();
    expect(await findUser('to-enable@test')).toMatchObject({ disabled: false });
  });

  it('creates a group with scopes, which the API then shows', async () => {
    const { page } = await openUsers('/users/groups');
    await page.getByRole('button', { name: 'Create group' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a group' });
    await dialog.getByLabel('Name').fill('operators');
    const scopes = dialog.getByRole('combobox', { name: 'Scopes' });
    await scopes.fill('logging:view');
    await scopes.press('Enter');
    await scopes.fill('audit:*');
    await scopes.press('Enter');
    await scopes.press('Tab');
    await dialog.getByRole('button', { name: 'Create group' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const groups = (await harness.gateway.call('GET', '/api/admin/groups')).body.data;
    expect(groups.find((group: { name: string }) => group.name === 'operators')?.scopes).toEqual([
      'logging:view',
      'audit:*',
    ]);
    await page.getByRole('table', { name: 'Groups' }).getByText('operators').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'groups');
  });

  it('checks each scope as it is added, warns of a grant that cannot be used, and words a refusal', async () => {
    const { page } = await openUsers('/users/groups');
    await page.getByRole('button', { name: 'Edit scopes of operators' }).click();
    const dialog = page.getByRole('dialog', { name: 'Scopes of operators' });
    const scopes = dialog.getByRole('combobox', { name: 'Scopes' });
    for (const scope of ['containerhost:veiw', 'databases:read']) {
      await scopes.fill(scope);
      await scopes.press('Enter');
    }
    await scopes.press('Tab');
    const refused = dialog.getByLabel('Scopes the gateway would refuse');
    await refused.getByText('containerhost:veiw: Unknown permission "veiw" in containerhost').waitFor();
    await dialog
      .getByLabel('Scopes that cannot be used')
      .getByText('databases:read cannot be used without databases:view')
      .waitFor();
    const flagged = dialog.locator('[aria-invalid="true"]', { hasText: 'containerhost:veiw' });
    await expect(flagged.getAttribute('title')).resolves.toMatch(/^Unknown permission/);
    await dialog.getByRole('button', { name: 'Save scopes' }).click();
    const message = dialog.getByText(/^Scopes, entry 3: unknown permission "veiw" in containerhost/);
    await message.waitFor();
    expect(await message.textContent()).not.toMatch(/pattern|must NOT/);
  });

  it('fits a phone screen: the list does not scroll sideways', async () => {
    const { page } = await openUsers('/users', PHONE);
    await page.getByRole('table', { name: 'Users' }).getByText(admin.email).waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await screenshot(page, 'users-phone');
  });

  it('fits the groups on a phone screen without scrolling sideways', async () => {
    const { page } = await openUsers('/users/groups', PHONE);
    await page.getByRole('table', { name: 'Groups' }).getByText('admins').waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'groups-phone');
  });
});
