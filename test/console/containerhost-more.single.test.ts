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
import { eventually } from '../support/eventually.js';

// The engine's storage is shared with other suites: every name here holds this run's id.
const run = crypto.randomBytes(3).toString('hex');
const RUNNING = `ig-${run}-shell`;
const DOOMED = `ig-${run}-doomed`;
const NETWORK = `ig-${run}-net`;
const VOLUME = `ig-${run}-data`;

describeInBrowser(
  'the Containers page: terminal, stats stream, networks and volume files',
  () => {
    let harness: ConsoleHarness;
    let podman: PodmanPeer;
    let manager: ConsoleUser;
    let nodeId: string;
    beforeAll(async () => {
      ({ harness, podman, manager, nodeId } = await startContainerConsole());
      const running = await podman.docker.createContainer({
        name: RUNNING,
        Image: podman.image,
        Cmd: ['sleep', '600'],
      });
      await running.start();
      // Killed, then removed, through the console.
      const doomed = await podman.docker.createContainer({
        name: DOOMED,
        Image: podman.image,
        Cmd: ['sleep', '600'],
      });
      await doomed.start();
      await podman.docker.createNetwork({ Name: NETWORK });
      await podman.docker.createVolume({ Name: VOLUME });
    });
    afterAll(async () => {
      // Killed first: `sleep` as the container's first process ignores SIGTERM.
      for (const name of [RUNNING, DOOMED]) {
        const container = podman?.docker.getContainer(name);
        await container?.kill().catch(() => {});
        await container?.remove({ force: true }).catch(() => {});
      }
      await podman?.docker
        .getNetwork(NETWORK)
        .remove()
        .catch(() => {});
      await podman?.docker
        .getVolume(VOLUME)
        .remove()
        .catch(() => {});
      await Promise.all([harness?.close(), podman?.stop()]);
    }, 60_000);

    const openAs = (user: ConsoleUser, path: string, viewport?: { width: number; height: number }) =>
      openSignedIn(harness, user, path, viewport);
    const containerPath = (name: string, tab: string) => `/containers/${nodeId}/containers/${name}/${tab}`;
    const networksOf = async (name: string) =>
      Object.keys((await podman.docker.getContainer(name).inspect()).NetworkSettings.Networks);
    const api = async (path: string) => (await harness.gateway.call('GET', path)).body;
    const stateOf = async (name: string) => (await podman.docker.getContainer(name).inspect()).State;
    const listing = async (dir: string) =>
      (
        await api(`/api/containerhost/nodes/${nodeId}/containers/${RUNNING}/files?path=${dir}`)
      ).data.entries.map((entry: { name: string }) => entry.name);
    const screenText = (page: Page, name: string) =>
      page.getByRole('region', { name: `Terminal of ${name}` }).innerText();

    it('opens a shell in the Terminal tab that answers what is typed', async () => {
      const { page, problems } = await openAs(manager, containerPath(RUNNING, 'terminal'));
      await page.getByRole('status').getByText('Connected: /bin/sh').waitFor({ timeout: 20_000 });
      await page.keyboard.type('echo hi-$((40+2))');
      await page.keyboard.press('Enter');
      // The typed line echoes `$((40+2))` as typed; only the shell's answer holds the sum.
      await expect.poll(() => screenText(page, RUNNING)).toMatch(/^hi-42\s*$/m);
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'containers-terminal');
      await page.keyboard.type('exit');
      await page.keyboard.press('Enter');
      await page.getByRole('status').getByText('The shell ended (exit code 0).').waitFor();
      expect(problems).toEqual([]);
    });

    it('streams statistics into sparklines of CPU and memory', async () => {
      const { page, problems } = await openAs(manager, containerPath(RUNNING, 'stats'));
      await page.getByRole('switch', { name: 'Stream' }).check();
      await page.getByRole('status').getByText('Streaming…').waitFor();
      // Two readings make a line; the engine reads about once a second.
      await page.getByText(/CPU over the last ([2-9]|\d\d) readings/).waitFor({ timeout: 20_000 });
      await page.getByRole('img', { name: /^CPU: now [\d.]+ %/ }).waitFor();
      await page.getByRole('img', { name: /^Memory: now \S+/ }).waitFor();
      await page.getByText('Processes').waitFor();
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'containers-stats-stream');
      expect(problems).toEqual([]);
    });

    it('connects a container to a network and disconnects it again', async () => {
      const { page, problems } = await openAs(manager, containerPath(RUNNING, 'networks'));
      await page.getByRole('combobox', { name: 'Connect to a network' }).click();
      await page.getByRole('option', { name: NETWORK }).click();
      await page.getByRole('button', { name: 'Connect', exact: true }).click();
      const table = page.getByRole('table', { name: `Networks of ${RUNNING}` });
      await table.getByRole('row').filter({ hasText: NETWORK }).waitFor();
      expect(await networksOf(RUNNING)).toContain(NETWORK);
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'containers-container-networks');

      await page.getByRole('button', { name: `Disconnect from ${NETWORK}` }).click();
      const confirm = page.getByRole('dialog', { name: `Disconnect ${RUNNING} from ${NETWORK}?` });
      expect(await accessibilityViolations(page)).toEqual([]);
      await confirm.getByRole('button', { name: 'Disconnect' }).click();
      await table.getByRole('row').filter({ hasText: NETWORK }).waitFor({ state: 'detached' });
      expect(await networksOf(RUNNING)).not.toContain(NETWORK);
      expect(problems).toEqual([]);
    });

    it('moves a file inside a container through the Files tab', async () => {
      const { page, problems } = await openAs(manager, containerPath(RUNNING, 'files'));
      await page.getByRole('button', { name: 'www/' }).click();
      await page.getByRole('button', { name: 'Move index.html' }).click();
      const dialog = page.getByRole('dialog', { name: 'Move /www/index.html' });
      await dialog.getByRole('textbox', { name: 'New path' }).fill('/www/moved.html');
      expect(await accessibilityViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Move' }).click();
      await page.getByRole('link', { name: 'Download moved.html' }).waitFor();
      const listed = await api(`/api/containerhost/nodes/${nodeId}/containers/${RUNNING}/files?path=/www`);
      const names = listed.data.entries.map((entry: { name: string }) => entry.name);
      expect(names).toContain('moved.html');
      expect(names).not.toContain('index.html');
      expect(problems).toEqual([]);
    });

    it('pauses a running container and resumes it', async () => {
      const { page, problems } = await openAs(manager, containerPath(RUNNING, 'details'));
      await page.getByRole('button', { name: `Pause ${RUNNING}` }).click();
      await page.getByRole('button', { name: `Unpause ${RUNNING}` }).waitFor();
      expect(await stateOf(RUNNING)).toMatchObject({ Running: true, Paused: true });
      expect(await accessibilityViolations(page)).toEqual([]);
      await page.getByRole('button', { name: `Unpause ${RUNNING}` }).click();
      await page.getByRole('button', { name: `Pause ${RUNNING}` }).waitFor();
      // Podman's list can report the container running a moment before its inspect stops saying paused.
      await eventually(async () => !(await stateOf(RUNNING)).Paused, 'the engine to report it unpaused');
      expect(await stateOf(RUNNING)).toMatchObject({ Running: true, Paused: false });
      expect(problems).toEqual([]);
    });

    it('kills a running container after confirming', async () => {
      const { page, problems } = await openAs(manager, containerPath(DOOMED, 'details'));
      await page.getByRole('button', { name: `Kill ${DOOMED}` }).click();
      const confirm = page.getByRole('dialog', { name: `Kill ${DOOMED}?` });
      expect(await accessibilityViolations(page)).toEqual([]);
      await confirm.getByRole('button', { name: 'Kill' }).click();
      await page.getByRole('button', { name: `Start ${DOOMED}` }).waitFor();
      const state = await stateOf(DOOMED);
      expect(state.Running).toBe(false);
      // SIGKILL: 128 + 9.
      expect(state.ExitCode).toBe(137);
      expect(problems).toEqual([]);
    });

    it('removes a container after confirming and goes back to the node', async () => {
      const { page, problems } = await openAs(manager, containerPath(DOOMED, 'details'));
      await page.getByRole('button', { name: `Remove ${DOOMED}` }).click();
      const confirm = page.getByRole('dialog', { name: `Remove ${DOOMED}?` });
      expect(await accessibilityViolations(page)).toEqual([]);
      await confirm.getByRole('button', { name: 'Remove' }).click();
      await page.getByRole('table', { name: 'Containers' }).waitFor();
      await expect(podman.docker.getContainer(DOOMED).inspect()).rejects.toMatchObject({ statusCode: 404 });
      expect(problems).toEqual([]);
    });

    it('creates a directory through the Files tab', async () => {
      const { page, problems } = await openAs(manager, containerPath(RUNNING, 'files'));
      await page.getByRole('button', { name: 'tmp/' }).click();
      await page.getByRole('textbox', { name: 'New directory in /tmp' }).fill('made-here');
      expect(await accessibilityViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Create directory' }).click();
      await page.getByRole('button', { name: 'made-here/' }).waitFor();
      const entries = (await api(`/api/containerhost/nodes/${nodeId}/containers/${RUNNING}/files?path=/tmp`))
        .data.entries;
      expect(entries).toContainEqual(expect.objectContaining({ name: 'made-here', type: 'directory' }));
      expect(problems).toEqual([]);
    });

    it('deletes a file through the Files tab after confirming', async () => {
      await harness.gateway.call(
        'PUT',
        `/api/containerhost/nodes/${nodeId}/containers/${RUNNING}/files/content`,
        {
          rawBody: Buffer.from('old\n'),
          headers: { 'content-type': 'application/octet-stream' },
          query: { path: '/tmp/old.log' },
        },
      );
      const { page, problems } = await openAs(manager, containerPath(RUNNING, 'files'));
      await page.getByRole('button', { name: 'tmp/' }).click();
      await page.getByRole('button', { name: 'Delete old.log' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete /tmp/old.log?' });
      expect(await accessibilityViolations(page)).toEqual([]);
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('link', { name: 'Download old.log' }).waitFor({ state: 'detached' });
      expect(await listing('/tmp')).not.toContain('old.log');
      await screenshot(page, 'containers-files-delete');
      expect(problems).toEqual([]);
    });

    it('browses a volume and writes a picked file into it', async () => {
      const { page, problems } = await openAs(manager, `/containers/${nodeId}/volumes`);
      await page.getByRole('button', { name: `Browse files of volume ${VOLUME}` }).click();
      const dialog = page.getByRole('dialog', { name: `Files of volume ${VOLUME}` });
      await dialog.getByText('This directory is empty.').waitFor({ timeout: 30_000 });
      const chooser = page.waitForEvent('filechooser');
      await dialog.getByRole('button', { name: 'Upload a file to /' }).click();
      await (await chooser).setFiles({
        name: 'app.toml',
        mimeType: 'text/plain',
        buffer: Buffer.from('port = 8080\n'),
      });
      expect(await accessibilityViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
      await dialog.getByRole('link', { name: 'Download app.toml' }).waitFor({ timeout: 30_000 });
      const written = await harness.gateway.call(
        'GET',
        `/api/containerhost/nodes/${nodeId}/volumes/${VOLUME}/files?path=/`,
      );
      expect(written.body.data.entries).toContainEqual(
        expect.objectContaining({ name: 'app.toml', size: 12 }),
      );
      await screenshot(page, 'containers-volume-files');
      expect(problems).toEqual([]);
    });

    it('does not scroll sideways on a phone in the Terminal and Networks tabs', async () => {
      const { page } = await openAs(manager, containerPath(RUNNING, 'terminal'), PHONE);
      await page.getByRole('status').getByText('Connected: /bin/sh').waitFor({ timeout: 20_000 });
      expect(await scrollsSideways(page)).toBe(false);
      await page.getByRole('tab', { name: 'Networks' }).click();
      await page.getByRole('table', { name: `Networks of ${RUNNING}` }).waitFor();
      expect(await scrollsSideways(page)).toBe(false);
    });
  },
  podmanBinaries(),
);
