import crypto from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
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
const CONTAINER = `ig-${run}-ui`;
const SEED = `ig-${run}-seed`;
const SPARE = `ig-${run}-spare`;
const VOLUME = `ig-${run}-vol`;

describeInBrowser(
  'the Containers page',
  () => {
    let harness: ConsoleHarness;
    let podman: PodmanPeer;
    let manager: ConsoleUser;
    let nodeId: string;
    beforeAll(async () => {
      ({ harness, podman, manager, nodeId } = await startContainerConsole());
      // A running container made on the engine directly, for the tests that only read or run in one.
      const seed = await podman.docker.createContainer({
        name: SEED,
        Image: podman.image,
        Cmd: ['sleep', '600'],
        ExposedPorts: { '8080/tcp': {} },
        HostConfig: { PortBindings: { '8080/tcp': [{ HostIp: '127.0.0.1', HostPort: '0' }] } },
      });
      await seed.start();
      // A second one, never started, so there is an order to change.
      await podman.docker.createContainer({ name: SPARE, Image: podman.image, Cmd: ['true'] });
    });
    afterAll(async () => {
      // Killed first: `sleep` as the container's first process ignores SIGTERM, and a forced
      // remove would wait out the engine's stop timeout.
      for (const name of [CONTAINER, SEED, SPARE]) {
        const container = podman?.docker.getContainer(name);
        await container?.kill().catch(() => {});
        await container?.remove({ force: true }).catch(() => {});
      }
      await podman?.docker
        .getVolume(VOLUME)
        .remove()
        .catch(() => {});
      await Promise.all([harness?.close(), podman?.stop()]);
    }, 60_000);

    const openAs = (user: ConsoleUser, path: string, viewport?: { width: number; height: number }) =>
      openSignedIn(harness, user, path, viewport);
    const api = async (path: string) => (await harness.gateway.call('GET', path)).body;
    const rowOf = (page: Page, table: string, name: string) =>
      page.getByRole('table', { name: table }).getByRole('row').filter({ hasText: name });

    it('adds a node through the form, which the API then lists', async () => {
      const { page, problems } = await openAs(manager, '/containers');
      await page.getByRole('button', { name: 'Add node' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Add a node' });
      await dialog.getByRole('textbox', { name: 'Name' }).fill('podman-again');
      await dialog.getByRole('textbox', { name: 'Endpoint' }).fill(podman.endpoint);
      expect(await accessibilityViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Add node' }).click();
      await rowOf(page, 'Nodes', 'podman-again').getByRole('link', { name: 'podman-again' }).waitFor();
      const listed = (await api('/api/containerhost/nodes?q=again')).data;
      expect(listed).toEqual([expect.objectContaining({ name: 'podman-again', endpoint: podman.endpoint })]);
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'containers-nodes');
      expect(problems).toEqual([]);
    });

    it('creates and starts a container through the form, shows its logs, and stops it', async () => {
      const { page, problems } = await openAs(manager, `/containers/${nodeId}`);
      await page.getByRole('button', { name: 'Create container' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Create a container' });
      await dialog.getByRole('textbox', { name: 'Name' }).fill(CONTAINER);
      await dialog.getByRole('combobox', { name: 'Image' }).fill(podman.image);
      await dialog
        .getByRole('textbox', { name: 'Command' })
        .fill('sh -c "echo hello from $GREETER; sleep 600"');
      await dialog.getByRole('textbox', { name: 'Environment' }).fill('GREETER=the console');
      await dialog.getByRole('textbox', { name: 'Ports' }).fill('127.0.0.1:0:8080');
      expect(await accessibilityViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Create container' }).click();

      await page.getByRole('heading', { name: CONTAINER }).waitFor();
      const logs = page.getByRole('log', { name: `Logs of ${CONTAINER}` });
      await logs.getByText('hello from the console').waitFor();
      const made = await podman.docker.getContainer(CONTAINER).inspect();
      expect(made.State.Running).toBe(true);
      expect(made.Config.Env).toContain('GREETER=the console');
      expect(made.HostConfig.PortBindings['8080/tcp']).toEqual([
        { HostIp: '127.0.0.1', HostPort: expect.any(String) },
      ]);

      await page.getByRole('switch', { name: 'Follow' }).check();
      await page.getByRole('status').getByText('Following…').waitFor();
      await logs.getByText('hello from the console').waitFor();
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'containers-container');

      await page.getByRole('button', { name: `Stop ${CONTAINER}` }).click();
      const confirm = page.getByRole('dialog', { name: `Stop ${CONTAINER}?` });
      expect(await accessibilityViolations(page)).toEqual([]);
      await confirm.getByRole('button', { name: 'Stop' }).click();
      await page.getByRole('button', { name: `Start ${CONTAINER}` }).waitFor({ timeout: 20_000 });
      const stopped = await api(`/api/containerhost/nodes/${nodeId}/containers/${CONTAINER}`);
      expect(stopped.data.state).toMatchObject({ running: false });
      await page.getByText('The stream ended: the container stopped.').waitFor();
      expect(problems).toEqual([]);
    });

    it('lists the node’s containers with their state, image and ports', async () => {
      const { page } = await openAs(manager, `/containers/${nodeId}`);
      const row = rowOf(page, 'Containers', SEED);
      await row.getByText('running').waitFor();
      await row.getByText(podman.image).waitFor();
      await row.getByText(/127\.0\.0\.1:\d+→8080\/tcp/).waitFor();
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'containers');
    });

    it('runs a command in a running container and shows its output', async () => {
      const { page } = await openAs(manager, `/containers/${nodeId}/containers/${SEED}/exec`);
      await page.getByRole('textbox', { name: 'Command' }).fill('echo $((6 * 7))');
      await page.getByRole('button', { name: 'Run' }).click();
      await page.getByLabel('Standard output').getByText('42').waitFor();
      await page.getByText('exit code 0').waitFor();
      expect(await accessibilityViolations(page)).toEqual([]);
    });

    it('browses a container’s files and uploads one into the open directory', async () => {
      const { page } = await openAs(manager, `/containers/${nodeId}/containers/${SEED}/files`);
      await page.getByRole('button', { name: 'www/' }).click();
      await page.getByRole('link', { name: 'Download index.html' }).waitFor();
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: 'Upload a file to /www' }).click();
      await (await chooser).setFiles({
        name: 'hello.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('hi\n'),
      });
      expect(await accessibilityViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Upload', exact: true }).click();
      await page.getByRole('link', { name: 'Download hello.txt' }).waitFor();
      const listed = await api(`/api/containerhost/nodes/${nodeId}/containers/${SEED}/files?path=/www`);
      expect(listed.data.entries).toContainEqual(expect.objectContaining({ name: 'hello.txt', size: 3 }));
      await screenshot(page, 'containers-files');
    });

    it('puts a container in a folder and moves it in the order, which the API then follows', async () => {
      const { page } = await openAs(manager, `/containers/${nodeId}/order`);
      await page.getByRole('textbox', { name: 'New container folder' }).fill('web tier');
      await page.getByRole('button', { name: 'Create folder' }).click();
      await page.getByText('Created folder web tier.').waitFor();
      const [folder] = (await api('/api/containerhost/folders?resourceType=container')).data;
      await page.getByRole('combobox', { name: `Folder of ${SEED}` }).selectOption({ label: 'web tier' });
      await expect
        .poll(async () => (await api(`/api/containerhost/folders/${folder.id}`)).data.resources)
        .toEqual([expect.objectContaining({ nodeId, resourceKey: SEED })]);

      const names = async () =>
        (
          (await api(`/api/containerhost/nodes/${nodeId}/containers?all=true&limit=100`)).data as {
            name: string;
          }[]
        ).map((container) => container.name);
      const before = (await names()).indexOf(SEED);
      const up = page.getByRole('button', { name: `Move ${SEED} up` });
      const moved = (await up.isDisabled()) ? before + 1 : before - 1;
      await page.getByRole('button', { name: `Move ${SEED} ${moved > before ? 'down' : 'up'}` }).click();
      await expect.poll(async () => (await names()).indexOf(SEED)).toBe(moved);
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'containers-order');
    });

    it('tests a health check, then saves it', async () => {
      const { page } = await openAs(manager, `/containers/${nodeId}/containers/${SEED}/health`);
      await page.getByRole('textbox', { name: 'Path' }).fill('/health');
      await page.getByRole('button', { name: 'Test', exact: true }).click();
      // The seed runs `sleep`: nothing answers on its published port.
      await page.getByRole('status').filter({ hasText: 'Test: offline' }).waitFor();
      expect(await accessibilityViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Save health check' }).click();
      await page.getByText(`Saved the health check of ${SEED}.`).waitFor();
      const saved = await api(`/api/containerhost/nodes/${nodeId}/containers/${SEED}/health-check`);
      expect(saved.data).toMatchObject({ containerName: SEED, path: '/health', enabled: true });
      await page.getByRole('region', { name: 'Recent results' }).waitFor();
      await screenshot(page, 'containers-health');
    });

    it('creates a volume through the form and deletes it after confirming', async () => {
      const { page } = await openAs(manager, `/containers/${nodeId}/volumes`);
      await page.getByRole('button', { name: 'Create volume' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Create a volume' });
      await dialog.getByRole('textbox', { name: 'Name' }).fill(VOLUME);
      await dialog.getByRole('button', { name: 'Create volume' }).click();
      await page.getByRole('button', { name: `Delete volume ${VOLUME}` }).waitFor();
      await expect(podman.docker.getVolume(VOLUME).inspect()).resolves.toMatchObject({ Name: VOLUME });
      expect(await accessibilityViolations(page)).toEqual([]);

      await page.getByRole('button', { name: `Delete volume ${VOLUME}` }).click();
      await page
        .getByRole('dialog', { name: `Delete volume ${VOLUME}?` })
        .getByRole('button', { name: 'Delete volume' })
        .click();
      await expect.poll(() => page.getByRole('button', { name: `Delete volume ${VOLUME}` }).count()).toBe(0);
      await expect
        .poll(
          async () =>
            (await harness.gateway.call('GET', `/api/containerhost/nodes/${nodeId}/volumes/${VOLUME}`))
              .status,
        )
        .toBe(404);
    });

    it('lists the node’s images with a pull button and prune', async () => {
      const { page } = await openAs(manager, `/containers/${nodeId}/images`);
      // The engine's storage is shared: other suites' images may fill the first page.
      await page.getByRole('searchbox', { name: 'Search images' }).fill('infragate-test');
      await rowOf(page, 'Images', podman.image).waitFor();
      await page.getByRole('button', { name: 'Pull image' }).waitFor();
      await page.getByRole('button', { name: 'Prune dangling images' }).waitFor();
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'containers-images');
    });

    it('does not scroll sideways on a phone', async () => {
      const { page } = await openAs(manager, '/containers', PHONE);
      await page.getByRole('link', { name: 'podman', exact: true }).waitFor();
      expect(await scrollsSideways(page)).toBe(false);
      await page.getByRole('link', { name: 'podman', exact: true }).click();
      await rowOf(page, 'Containers', SEED).waitFor();
      expect(await scrollsSideways(page)).toBe(false);
      await screenshot(page, 'containers-phone');
    });

    it('shows a user whose group holds containerhost:view on one node just that node, read-only', async () => {
      const other = await harness.gateway.call('POST', '/api/containerhost/nodes', {
        body: { name: `elsewhere-${run}`, endpoint: 'unix:///run/infragate-test/none.sock' },
      });
      expect(other.status).toBe(201);
      const viewer = await harness.createUser([`containerhost:view:${nodeId}`]);
      const { page, problems } = await openAs(viewer, '/');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Containers' }).click();
      const nodes = page.getByRole('table', { name: 'Nodes' });
      await nodes.getByRole('link', { name: 'podman', exact: true }).waitFor();
      expect(await nodes.getByRole('link').allTextContents()).toEqual(['podman']);
      await expect(page.getByRole('button', { name: 'Add node' }).count()).resolves.toBe(0);
      await nodes.getByRole('link', { name: 'podman', exact: true }).click();
      await rowOf(page, 'Containers', SEED).getByText('running').waitFor();
      await expect(page.getByRole('button', { name: 'Create container' }).count()).resolves.toBe(0);
      // Folders and the saved order are the area's, shared by every node.
      await expect(page.getByRole('tab', { name: 'Order and folders' }).count()).resolves.toBe(0);
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'containers-one-node');
      expect(problems).toEqual([]);
    });

    it('shows no Containers link to a user without a containerhost scope', async () => {
      const outsider = await harness.createUser(['admin:users']);
      const { page } = await openAs(outsider, '/');
      const nav = page.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('link', { name: 'Users' }).waitFor();
      await expect(nav.getByRole('link', { name: 'Containers' }).count()).resolves.toBe(0);
    });
  },
  podmanBinaries(),
);
