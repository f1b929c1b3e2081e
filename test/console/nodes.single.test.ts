import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
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

// The smallest chunk the gateway suggests: a few hundred KiB make several chunks.
const CHUNK = 64 * 1024;

describeInBrowser('the Nodes page', () => {
  let harness: ConsoleHarness;
  let manager: ConsoleUser;
  let scratch: string;
  let root: string;
  let nodeId: string;
  beforeAll(async () => {
    harness = await startConsole({ uploadChunkBytes: CHUNK });
    manager = await harness.createUser(['nodes:manage']);
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-console-nodes-'));
    root = path.join(scratch, 'root');
    fs.mkdirSync(root);
    const created = await harness.gateway.call('POST', '/api/nodes', {
      body: { name: 'backups', rootPath: root },
    });
    nodeId = created.body.data.id;
  });
  afterAll(async () => {
    await harness?.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  async function openPage(target: string, viewport?: { width: number; height: number }) {
    const opened = await harness.openSignedIn(manager, target, viewport);
    return opened;
  }

  /** A local file of random bytes (on disk, so it keeps its modification time between picks). */
  function localFile(name: string, size: number) {
    const file = path.join(scratch, name);
    fs.writeFileSync(file, crypto.randomBytes(size));
    return file;
  }

  async function pickFile(page: Page, trigger: () => Promise<void>, file: string) {
    const chooser = page.waitForEvent('filechooser');
    await trigger();
    await (await chooser).setFiles(file);
  }

  const uploadsOf = async () =>
    (await harness.gateway.call('GET', `/api/nodes/${nodeId}/files/uploads`)).body.data as {
      id: string;
      path: string;
      status: string;
      receivedBytes: number;
    }[];

  it('adds a node through the form, which the API then lists', async () => {
    const { page, problems } = await openPage('/nodes');
    await page.getByRole('button', { name: 'Add node' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add a node' });
    const directory = fs.mkdtempSync(path.join(scratch, 'added-'));
    await dialog.getByLabel('Name', { exact: true }).fill('media');
    await dialog.getByLabel('Root directory').fill(directory);
    expect(await accessibilityViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Add node' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('table', { name: 'Nodes' }).getByText('media').waitFor();
    const listed = (await harness.gateway.call('GET', '/api/nodes', { query: { name: 'media' } })).body.data;
    expect(listed).toMatchObject([{ name: 'media', rootPath: directory }]);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'nodes');
    expect(problems).toEqual([]);
  });

  it('shows why a root directory was refused', async () => {
    const { page } = await openPage('/nodes');
    await page.getByRole('button', { name: 'Add node' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add a node' });
    await dialog.getByLabel('Name', { exact: true }).fill('nowhere');
    await dialog.getByLabel('Root directory').fill(path.join(scratch, 'missing'));
    await dialog.getByRole('button', { name: 'Add node' }).click();
    await dialog
      .getByRole('alert')
      .getByText(/ROOT_NOT_FOUND|does not exist/i)
      .waitFor();
  });

  it('uploads a file in chunks, which then lies in the node', async () => {
    const file = localFile('report.bin', 3 * CHUNK + 100);
    const { page } = await openPage(`/nodes/${nodeId}`);
    await page.getByRole('heading', { name: 'backups' }).waitFor();
    await pickFile(page, () => page.getByLabel('File', { exact: true }).click(), file);
    await page.getByLabel('Path on the node').fill('reports/2026.bin');
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByRole('status').getByText('Uploaded reports/2026.bin.').waitFor();
    expect(fs.readFileSync(path.join(root, 'reports/2026.bin')).equals(fs.readFileSync(file))).toBe(true);
    expect((await uploadsOf()).find((upload) => upload.path === 'reports/2026.bin')?.status).toBe('complete');
  });

  it('resumes an interrupted upload after a reload, from where the gateway stands', async () => {
    const file = localFile('disk.img', 5 * CHUNK + 1234);
    const { page } = await openPage(`/nodes/${nodeId}`);
    await page.getByRole('heading', { name: 'backups' }).waitFor();
    // The connection drops after two chunks arrived.
    await page.route('**/chunks?offset=*', (route) =>
      Number(new URL(route.request().url()).searchParams.get('offset')) >= 2 * CHUNK
        ? route.abort()
        : route.continue(),
    );
    await pickFile(page, () => page.getByLabel('File', { exact: true }).click(), file);
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByText('The upload of disk.img stopped').waitFor();
    expect((await uploadsOf()).find((upload) => upload.path === 'disk.img')).toMatchObject({
      status: 'open',
      receivedBytes: 2 * CHUNK,
    });
    await page.unroute('**/chunks?offset=*');

    await page.reload();
    const progress = page.getByRole('progressbar', { name: 'Upload of disk.img' });
    await expect(progress.getAttribute('aria-valuenow')).resolves.toBe(
      String(Math.floor(((2 * CHUNK) / (5 * CHUNK + 1234)) * 100)),
    );
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'nodes-upload-paused');
    const offsets: number[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.endsWith('/chunks')) offsets.push(Number(url.searchParams.get('offset')));
    });
    await pickFile(page, () => page.getByRole('button', { name: 'Resume disk.img' }).click(), file);
    await page.getByRole('status').getByText('Uploaded disk.img.').waitFor();
    expect(offsets[0]).toBe(2 * CHUNK);
    expect(fs.readFileSync(path.join(root, 'disk.img')).equals(fs.readFileSync(file))).toBe(true);
  });

  it('refuses to resume with a file of another size', async () => {
    const created = await harness.gateway.call('POST', `/api/nodes/${nodeId}/files/uploads`, {
      body: { path: 'sized.bin', totalBytes: 2 * CHUNK },
    });
    const { page } = await openPage(`/nodes/${nodeId}`);
    await pickFile(
      page,
      () => page.getByRole('button', { name: 'Resume sized.bin' }).click(),
      localFile('other.bin', 10),
    );
    await page.getByText(`other.bin has 10 bytes; this upload is of a file of ${2 * CHUNK} bytes.`).waitFor();
    expect(
      (await harness.gateway.call('GET', `/api/nodes/${nodeId}/files/uploads/${created.body.data.id}`)).body
        .data,
    ).toMatchObject({ status: 'open', receivedBytes: 0 });
  });

  it('cancels an open upload after confirming, which the API then shows aborted', async () => {
    const created = await harness.gateway.call('POST', `/api/nodes/${nodeId}/files/uploads`, {
      body: { path: 'abandoned.bin', totalBytes: 2 * CHUNK },
    });
    const uploadId = created.body.data.id;
    await harness.gateway.call('PUT', `/api/nodes/${nodeId}/files/uploads/${uploadId}/chunks?offset=0`, {
      rawBody: crypto.randomBytes(CHUNK),
      headers: { 'content-type': 'application/octet-stream' },
    });
    const { page } = await openPage(`/nodes/${nodeId}`);
    await page.getByRole('button', { name: 'Cancel abandoned.bin' }).click();
    const confirmation = page.getByRole('dialog', { name: 'Cancel the upload of abandoned.bin?' });
    expect(await accessibilityViolations(page)).toEqual([]);
    await confirmation.getByRole('button', { name: 'Cancel upload' }).click();
    await confirmation.waitFor({ state: 'hidden' });
    expect(
      (await harness.gateway.call('GET', `/api/nodes/${nodeId}/files/uploads/${uploadId}`)).body.data.status,
    ).toBe('aborted');
  });

  it('is not offered to a user without a nodes scope', async () => {
    expect(await harness.navigationFor(['admin:users'])).not.toContain('Nodes');
  });

  it('fits a phone screen: the node and its uploads do not scroll sideways', async () => {
    const { page } = await openPage(`/nodes/${nodeId}`, PHONE);
    await page.getByRole('table', { name: 'Uploads' }).getByText('reports/2026.bin').waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await screenshot(page, 'nodes-phone');
  });
});
