import fs from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { makeTestPki, openssl, type TestPki } from '../services/openssl-pki.js';
import { type Pebble, pebbleAvailable, startPebble } from '../services/pebble.js';
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
import { eventually } from '../support/eventually.js';

const pebble = pebbleAvailable();

describeInBrowser(
  'the Certificates page',
  () => {
    let harness: ConsoleHarness;
    let pki: TestPki;
    let ca: Pebble | undefined;
    let manager: ConsoleUser;
    beforeAll(async () => {
      pki = makeTestPki();
      // Certificates Pebble issues live ten days, so an issued one shows the "within 30 days" badge.
      // Pebble validates HTTP-01 on the console's own port: every name resolves to 127.0.0.1 there.
      const httpPort = await freePort();
      if (pebble.ok) {
        ca = await startPebble({ httpPort, certificateValiditySeconds: 10 * 86_400 });
      }
      const { acme } = loadConfig({});
      harness = await startConsole(
        ca ? { acme: { ...acme, trustedCaFile: ca.tlsCaFile, intervalMs: 100, retryBaseSeconds: 60 } } : {},
        { port: httpPort },
      );
      manager = await harness.createUser(['certificates:manage']);
      for (const [name, leaf, allowExpired] of [
        ['legacy-portal', pki.expiredLeaf, true],
        ['shop-ec', { certificatePem: pki.ecLeaf.certificatePem, keyPem: pki.ecLeaf.keyPem }, false],
      ] as const) {
        const uploaded = await harness.gateway.call('POST', '/api/ssl-certificates/upload', {
          body: { name, certificatePem: leaf.certificatePem, privateKeyPem: leaf.keyPem, allowExpired },
        });
        expect(uploaded.status).toBe(201);
      }
    });
    afterAll(async () => {
      await harness?.close();
      await ca?.stop();
      pki?.cleanup();
    });

    async function openAs(
      user: ConsoleUser,
      path = '/certificates',
      viewport?: { width: number; height: number },
    ) {
      const opened = await harness.openSignedIn(user, path, viewport);
      await opened.page.getByRole('heading', { level: 1 }).waitFor();
      return opened;
    }

    const certificateNamed = async (name: string) =>
      (await harness.gateway.call('GET', '/api/ssl-certificates', { query: { q: name } })).body.data.find(
        (certificate: { name: string }) => certificate.name === name,
      );

    const rowOf = (page: Page, name: string) =>
      page.getByRole('table', { name: 'Certificates' }).getByRole('row').filter({ hasText: name });

    /** Opens the upload dialog and fills in a name and the certificate (not submitted). */
    async function startUpload(name: string, certificatePem: string) {
      const opened = await openAs(manager);
      await opened.page.getByRole('button', { name: 'Upload certificate' }).first().click();
      const dialog = opened.page.getByRole('dialog', { name: 'Upload a certificate' });
      await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
      await dialog.getByRole('textbox', { name: 'Certificate', exact: true }).fill(certificatePem);
      return { ...opened, dialog };
    }

    it('lists the certificates with their expiry badges, and passes the accessibility checks', async () => {
      const { page, problems } = await openAs(manager);
      await rowOf(page, 'legacy-portal').getByText('Expired', { exact: true }).waitFor();
      await rowOf(page, 'shop-ec')
        .getByText(/^Valid for \d+ days$/)
        .waitFor();
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'certificates');
      expect(problems).toEqual([]);
    });

    it('finds a certificate by the search box, on the server', async () => {
      const { page } = await openAs(manager);
      await page.getByRole('searchbox', { name: 'Search certificates' }).fill('legacy');
      await page.waitForURL('**/certificates?q=legacy');
      // The unfiltered list shows legacy-portal too, so wait for the other rows to go.
      await rowOf(page, 'shop-ec').waitFor({ state: 'detached' });
      await rowOf(page, 'legacy-portal').waitFor();
      expect(await page.getByRole('table', { name: 'Certificates' }).getByRole('row').count()).toBe(2);
    });

    it('uploads a certificate pasted and picked from a file, which the API then lists', async () => {
      const { page, dialog } = await startUpload('www-example', pki.rsaLeaf.certificatePem);
      const chooser = page.waitForEvent('filechooser');
      await dialog.getByRole('button', { name: 'Choose file for Private key' }).click();
      await (await chooser).setFiles({
        name: 'www.key',
        mimeType: 'application/x-pem-file',
        buffer: Buffer.from(pki.rsaLeaf.keyPem),
      });
      // The picked file is read asynchronously: the field fills a moment after the pick.
      await expect
        .poll(() => dialog.getByRole('textbox', { name: 'Private key' }).inputValue())
        .toBe(pki.rsaLeaf.keyPem);
      await dialog.getByRole('textbox', { name: 'Chain' }).fill(pki.chainPem);
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'certificates-upload');
      await dialog.getByRole('button', { name: 'Upload certificate' }).click();
      await page.getByRole('heading', { name: 'www-example' }).waitFor();
      await page.getByText('rsa.example.test, www.example.test, 10.0.0.1').waitFor();
      expect(await certificateNamed('www-example')).toMatchObject({ chainLength: 2, keyType: 'rsa' });
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'certificates-detail');
    });

    /** The message shown under the key field, checked to be the field's own description. */
    async function keyFieldError(dialog: Locator, text: string | RegExp) {
      const message = dialog.getByText(text);
      await message.waitFor();
      const key = dialog.getByRole('textbox', { name: 'Private key' });
      await expect(key.getAttribute('aria-describedby')).resolves.toContain(await message.getAttribute('id'));
    }

    it('shows a key that is not PEM next to the key field, and stores nothing', async () => {
      const { dialog } = await startUpload('bad-key', pki.rsaLeaf.certificatePem);
      await dialog.getByRole('textbox', { name: 'Private key' }).fill('not a key');
      await dialog.getByRole('button', { name: 'Upload certificate' }).click();
      await keyFieldError(dialog, /^The private key is not PEM: expected a -----BEGIN PRIVATE KEY-----/);
      await expect(dialog.getByRole('alert').textContent()).resolves.toContain(
        'see the messages next to them',
      );
      expect(await certificateNamed('bad-key')).toBeUndefined();
    });

    it('shows a key of another certificate next to the key field, with the reason', async () => {
      const { dialog } = await startUpload('mismatched', pki.rsaLeaf.certificatePem);
      await dialog.getByRole('textbox', { name: 'Private key' }).fill(pki.otherRsaKeyPem);
      await dialog.getByRole('button', { name: 'Upload certificate' }).click();
      await keyFieldError(dialog, /^The private key does not belong to the certificate/);
      expect(await certificateNamed('mismatched')).toBeUndefined();
    });

    it('downloads the certificate and its chain as PEM', async () => {
      const certificate = await certificateNamed('www-example');
      const { page } = await openAs(manager, `/certificates/${certificate.id}`);
      const download = page.waitForEvent('download');
      await page.getByRole('link', { name: 'Download PEM of www-example' }).click();
      const file = await (await download).path();
      const expected = await harness.gateway.call('GET', `/api/ssl-certificates/${certificate.id}/download`, {
        query: { format: 'json' },
      });
      expect(fs.readFileSync(file, 'utf8')).toBe(expected.body.data.fullChainPem);
    });

    it('replaces an uploaded certificate in place: same id, new material', async () => {
      const before = await certificateNamed('www-example');
      const { page } = await openAs(manager, `/certificates/${before.id}`);
      await page.getByRole('button', { name: 'Replace' }).click();
      const dialog = page.getByRole('dialog', { name: 'Replace www-example' });
      await dialog
        .getByRole('textbox', { name: 'Certificate', exact: true })
        .fill(pki.ed25519Leaf.certificatePem);
      await dialog.getByRole('textbox', { name: 'Private key' }).fill(pki.ed25519Leaf.keyPem);
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'certificates-replace');
      await dialog.getByRole('button', { name: 'Replace certificate' }).click();
      await dialog.waitFor({ state: 'hidden' });
      const after = await certificateNamed('www-example');
      expect(after).toMatchObject({ id: before.id, keyType: 'ed25519' });
      expect(after.fingerprintSha256).not.toBe(before.fingerprintSha256);
    });

    it('deletes a certificate after confirming', async () => {
      const certificate = await certificateNamed('shop-ec');
      const { page } = await openAs(manager, `/certificates/${certificate.id}`);
      await page.getByRole('button', { name: 'Delete' }).click();
      const confirmation = page.getByRole('dialog', { name: 'Delete shop-ec?' });
      expect(await accessibilityViolations(page)).toEqual([]);
      await confirmation.getByRole('button', { name: 'Delete' }).click();
      await page.waitForURL(/\/certificates$/);
      expect(await certificateNamed('shop-ec')).toBeUndefined();
    });

    it.skipIf(!pebble.ok)(
      'orders a certificate with manual DNS-01, shows the records, and follows the order to issued after Confirm',
      async () => {
        const { page } = await openAs(manager);
        await page.getByRole('button', { name: 'Order with ACME' }).first().click();
        const dialog = page.getByRole('dialog', { name: 'Order a certificate with ACME' });
        await dialog.getByRole('textbox', { name: 'Name' }).fill('manual-dns');
        const domains = dialog.getByRole('combobox', { name: 'Domains' });
        await domains.fill('manual.example.test');
        await domains.press('Enter');
        await dialog.getByRole('radio', { name: 'DNS-01' }).check();
        await dialog.getByRole('combobox', { name: 'DNS provider' }).waitFor();
        await dialog.getByRole('textbox', { name: 'Account email' }).fill('ops@example.test');
        await dialog.getByRole('textbox', { name: 'Directory URL' }).fill(ca!.directoryUrl);
        expect(await accessibilityViolations(page)).toEqual([]);
        await screenshot(page, 'certificates-acme-order');
        await dialog.getByRole('button', { name: 'Order certificate' }).click();

        await page.getByRole('heading', { name: 'manual-dns' }).waitFor();
        const records = page.getByRole('region', { name: 'DNS records to create' });
        await records.getByText('_acme-challenge.manual.example.test').waitFor();
        const { acme } = await certificateNamed('manual-dns');
        expect(acme.awaitingConfirmation).toBe(true);
        await records.getByText(acme.dnsRecords[0].value).waitFor();
        expect(await accessibilityViolations(page)).toEqual([]);
        await screenshot(page, 'certificates-acme-records');

        await ca!.challtestsrv.setTxt(acme.dnsRecords[0].name, acme.dnsRecords[0].value);
        await records.getByRole('button', { name: 'Confirm' }).click();
        // The page asks again by itself while the order runs: no reload.
        await page.getByText(/^Expires in \d+ days?$/).waitFor({ timeout: 30_000 });
        expect(await certificateNamed('manual-dns')).toMatchObject({ status: 'valid', lastError: null });
        expect(await accessibilityViolations(page)).toEqual([]);
        await screenshot(page, 'certificates-acme-issued');
      },
    );

    /** Fills in and sends the ACME order dialog for an HTTP-01 certificate of one name. */
    async function orderHttp01(page: Page, name: string, domain: string) {
      await page.getByRole('button', { name: 'Order with ACME' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Order a certificate with ACME' });
      await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
      const domains = dialog.getByRole('combobox', { name: 'Domains' });
      await domains.fill(domain);
      await domains.press('Enter');
      await dialog.getByRole('radio', { name: 'HTTP-01' }).check();
      await dialog.getByRole('textbox', { name: 'Account email' }).fill('ops@example.test');
      await dialog.getByRole('textbox', { name: 'Directory URL' }).fill(ca!.directoryUrl);
      await dialog.getByRole('button', { name: 'Order certificate' }).click();
      await page.getByRole('heading', { name }).waitFor();
    }

    it.skipIf(!pebble.ok)(
      'orders a certificate with HTTP-01 and follows the order to issued, without a reload',
      async () => {
        const { page } = await openAs(manager);
        await orderHttp01(page, 'http-order', 'http.example.test');
        // The CA fetched its token from this gateway; the page asks again by itself while it runs.
        await page.getByText(/^Expires in \d+ days?$/).waitFor({ timeout: 30_000 });
        await page.getByText(/^Issued\. The gateway renews it from /).waitFor();
        expect(await certificateNamed('http-order')).toMatchObject({
          status: 'valid',
          lastError: null,
          sans: ['http.example.test'],
        });
        expect(await accessibilityViolations(page)).toEqual([]);
      },
    );

    it.skipIf(!pebble.ok)("shows a failed order with the CA's reason", async () => {
      // The name points where nothing answers HTTP: the CA's validation is refused.
      await ca!.challtestsrv.addA('nowhere.example.test', ['127.0.0.2']);
      const { page } = await openAs(manager);
      await orderHttp01(page, 'failed-order', 'nowhere.example.test');
      const failure = page.getByRole('alert').filter({ hasText: 'The order failed' });
      await failure.waitFor({ timeout: 30_000 });
      const { lastError } = await certificateNamed('failed-order');
      expect(lastError).toMatch(/urn:ietf:params:acme:error:connection/);
      await failure.getByText(lastError, { exact: true }).waitFor();
      await failure.getByText(/^The gateway tries again with a new order at /).waitFor();
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'certificates-acme-failed');
    });

    it.skipIf(!pebble.ok)(
      'renews an ACME certificate on Renew now: manual DNS-01 asks for records again',
      async () => {
        const certificate = await eventually(async () => {
          const found = await certificateNamed('manual-dns');
          return found?.status === 'valid' ? found : undefined;
        }, 'the issued certificate');
        const { page } = await openAs(manager, `/certificates/${certificate.id}`);
        await page.getByRole('button', { name: 'Renew now' }).click();
        // The records appear once the CA answered the new order, which a loaded machine can take a while for.
        await page.getByRole('region', { name: 'DNS records to create' }).waitFor({ timeout: 30_000 });
        expect(await certificateNamed('manual-dns')).toMatchObject({
          status: 'renewing',
          acme: { awaitingConfirmation: true },
        });
      },
    );

    it('adds a DNS provider whose TSIG secret is never answered, and deletes it', async () => {
      const { page } = await openAs(manager, '/certificates/dns-providers');
      await page.getByRole('button', { name: 'Add DNS provider' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Add a DNS provider' });
      await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('primary-dns');
      await dialog.getByRole('textbox', { name: 'Zone' }).fill('example.test');
      await dialog.getByRole('textbox', { name: 'Server' }).fill('127.0.0.1');
      await dialog.getByRole('textbox', { name: 'TSIG key name' }).fill('acme-update');
      await dialog.getByLabel('TSIG secret').fill('c2VjcmV0LXRzaWcta2V5');
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'certificates-dns-provider');
      await dialog.getByRole('button', { name: 'Add DNS provider' }).click();
      await dialog.waitFor({ state: 'hidden' });
      const listed = await harness.gateway.call('GET', '/api/ssl-certificates/dns-providers');
      expect(listed.body.data).toHaveLength(1);
      expect(listed.body.data[0]).toMatchObject({ name: 'primary-dns', port: 53, ttl: 60 });
      expect(JSON.stringify(listed.body)).not.toContain('c2VjcmV0LXRzaWcta2V5');
      await page.getByRole('table', { name: 'DNS providers' }).getByText('primary-dns').waitFor();
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'certificates-dns-providers');

      await page.getByRole('button', { name: 'Delete DNS provider primary-dns' }).click();
      await page
        .getByRole('dialog', { name: 'Delete the DNS provider primary-dns?' })
        .getByRole('button', { name: 'Delete' })
        .click();
      await page.getByText('No DNS providers', { exact: true }).waitFor();
      expect((await harness.gateway.call('GET', '/api/ssl-certificates/dns-providers')).body.data).toEqual(
        [],
      );
    });

    it('shows a user with certificates:view the list, but no way to change anything', async () => {
      const viewer = await harness.createUser(['certificates:view']);
      const { page } = await openAs(viewer);
      await rowOf(page, 'legacy-portal').waitFor();
      await expect(page.getByRole('button', { name: 'Upload certificate' }).count()).resolves.toBe(0);
      await expect(page.getByRole('button', { name: 'Order with ACME' }).count()).resolves.toBe(0);
      await rowOf(page, 'legacy-portal').getByRole('link', { name: 'legacy-portal', exact: true }).click();
      await page.getByRole('heading', { name: 'legacy-portal' }).waitFor();
      await page.getByRole('link', { name: 'Download PEM of legacy-portal' }).waitFor();
      await expect(page.getByRole('button', { name: 'Delete' }).count()).resolves.toBe(0);
      await expect(page.getByRole('button', { name: 'Replace' }).count()).resolves.toBe(0);
    });

    it('shows no Certificates link to a user without a certificates scope', async () => {
      expect(await harness.navigationFor(['admin:users'])).not.toContain('Certificates');
    });

    it('fits a phone screen: the list and a certificate do not scroll sideways', async () => {
      const { page } = await openAs(manager, '/certificates', PHONE);
      await rowOf(page, 'legacy-portal').waitFor();
      expect(await scrollsSideways(page)).toBe(false);
      await screenshot(page, 'certificates-phone');
      await rowOf(page, 'www-example').getByRole('link', { name: 'www-example', exact: true }).click();
      await page.getByRole('heading', { name: 'www-example' }).waitFor();
      expect(await scrollsSideways(page)).toBe(false);
      await screenshot(page, 'certificates-detail-phone');
    });
  },
  openssl,
);
