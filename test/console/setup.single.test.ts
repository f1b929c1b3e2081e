import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleSetupCodes } from '../../src/db/schema/index.js';
import { createSetupCode } from '../../src/modules/console/setup-codes.js';
import { launchChromium } from '../services/chromium.js';
import { ensureConsoleBuilt } from '../support/build.js';
import { startServeProcess } from '../support/cli.js';
import {
  accessibilityViolations,
  type ConsoleHarness,
  describeInBrowser,
  PHONE,
  STEP_TIMEOUT_MS,
  screenshot,
  scrollsSideways,
  startConsole,
} from '../support/console.js';

const PASSWORD = 'chosen in the browser';

describeInBrowser('first-start setup', () => {
  describe('the link `infragate serve` prints on the first start', () => {
    let browser: Browser;
    let server: Awaited<ReturnType<typeof startServeProcess>>;
    let dataDir: string;
    beforeAll(async () => {
      await ensureConsoleBuilt();
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-setup-'));
      server = await startServeProcess({ INFRAGATE_DATA_DIR: dataDir, DATABASE_URL: '' });
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
      await server?.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    const openLink = async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      page.setDefaultTimeout(STEP_TIMEOUT_MS);
      await page.goto(server.setupLink!);
      return page;
    };

    it('is printed beside the API token', () => {
      expect(server.firstToken).toBeDefined();
      expect(server.setupLink).toMatch(new RegExp(`^${server.baseUrl}/setup\\?code=`));
    });

    it('sets the password of admin@localhost and signs in; the password then works', async () => {
      const page = await openLink();
      await page.getByText('admin@localhost').waitFor();
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'setup');
      await page.getByLabel('New password').fill(PASSWORD);
      await page.getByLabel('Repeat the password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Set password and sign in' }).click();
      await page.waitForURL('**/overview');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).waitFor();
      const login = await fetch(`${server.baseUrl}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@localhost', password: PASSWORD }),
      });
      expect(login.status).toBe(200);
    });

    it('is refused once used', async () => {
      const page = await openLink();
      const refusal = page.getByRole('alert');
      await expect(refusal.textContent()).resolves.toContain('was used already');
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'setup-used');
    });
  });

  describe('a link whose code', () => {
    let harness: ConsoleHarness;
    beforeAll(async () => {
      harness = await startConsole();
    });
    afterAll(() => harness?.close());

    it('expired is refused, and says what to do instead', async () => {
      const created = await harness.gateway.call('POST', '/api/admin/users', {
        body: { email: 'late@test', name: 'Late', group: 'admins' },
      });
      const userId = created.body.data.id;
      const { code } = await createSetupCode(harness.gateway.deps.db, userId, 3600);
      await harness.gateway.deps.db
        .update(consoleSetupCodes)
        .set({ expiresAt: sql`now() - interval '1 second'` })
        .where(eq(consoleSetupCodes.userId, userId));
      const { page } = await harness.open(`/setup?code=${code}`);
      await expect(page.getByRole('alert').textContent()).resolves.toContain('has expired');
    });

    it('is fresh shows the password form on a phone screen without scrolling sideways', async () => {
      const created = await harness.gateway.call('POST', '/api/admin/users', {
        body: { email: 'phone-setup@test', name: 'On A Phone', group: 'admins' },
      });
      const { code } = await createSetupCode(harness.gateway.deps.db, created.body.data.id, 3600);
      const { page } = await harness.open(`/setup?code=${code}`, PHONE);
      await page.getByText('phone-setup@test').waitFor();
      await page.getByLabel('Repeat the password').waitFor();
      expect(await scrollsSideways(page)).toBe(false);
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'setup-phone');
    });

    it('is missing is refused', async () => {
      const { page } = await harness.open('/setup');
      await expect(page.getByRole('alert').textContent()).resolves.toContain('The link has no code');
    });
  });
});
