import crypto from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RegistryPeer, registryBinaries, startRegistry } from '../services/docker-registry.js';
import { type PodmanPeer, podmanBinaries } from '../services/podman.js';
import {
  accessibilityViolations,
  type ConsoleHarness,
  type ConsoleUser,
  describeInBrowser,
  PHONE,
  screenshot,
  scrollsSideways,
} from '../support/console.js';
import { openSignedIn, startContainerConsole } from '../support/containerhost-console.js';

// The engine's storage is shared with other suites: every name here holds this run's id.
const run = crypto.randomBytes(3).toString('hex');
const FROM_REGISTRY = `ig-${run}-pulled`;

describeInBrowser(
  'the Containers page: pulls from a registry and its credentials',
  () => {
    let harness: ConsoleHarness;
    let podman: PodmanPeer;
    let registry: RegistryPeer;
    let manager: ConsoleUser;
    let nodeId: string;
    let image: string;
    beforeAll(async () => {
      registry = await startRegistry();
      ({ harness, podman, manager, nodeId } = await startContainerConsole({
        podman: { insecureRegistries: [registry.address] },
      }));
      image = await registry.push(podman.image, `ig-${run}/app:1`);
      // Besides the console and the engine, a registry starts and receives a push.
    }, 120_000);
    afterAll(async () => {
      const container = podman?.docker.getContainer(FROM_REGISTRY);
      await container?.kill().catch(() => {});
      await container?.remove({ force: true }).catch(() => {});
      // By its name and without force: only this tag goes; the engine's storage (and the image
      // behind it, the test image) is shared with other suites.
      await podman?.docker
        .getImage(image)
        .remove()
        .catch(() => {});
      await Promise.all([harness?.close(), podman?.stop(), registry?.stop()]);
    }, 60_000);

    const openAs = (path: string, viewport?: { width: number; height: number }) =>
      openSignedIn(harness, manager, path, viewport);
    const api = async (path: string) => (await harness.gateway.call('GET', path)).body;
    const openPullDialog = async () => {
      const { page, problems } = await openAs(`/containers/${nodeId}/images`);
      await page.getByRole('button', { name: 'Pull image' }).first().click();
      return { page, problems, dialog: page.getByRole('dialog', { name: 'Pull an image' }) };
    };

    it('says why the registry refused a pull without credentials', async () => {
      const { page, dialog } = await openPullDialog();
      await dialog.getByRole('textbox', { name: 'Image' }).fill(image);
      await dialog.getByRole('button', { name: 'Pull image' }).click();
      await dialog.getByRole('alert').filter({ hasText: 'Not pulled' }).waitFor();
      // The engine's words, under the password field.
      await dialog.getByText(/unauthorized: authentication required/).waitFor();
      expect(await accessibilityViolations(page)).toEqual([]);
      await expect(podman.docker.getImage(image).inspect()).rejects.toMatchObject({ statusCode: 404 });
    }, 60_000);

    it('pulls an image with the credentials typed in the dialog, showing each layer until it is done', async () => {
      const { page, problems, dialog } = await openPullDialog();
      await dialog.getByRole('textbox', { name: 'Image' }).fill(image);
      await dialog.getByRole('textbox', { name: 'Registry user name' }).fill(registry.username);
      await dialog.getByLabel('Registry password').fill(registry.password);
      await dialog.getByRole('button', { name: 'Pull image' }).click();

      await dialog
        .getByRole('status')
        .filter({ hasText: `${image} is on the node.` })
        .waitFor();
      const layers = dialog.getByRole('progressbar', { name: /^Layer / });
      expect(await layers.count()).toBeGreaterThan(0);
      for (const layer of await layers.all()) expect(await layer.getAttribute('aria-valuenow')).toBe('100');
      expect((await podman.docker.getImage(image).inspect()).RepoTags).toContain(image);
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'containers-pull');
      await dialog.getByRole('button', { name: 'Done' }).click();
      await page.getByRole('searchbox', { name: 'Search images' }).fill(`ig-${run}`);
      await page.getByRole('table', { name: 'Images' }).getByText(image).waitFor();
      expect(problems).toEqual([]);
    }, 60_000);

    it('stores registry credentials for the node and never shows the password again', async () => {
      const { page, problems } = await openAs(`/containers/${nodeId}/registries`);
      await page.getByRole('button', { name: 'Store credentials' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Store registry credentials' });
      await dialog.getByRole('textbox', { name: 'Registry' }).fill(registry.address);
      await dialog.getByRole('textbox', { name: 'User name' }).fill(registry.username);
      await dialog.getByLabel('Password', { exact: true }).fill(registry.password);
      expect(await accessibilityViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Save credentials' }).click();

      const row = page.getByRole('table', { name: 'Registry credentials' }).getByRole('row');
      await row.filter({ hasText: registry.address }).getByText(registry.username).waitFor();
      const stored = await api(`/api/containerhost/nodes/${nodeId}/registry-credentials`);
      expect(stored.data).toEqual([
        expect.objectContaining({ registry: registry.address, username: registry.username }),
      ]);
      expect(JSON.stringify(stored)).not.toContain(registry.password);
      expect(await page.content()).not.toContain(registry.password);
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'containers-registry-credentials');
      expect(problems).toEqual([]);
    }, 60_000);

    it('recreates a container after pulling its image again with the stored credentials', async () => {
      const made = await harness.gateway.call('POST', `/api/containerhost/nodes/${nodeId}/containers`, {
        body: { name: FROM_REGISTRY, image, cmd: ['sleep', '600'], start: true },
      });
      expect(made.status).toBe(201);
      const before = await podman.docker.getContainer(FROM_REGISTRY).inspect();
      const { page, problems } = await openAs(`/containers/${nodeId}/containers/${FROM_REGISTRY}/details`);
      await page.getByRole('button', { name: `Recreate ${FROM_REGISTRY}` }).click();
      const dialog = page.getByRole('dialog', { name: `Recreate ${FROM_REGISTRY}?` });
      await dialog.getByRole('checkbox', { name: 'Pull the image again' }).check();
      expect(await accessibilityViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Recreate' }).click();
      // The engine pulls, stops, creates and starts: longer than a click's answer.
      await page
        .getByText(`Recreated ${FROM_REGISTRY} from a fresh pull of its image.`)
        .waitFor({ timeout: 30_000 });

      const after = await podman.docker.getContainer(FROM_REGISTRY).inspect();
      expect(after.Id).not.toBe(before.Id);
      expect(after.State.Running).toBe(true);
      const events = await api('/api/audit/events?action=containerhost.container.recreated');
      expect(events.data[0]).toMatchObject({
        targetId: after.Id,
        metadata: { name: FROM_REGISTRY, pulled: true },
      });
      expect(problems).toEqual([]);
    }, 60_000);

    it('deletes stored credentials after confirming', async () => {
      const { page } = await openAs(`/containers/${nodeId}/registries`);
      await page.getByRole('button', { name: `Delete the credentials for ${registry.address}` }).click();
      const confirm = page.getByRole('dialog', { name: `Delete the credentials for ${registry.address}?` });
      expect(await accessibilityViolations(page)).toEqual([]);
      await confirm.getByRole('button', { name: 'Delete credentials' }).click();
      await page.getByText('No registry credentials stored').waitFor();
      expect((await api(`/api/containerhost/nodes/${nodeId}/registry-credentials`)).data).toEqual([]);
    });

    it('does not scroll sideways on a phone in the Registry credentials tab and the pull dialog', async () => {
      const { page } = await openAs(`/containers/${nodeId}/registries`, PHONE);
      await page.getByRole('button', { name: 'Store credentials' }).first().waitFor();
      expect(await scrollsSideways(page)).toBe(false);
      await page.getByRole('tab', { name: 'Images' }).click();
      await page.getByRole('button', { name: 'Pull image' }).first().click();
      await page.getByRole('dialog', { name: 'Pull an image' }).waitFor();
      expect(await scrollsSideways(page)).toBe(false);
    });
  },
  podmanBinaries(),
  registryBinaries(),
);
