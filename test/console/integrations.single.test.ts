import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedGitlab, TOKENS } from '../repohost/helpers.js';
import { type FakeGitlab, startFakeGitlab } from '../services/fake-gitlab-v4.js';
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

describeInBrowser('the Integrations page', () => {
  let harness: ConsoleHarness;
  let fake: FakeGitlab;
  let manager: ConsoleUser;
  beforeAll(async () => {
    fake = await startFakeGitlab();
    seedGitlab(fake);
    harness = await startConsole();
    manager = await harness.createUser(['integrations:manage']);
    await createConnector('gitlab-listed');
  });
  afterAll(async () => {
    await harness?.close();
    await fake?.close();
  });

  async function openPage(path: string, viewport?: { width: number; height: number }) {
    const opened = await harness.openSignedIn(manager, path, viewport);
    return opened;
  }

  async function createConnector(name: string, token: string = TOKENS.full) {
    const created = await harness.gateway.call('POST', '/api/integrations/repohost/connectors', {
      body: {
        name,
        baseUrl: fake.url,
        token,
        allowlist: [{ entryType: 'group', remoteId: '11', fullPath: 'platform' }],
      },
    });
    expect(created.status).toBe(201);
    return created.body.data as { id: string };
  }

  async function openNewConnector(token: string) {
    const opened = await openPage('/integrations');
    const { page } = opened;
    await page.getByRole('button', { name: 'Add repository host' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add a repository host' });
    await dialog.getByLabel('Base URL').fill(fake.url);
    await dialog.getByLabel('Access token').fill(token);
    await dialog.getByRole('button', { name: 'Test' }).click();
    return { ...opened, dialog };
  }

  it('tests a URL and token, shows what the token can do and see, then saves the connector', async () => {
    const { page, dialog, problems } = await openNewConnector(TOKENS.full);
    const found = dialog.getByRole('region', { name: 'What the token can do' });
    await found.getByText('The token sees 3 groups and 250 projects.').waitFor();
    const capabilities = found.getByRole('list', { name: 'Capabilities' });
    await expect(
      capabilities.getByRole('listitem').filter({ hasText: 'Write repositories' }).textContent(),
    ).resolves.toBe('yesWrite repositories');
    await expect(
      capabilities.getByRole('listitem').filter({ hasText: 'Manage webhooks' }).textContent(),
    ).resolves.toBe('yesManage webhooks');
    const allowlist = dialog.getByRole('combobox', { name: 'Allowlist' });
    await allowlist.fill('service-2');
    await page.getByRole('option', { name: 'platform/service-2 (project)' }).click();
    await allowlist.fill('platform');
    await page.getByRole('option', { name: 'platform (group)', exact: true }).click();
    await dialog.getByLabel('Name', { exact: true }).fill('gitlab-main');
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'integrations-preview');
    await dialog.getByRole('button', { name: 'Save connector' }).click();
    await page.getByRole('heading', { name: 'gitlab-main' }).waitFor();
    const listed = (
      await harness.gateway.call('GET', '/api/integrations/repohost/connectors', {
        query: { q: 'gitlab-main' },
      })
    ).body.data;
    expect(listed).toHaveLength(1);
    expect(listed[0].allowlist.map((entry: { fullPath: string }) => entry.fullPath).sort()).toEqual([
      'platform',
      'platform/service-2',
    ]);
    expect(problems).toEqual([]);
  });

  it('shows why the host refused a token, and saves nothing', async () => {
    const refusal = await harness.gateway.call('POST', '/api/integrations/repohost/connectors/preview-test', {
      body: { baseUrl: fake.url, token: TOKENS.revoked },
    });
    expect(refusal.body.details.reason).toBe('TOKEN_REJECTED');
    const { dialog } = await openNewConnector(TOKENS.revoked);
    const banner = dialog.getByRole('alert').filter({ hasText: 'Test failed' });
    await banner.getByText(refusal.body.details.explanation, { exact: false }).waitFor();
    await expect(dialog.getByRole('button', { name: 'Save connector' }).count()).resolves.toBe(0);
  });

  it('opens a connector at the address notifications link to, and re-tests it', async () => {
    const token = 'glpat-ConsoleRetestToken0099';
    fake.tokens.push({ token, userId: 1, scopes: ['api'], expiresAt: '2027-12-31' });
    const { id } = await createConnector('retested', token);
    const { page } = await openPage(`/integrations/repohost/${id}`);
    await page.getByRole('heading', { name: 'retested' }).waitFor();
    await page.getByRole('table', { name: 'Allowlist' }).getByRole('link', { name: 'platform' }).waitFor();
    fake.tokens.find((candidate) => candidate.token === token)!.revoked = true;
    await page.getByRole('button', { name: 'Re-test' }).click();
    await page.getByRole('region', { name: 'Last test' }).getByText('Test failed').waitFor();
    await page.getByRole('region', { name: 'Last test' }).getByText('TOKEN_REJECTED').waitFor();
    const saved = (await harness.gateway.call('GET', `/api/integrations/repohost/connectors/${id}`)).body
      .data;
    expect(saved).toMatchObject({ lastTestOk: false, lastTestError: { reason: 'TOKEN_REJECTED' } });
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'integrations-connector');
  });

  it('renames a connector, then deletes it after confirming', async () => {
    const { id } = await createConnector('to-rename');
    const { page } = await openPage(`/integrations/repohost/${id}`);
    await page.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit to-rename' });
    await dialog.getByLabel('Name', { exact: true }).fill('renamed');
    expect(await accessibilityViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Save connector' }).click();
    await page.getByRole('heading', { name: 'renamed' }).waitFor();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Delete renamed?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page.getByRole('heading', { name: 'Integrations' }).waitFor();
    expect((await harness.gateway.call('GET', `/api/integrations/repohost/connectors/${id}`)).status).toBe(
      404,
    );
  });

  it('lists the connectors, and passes the accessibility checks', async () => {
    const { page } = await openPage('/integrations');
    await page.getByRole('table', { name: 'Repository hosts' }).getByText('gitlab-listed').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'integrations');
  });

  it('is not offered to a user without an integrations scope', async () => {
    expect(await harness.navigationFor(['admin:users'])).not.toContain('Integrations');
  });

  it('fits a phone screen without scrolling sideways', async () => {
    const { page } = await openPage('/integrations', PHONE);
    await page.getByRole('table', { name: 'Repository hosts' }).getByText('gitlab-listed').waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await screenshot(page, 'integrations-phone');
  });
});
