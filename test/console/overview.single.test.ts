import { afterAll, beforeAll, expect, it } from 'vitest';
import { containerhostHealthResults } from '../../src/db/schema/index.js';
import { createWebhook, fastSiem } from '../audit/helpers.js';
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
import { eventually } from '../support/eventually.js';

/**
 * A saved health check whose latest result is offline, written as the background job writes it (the
 * job's own runs find the node's socket missing and stay offline).
 */
async function saveOfflineHealthCheck(harness: ConsoleHarness, containerName: string): Promise<void> {
  const node = await harness.gateway.call('POST', '/api/containerhost/nodes', {
    body: { name: 'build-01', endpoint: 'unix:///run/infragate-test/build-01.sock' },
  });
  const check = await harness.gateway.call(
    'PUT',
    `/api/containerhost/nodes/${node.body.data.id}/containers/${containerName}/health-check`,
    { body: { hostPort: 8080 } },
  );
  await harness.gateway.deps.db.insert(containerhostHealthResults).values({
    checkId: check.body.data.id,
    ok: false,
    status: 'offline',
    httpStatus: null,
    responseMs: null,
    slow: false,
    bodyMatched: null,
    url: 'http://127.0.0.1:8080/',
    error: 'connection refused',
    checkedAt: new Date(),
  });
}

describeInBrowser(
  'the Overview page',
  () => {
    let harness: ConsoleHarness;
    let pki: TestPki;
    let operator: ConsoleUser;
    beforeAll(async () => {
      // One failed attempt fails a delivery and opens the circuit (for longer than the test), so
      // the trouble shows at once and stays.
      harness = await startConsole(
        fastSiem({ circuitThreshold: 1, maxAttempts: 1, retryBaseMs: 600_000, retryMaxMs: 600_000 }),
      );
      pki = makeTestPki();
      operator = await harness.createUser([
        'audit:view',
        'certificates:view',
        'containerhost:view',
        'admin:users',
      ]);
      const nobodyListens = `http://127.0.0.1:${await freePort()}/events`;
      const destination = await createWebhook(harness.gateway, nobodyListens, {
        name: 'siem-east',
        batchSize: 1,
      });
      // The destination exports what is recorded after it: the upload records an event.
      const uploaded = await harness.gateway.call('POST', '/api/ssl-certificates/upload', {
        body: {
          name: 'legacy-portal',
          certificatePem: pki.expiredLeaf.certificatePem,
          privateKeyPem: pki.expiredLeaf.keyPem,
          allowExpired: true,
        },
      });
      expect(uploaded.status).toBe(201);
      await saveOfflineHealthCheck(harness, 'billing-api');
      await eventually(async () => {
        const { health } = (
          await harness.gateway.call('GET', `/api/audit/siem/destinations/${destination.id}`)
        ).body.data;
        return health.circuit === 'open' && health.backlog.failed > 0;
      }, 'the destination failing');
    });
    afterAll(async () => {
      await harness?.close();
      pki?.cleanup();
    });

    async function openOverview(viewport?: { width: number; height: number }) {
      const opened = await harness.openSignedIn(operator, '/', viewport);
      await opened.page.waitForURL('**/overview');
      await opened.page.getByRole('heading', { name: 'Overview' }).waitFor();
      return opened;
    }

    it('shows a SIEM destination whose deliveries failed and whose circuit is open', async () => {
      const { page } = await openOverview();
      const siem = page.getByRole('region', { name: 'SIEM export' });
      await siem.getByText('siem-east').waitFor();
      await siem.getByText('Circuit open').waitFor();
      await siem.getByText(/failed deliver/).waitFor();
    });

    it('shows a container whose health check is offline, linked to its health check', async () => {
      const { page } = await openOverview();
      const health = page.getByRole('region', { name: 'Container health' });
      const failing = health.getByRole('listitem').filter({ hasText: 'billing-api' });
      await failing.getByText('offline').waitFor();
      await failing.getByRole('link', { name: 'billing-api' }).click();
      await page.waitForURL(/\/containers\/[0-9a-f-]+\/containers\/billing-api\/health$/);
    });

    it('shows a certificate that expired or expires within 30 days', async () => {
      const { page } = await openOverview();
      const certificates = page.getByRole('region', { name: 'Certificates expiring soon' });
      const row = certificates.getByRole('row').filter({ hasText: 'legacy-portal' });
      await row.getByText('Expired').waitFor();
    });

    it('shows the recent audit events', async () => {
      const { page } = await openOverview();
      const events = page.getByRole('region', { name: 'Recent audit events' });
      await events.getByText('certificates.certificate.uploaded').first().waitFor();
    });

    it('passes the accessibility checks', async () => {
      const { page, problems } = await openOverview();
      await page.getByRole('region', { name: 'Recent audit events' }).getByRole('table').waitFor();
      await page.getByRole('region', { name: 'SIEM export' }).getByText('siem-east').waitFor();
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'overview');
      expect(problems).toEqual([]);
    });

    it('fits a phone screen without scrolling sideways', async () => {
      const { page } = await openOverview(PHONE);
      await page.getByRole('region', { name: 'Recent audit events' }).getByRole('table').waitFor();
      expect(await scrollsSideways(page)).toBe(false);
      await screenshot(page, 'overview-phone');
    });
  },
  openssl,
);
