import { afterAll, beforeAll, expect, it } from 'vitest';
import { API_KEY, writeTestCatalog } from '../inference/helpers.js';
import { type ModelListServer, startModelListServer } from '../services/model-list-server.js';
import { type OidcPeer, startOidcProvider } from '../services/oidc-provider.js';
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

// The device flow polls at the provider's interval (5 seconds): approval shows up a poll later.
const AFTER_A_POLL = { timeout: 30_000 };

describeInBrowser('the Inference page', () => {
  let harness: ConsoleHarness;
  let oidc: OidcPeer;
  let models: ModelListServer;
  let manager: ConsoleUser;
  beforeAll(async () => {
    oidc = await startOidcProvider();
    models = await startModelListServer({
      apiKeys: [API_KEY],
      isActiveToken: (token) => oidc.isActive(token),
    });
    harness = await startConsole({ inferenceCatalogPath: writeTestCatalog({ oidc, modelsUrl: models.url }) });
    manager = await harness.createUser(['inference:manage']);
  });
  afterAll(async () => {
    await harness?.close();
    await models?.close();
    await oidc?.close();
  });

  async function openInference(viewport?: { width: number; height: number }) {
    const opened = await harness.openSignedIn(manager, '/inference', viewport);
    await opened.page.getByRole('heading', { name: 'Inference', exact: true }).waitFor();
    return opened;
  }

  async function openConnect(label: string) {
    const opened = await openInference();
    await opened.page.getByRole('button', { name: `Connect to ${label}`, exact: true }).click();
    return {
      ...opened,
      dialog: opened.page.getByRole('dialog', { name: `Connect to ${label}`, exact: true }),
    };
  }

  const connection = async (name: string) =>
    (await harness.gateway.call('GET', '/api/inference/connections', { query: { q: name } })).body.data.find(
      (found: { name: string }) => found.name === name,
    );

  it('shows the catalog as cards, and passes the accessibility checks', async () => {
    const { page, problems } = await openInference();
    const providers = page.getByRole('region', { name: 'Providers' });
    await providers.getByRole('article', { name: 'Test device sign-in', exact: true }).waitFor();
    await expect(providers.getByRole('article').count()).resolves.toBe(6);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'inference');
    expect(problems).toEqual([]);
  });

  it('connects by API key, then tests the connection and shows its models', async () => {
    const { page, dialog } = await openConnect('Test API');
    await dialog.getByLabel('Name', { exact: true }).fill('keyed');
    await dialog.getByLabel('API key').fill(API_KEY);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'inference-connect-key');
    await dialog.getByRole('button', { name: 'Connect' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await connection('keyed')).toMatchObject({ authType: 'api_key', hasApiKey: true });
    await page.getByRole('button', { name: 'Test keyed' }).click();
    const result = page.getByRole('dialog', { name: 'Models of keyed' });
    await result.getByRole('table', { name: 'Models' }).getByText('model-large').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'inference-models');
    expect(await connection('keyed')).toMatchObject({ lastTestOk: true });
  });

  it('connects through the device flow: shows the code, then polls until the user approved', async () => {
    const { page, dialog } = await openConnect('Test device sign-in');
    await dialog.getByLabel('Name', { exact: true }).fill('device-signed');
    await dialog.getByRole('button', { name: 'Start sign-in' }).click();
    const userCode = (await dialog.getByLabel('User code').textContent()) ?? '';
    const verification = await dialog
      .getByRole('link', { name: 'the provider’s verification page' })
      .getAttribute('href');
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'inference-device');
    await oidc.browser.approveDevice(verification!, userCode);
    await dialog.waitFor({ state: 'hidden', ...AFTER_A_POLL });
    expect(await connection('device-signed')).toMatchObject({ authType: 'oauth', hasAccessToken: true });
  });

  it('connects through the redirect flow with the pasted callback address', async () => {
    const { page, dialog } = await openConnect('Test sign-in');
    await dialog.getByLabel('Name', { exact: true }).fill('redirect-signed');
    await dialog.getByRole('button', { name: 'Start sign-in' }).click();
    const link = dialog.getByRole('link', { name: 'Open the provider’s sign-in page' });
    await expect(link.getAttribute('target')).resolves.toBe('_blank');
    const callback = await oidc.browser.authorize((await link.getAttribute('href'))!);
    await dialog.getByLabel('Callback URL').fill(callback);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'inference-redirect');
    await dialog.getByRole('button', { name: 'Complete sign-in' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await connection('redirect-signed')).toMatchObject({ authType: 'oauth', hasAccessToken: true });
  });

  it('says why a pasted callback of another sign-in was refused', async () => {
    const { dialog } = await openConnect('Test sign-in');
    await dialog.getByLabel('Name', { exact: true }).fill('mismatched');
    await dialog.getByRole('button', { name: 'Start sign-in' }).click();
    await dialog.getByLabel('Callback URL').fill(`${oidc.redirectUri}?code=abc&state=not-this-session`);
    await dialog.getByRole('button', { name: 'Complete sign-in' }).click();
    await dialog.getByText('The sign-in failed').waitFor();
    await dialog.getByText('state_mismatch').waitFor();
    expect(await connection('mismatched')).toBeUndefined();
  });

  it('deletes a connection after confirming', async () => {
    await harness.gateway.call('POST', '/api/inference/connections', {
      body: { providerId: 'test-api', name: 'to-delete', authType: 'api_key', apiKey: API_KEY },
    });
    const { page } = await openInference();
    await page.getByRole('button', { name: 'Delete to-delete' }).click();
    await page
      .getByRole('dialog', { name: 'Delete to-delete?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page
      .getByRole('table', { name: 'Connections' })
      .getByText('to-delete')
      .waitFor({ state: 'detached' });
    expect(await connection('to-delete')).toBeUndefined();
  });

  it('is not offered to a user without an inference scope', async () => {
    expect(await harness.navigationFor(['admin:users'])).not.toContain('Inference');
  });

  it('fits a phone screen without scrolling sideways', async () => {
    const { page } = await openInference(PHONE);
    await page.getByRole('table', { name: 'Connections' }).getByText('keyed').waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await screenshot(page, 'inference-phone');
  });
});
