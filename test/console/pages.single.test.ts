import crypto from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tarGz } from '../pages/archives.js';
import { createProject, deploy, deployOk, pagesConfig } from '../pages/helpers.js';
import { type KnotZone, knotBinaries, startKnotZone } from '../pages/knot-dns.js';
import { makeTestPki, openssl, type TestPki } from '../services/openssl-pki.js';
import { freePort } from '../services/peers.js';
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

const HELLO = 'Hello from the console';
const knot = knotBinaries();

describeInBrowser(
  'the Pages page',
  () => {
    let harness: ConsoleHarness;
    let pki: TestPki;
    let manager: ConsoleUser;
    let site: { id: string; slug: string; name: string };
    let zone: KnotZone | undefined;
    beforeAll(async () => {
      pki = makeTestPki();
      // Knot answers every name under example.test with 127.0.0.1, and the domain checks ask this
      // gateway's own port: a domain proves itself by HTTP, or by a TXT record added to the zone.
      if (!knot.skipReason) zone = await startKnotZone('example.test');
      const port = await freePort();
      harness = await startConsole(
        zone ? { pages: pagesConfig({ dnsServers: [zone.server], verifyHttpPort: port }) } : {},
        { port },
      );
      manager = await harness.createUser(['pages:manage', 'certificates:view']);
      site = await createProject(harness.gateway, { name: 'Handbook', slug: 'handbook' });
      const uploaded = await harness.gateway.call('POST', '/api/ssl-certificates/upload', {
        body: {
          name: 'www-cert',
          certificatePem: pki.rsaLeaf.certificatePem,
          privateKeyPem: pki.rsaLeaf.keyPem,
        },
      });
      expect(uploaded.status).toBe(201);
    });
    afterAll(async () => {
      await harness?.close();
      await zone?.stop();
      pki?.cleanup();
    });

    async function openAs(user: ConsoleUser, path = '/pages', viewport?: { width: number; height: number }) {
      const opened = await harness.openSignedIn(user, path, viewport);
      await opened.page.getByRole('heading', { level: 1 }).waitFor();
      return opened;
    }

    const api = async (path: string) => (await harness.gateway.call('GET', path)).body;
    const deployments = async (projectId: string) =>
      (await api(`/api/pages/${projectId}/deployments`)).data as {
        id: string;
        production: boolean;
        pinned: boolean;
        previewUrl: string;
      }[];
    const tab = (page: Page, name: string) => page.getByRole('tab', { name }).click();

    it('lists the projects with a search box, and passes the accessibility checks', async () => {
      const { page, problems } = await openAs(manager);
      await page
        .getByRole('table', { name: 'Projects' })
        .getByRole('link', { name: 'Handbook', exact: true })
        .waitFor();
      await page.getByRole('searchbox', { name: 'Search projects' }).fill('nothing-like-it');
      await page.getByText('Nothing matches “nothing-like-it”.').waitFor();
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'pages');
      expect(problems).toEqual([]);
    });

    it('creates a project through the form, its slug following the name', async () => {
      const { page } = await openAs(manager);
      await page.getByRole('button', { name: 'Create project' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Create a project' });
      await dialog.getByRole('textbox', { name: 'Name' }).fill('Docs Site');
      await expect(dialog.getByRole('textbox', { name: 'Slug' }).inputValue()).resolves.toBe('docs-site');
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'pages-create');
      await dialog.getByRole('button', { name: 'Create project' }).click();
      await page.getByRole('heading', { name: 'Docs Site' }).waitFor();
      expect((await api('/api/pages/by-slug/docs-site')).data).toMatchObject({ name: 'Docs Site' });
    });

    it('shows a slug in use next to the slug field', async () => {
      const { page } = await openAs(manager);
      await page.getByRole('button', { name: 'Create project' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Create a project' });
      await dialog.getByRole('textbox', { name: 'Name' }).fill('Another handbook');
      await dialog.getByRole('textbox', { name: 'Slug' }).fill('handbook');
      await dialog.getByRole('button', { name: 'Create project' }).click();
      const message = dialog.getByText('Slug taken.', { exact: true });
      await message.waitFor();
      await expect(
        dialog.getByRole('textbox', { name: 'Slug' }).getAttribute('aria-describedby'),
      ).resolves.toContain(await message.getAttribute('id'));
    });

    it('deploys an archive with an upload progress bar, and the site goes live', async () => {
      // Random bytes do not compress: the upload is as large as this, so its progress is real.
      const archive = await tarGz({
        'index.html': `<h1>${HELLO}</h1>`,
        'blob.bin': crypto.randomBytes(512 * 1024),
      });
      const { page } = await openAs(manager, `/pages/${site.id}`);
      await page.getByRole('button', { name: 'Deploy', exact: true }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Deploy Handbook' });
      const chooser = page.waitForEvent('filechooser');
      await dialog.getByRole('button', { name: 'Archive' }).click();
      await (await chooser).setFiles({ name: 'site.tar.gz', mimeType: 'application/gzip', buffer: archive });
      expect(await accessibilityViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Deploy', exact: true }).click();
      const bar = dialog.getByRole('progressbar', { name: 'Upload of site.tar.gz' });
      await dialog.getByRole('link', { name: 'Open preview' }).waitFor();
      await expect(bar.getAttribute('aria-valuenow')).resolves.toBe('100');
      await dialog.getByText(/512(\.\d)? KiB of 512(\.\d)? KiB · deployed/).waitFor();
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'pages-deploy');
      await dialog.getByRole('button', { name: 'Done' }).click();
      const [deployment] = await deployments(site.id);
      expect(deployment).toMatchObject({ production: true });
      await page.getByRole('table', { name: 'Deployments' }).getByText(deployment!.id.slice(0, 8)).waitFor();
    });

    it('opens the live site from its link', async () => {
      const { page } = await openAs(manager, `/pages/${site.id}`);
      const popup = page.waitForEvent('popup');
      await page.getByRole('link', { name: 'Open site of Handbook (new tab)' }).click();
      const opened = await popup;
      await opened.waitForLoadState();
      expect(opened.url()).toMatch(/\/sites\/handbook\/$/);
      await expect(opened.textContent('body')).resolves.toContain(HELLO);
    });

    it('promotes an older deployment, pins and unpins it, with its preview link', async () => {
      const older = await deployOk(harness.gateway, site.id, await tarGz({ 'index.html': 'older' }), {
        promote: false,
      });
      const short = older.slice(0, 8);
      const { page } = await openAs(manager, `/pages/${site.id}`);
      const preview = page.getByRole('link', { name: `Preview deployment ${short} (new tab)` });
      const listed = (await deployments(site.id)).find((deployment) => deployment.id === older)!;
      await expect(preview.getAttribute('href')).resolves.toBe(listed.previewUrl);
      await page.getByRole('button', { name: `Promote deployment ${short}` }).click();
      const question = page.getByRole('dialog', { name: `Make deployment ${short} live?` });
      await question.getByText('promote it again to go back').waitFor();
      expect((await api(`/api/pages/${site.id}`)).data.productionDeploymentId).not.toBe(older);
      await question.getByRole('button', { name: 'Promote' }).click();
      await page.getByRole('button', { name: `Pin deployment ${short}` }).waitFor();
      expect((await api(`/api/pages/${site.id}`)).data.productionDeploymentId).toBe(older);

      await page.getByRole('button', { name: `Pin deployment ${short}` }).click();
      await page.getByRole('button', { name: `Unpin deployment ${short}` }).waitFor();
      expect((await deployments(site.id)).find((deployment) => deployment.id === older)?.pinned).toBe(true);
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'pages-project');

      await page.getByRole('button', { name: `Unpin deployment ${short}` }).click();
      await page.getByRole('button', { name: `Pin deployment ${short}` }).waitFor();
      expect((await deployments(site.id)).find((deployment) => deployment.id === older)?.pinned).toBe(false);
    });

    it('deletes a deployment that is neither live nor pinned, after confirming', async () => {
      const spare = await deployOk(harness.gateway, site.id, await tarGz({ 'index.html': 'spare' }), {
        promote: false,
      });
      const short = spare.slice(0, 8);
      const { page } = await openAs(manager, `/pages/${site.id}`);
      await page.getByRole('button', { name: `Delete deployment ${short}` }).click();
      await page
        .getByRole('dialog', { name: `Delete deployment ${short}?` })
        .getByRole('button', { name: 'Delete' })
        .click();
      await page.getByRole('button', { name: `Delete deployment ${short}` }).waitFor({ state: 'detached' });
      expect((await deployments(site.id)).map((deployment) => deployment.id)).not.toContain(spare);
    });

    it('adds a custom domain, shows the proof instructions, and chooses its certificate', async () => {
      const { page } = await openAs(manager, `/pages/${site.id}`);
      await tab(page, 'Domains');
      await page.getByRole('button', { name: 'Add domain' }).first().click();
      const adding = page.getByRole('dialog', { name: 'Add a custom domain' });
      await adding.getByRole('textbox', { name: 'Host name' }).fill('www.example.test');
      expect(await accessibilityViolations(page)).toEqual([]);
      await adding.getByRole('button', { name: 'Add domain' }).click();

      const dialog = page.getByRole('dialog', { name: 'www.example.test' });
      const [domain] = (await api(`/api/pages/${site.id}/domains`)).data;
      const dns = dialog.getByRole('region', { name: 'Proof by DNS' });
      await dns.getByText('_infragate-challenge.www.example.test').waitFor();
      await dns.getByText(domain.verification.dnsValue, { exact: true }).waitFor();
      await dialog
        .getByRole('region', { name: 'Proof by HTTP' })
        .getByText(domain.verification.httpUrl)
        .waitFor();
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'pages-domain');

      await dialog.getByRole('combobox', { name: 'Certificate' }).click();
      await page.getByRole('option', { name: /^www-cert/ }).click();
      await dialog.getByRole('button', { name: 'Save certificate' }).click();
      await page.getByText('www.example.test has its certificate.').waitFor();
      const certificate = (await api('/api/ssl-certificates')).data.find(
        (entry: { name: string }) => entry.name === 'www-cert',
      );
      expect((await api(`/api/pages/${site.id}/domains/${domain.id}`)).data.certificateId).toBe(
        certificate.id,
      );
    });

    /** Adds a domain through the API and opens its dialog from the Domains tab. */
    async function openDomain(hostname: string) {
      const added = await harness.gateway.call('POST', `/api/pages/${site.id}/domains`, {
        body: { hostname },
      });
      expect(added.status).toBe(201);
      const { page } = await openAs(manager, `/pages/${site.id}/domains`);
      await page.getByRole('button', { name: `Verify and configure ${hostname}` }).click();
      const dialog = page.getByRole('dialog', { name: hostname });
      await dialog.getByText('Not verified yet').waitFor();
      return { page, dialog, domain: added.body.data };
    }

    it.skipIf(knot.skipReason)(
      'verifies a domain with Verify by DNS once its TXT record is published',
      async () => {
        const { page, dialog, domain } = await openDomain('dns-proof.example.test');
        await zone!.addTxt(domain.verification.dnsName, domain.verification.dnsValue);
        await dialog.getByRole('button', { name: 'Verify by DNS' }).click();
        await page.getByText('dns-proof.example.test is verified: the site answers there now.').waitFor();
        await dialog.getByText('Verified', { exact: true }).waitFor();
        await dialog.getByText('Serves the live deployment at').waitFor();
        expect((await api(`/api/pages/${site.id}/domains/${domain.id}`)).data.status).toBe('verified');
        expect(await accessibilityViolations(page)).toEqual([]);
      },
    );

    it.skipIf(knot.skipReason)('verifies a domain pointed at the gateway with Verify by HTTP', async () => {
      const { page, dialog, domain } = await openDomain('http-proof.example.test');
      await dialog.getByRole('button', { name: 'Verify by HTTP' }).click();
      await page.getByText('http-proof.example.test is verified: the site answers there now.').waitFor();
      await dialog.getByText('Verified', { exact: true }).waitFor();
      expect((await api(`/api/pages/${site.id}/domains/${domain.id}`)).data.status).toBe('verified');
    });

    it.skipIf(knot.skipReason)('shows why a proof failed next to the status of the domain', async () => {
      const { page, dialog, domain } = await openDomain('no-proof.example.test');
      await dialog.getByRole('button', { name: 'Verify by DNS' }).click();
      await dialog.getByText('Verification failed').waitFor();
      await dialog.getByText(`DNS: no TXT record at ${domain.verification.dnsName}`).waitFor();
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'pages-domain-failed');
    });

    it('creates a deploy token shown once, which deploys until it is revoked', async () => {
      const { page } = await openAs(manager, `/pages/${site.id}/tokens`);
      await page.getByRole('button', { name: 'Create deploy token' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Create a deploy token' });
      await dialog.getByRole('textbox', { name: 'Name' }).fill('github-actions');
      expect(await accessibilityViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Create token' }).click();
      const shown = page.getByRole('dialog', { name: 'Your new deploy token' });
      const token = (await shown.getByText(/^igp_/).textContent())!;
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'pages-deploy-token');
      const archive = await tarGz({ 'index.html': 'from ci' });
      expect((await deploy(harness.gateway, site.id, archive, { token })).status).toBe(201);
      await shown.getByRole('button', { name: 'Done' }).click();

      const table = page.getByRole('table', { name: 'Deploy tokens' });
      await table.getByText('github-actions').waitFor();
      await expect(table.textContent()).resolves.not.toContain(token);
      await page.getByRole('button', { name: 'Revoke deploy token github-actions' }).click();
      await page
        .getByRole('dialog', { name: 'Revoke the deploy token github-actions?' })
        .getByRole('button', { name: 'Revoke' })
        .click();
      await table.getByText(/^Revoked/).waitFor();
      expect(await accessibilityViolations(page)).toEqual([]);
      expect((await deploy(harness.gateway, site.id, archive, { token })).status).toBe(401);
    });

    it('edits a project: a new name and single-page app serving', async () => {
      const { id } = await createProject(harness.gateway, { name: 'Draft', slug: 'draft' });
      const { page } = await openAs(manager, `/pages/${id}`);
      await page.getByRole('button', { name: 'Edit', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit Draft' });
      await dialog.getByRole('textbox', { name: 'Name' }).fill('Final');
      await dialog.getByRole('checkbox', { name: /^Single-page app/ }).check();
      expect(await accessibilityViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Save project' }).click();
      await page.getByRole('heading', { name: 'Final', exact: true }).waitFor();
      expect((await api(`/api/pages/${id}`)).data).toMatchObject({
        name: 'Final',
        slug: 'draft',
        spaFallback: true,
      });
    });

    it('deletes a project after confirming', async () => {
      const { id } = await createProject(harness.gateway, { name: 'Doomed', slug: 'doomed' });
      const { page } = await openAs(manager, `/pages/${id}`);
      await page.getByRole('button', { name: 'Delete project' }).click();
      const confirmation = page.getByRole('dialog', { name: 'Delete Doomed?' });
      expect(await accessibilityViolations(page)).toEqual([]);
      await confirmation.getByRole('button', { name: 'Delete project' }).click();
      await page.waitForURL(/\/pages$/);
      expect((await harness.gateway.call('GET', `/api/pages/${id}`)).status).toBe(404);
    });

    it('shows a user with pages:view the project, but no way to change it', async () => {
      const viewer = await harness.createUser(['pages:view']);
      const { page } = await openAs(viewer, `/pages/${site.id}`);
      await page.getByRole('table', { name: 'Deployments' }).waitFor();
      for (const name of ['Deploy', 'Edit', 'Delete project', 'Create project']) {
        await expect(page.getByRole('button', { name, exact: true }).count()).resolves.toBe(0);
      }
      await expect(
        page.getByRole('button', { name: /^(Promote|Pin|Unpin) deployment/ }).count(),
      ).resolves.toBe(0);
      await page.getByRole('link', { name: 'Open site of Handbook (new tab)' }).waitFor();
    });

    it('shows no Pages link to a user without a pages scope', async () => {
      expect(await harness.navigationFor(['certificates:view'])).not.toContain('Pages');
    });

    it('fits a phone screen: the projects and a project do not scroll sideways', async () => {
      const { page } = await openAs(manager, '/pages', PHONE);
      await page
        .getByRole('table', { name: 'Projects' })
        .getByRole('link', { name: 'Handbook', exact: true })
        .waitFor();
      expect(await scrollsSideways(page)).toBe(false);
      await screenshot(page, 'pages-phone');
      await page.getByRole('link', { name: 'Handbook', exact: true }).click();
      await page.getByRole('table', { name: 'Deployments' }).waitFor();
      expect(await scrollsSideways(page)).toBe(false);
      await screenshot(page, 'pages-project-phone');
    });
  },
  openssl,
);
