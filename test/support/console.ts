import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import axe from 'axe-core';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect } from 'vitest';
import type { Config } from '../../src/config.js';
import { chromiumBinary, launchChromium } from '../services/chromium.js';
import { ensureConsoleBuilt } from './build.js';
import { startTestGateway, type TestGateway } from './gateway.js';
import { type PageRecord, recordPage } from './page-record.js';

const SCREENSHOTS = path.resolve(import.meta.dirname, '../../test-results/console');

/**
 * A suite that drives the browser (and any other peer it names): skipped with the reason where one
 * is missing, failing under CI=true.
 */
export function describeInBrowser(
  title: string,
  suite: () => void,
  ...otherPeers: { path?: string; skipReason?: string }[]
): void {
  const missing = [chromiumBinary(), ...otherPeers].find((peer) => !peer.path);
  describe.skipIf(missing !== undefined)(`${title}${missing ? ` (${missing.skipReason})` : ''}`, () => {
    beforeEach(() => {
      pagesOfTest = [];
    });
    afterEach(async ({ task }) => {
      const opened = pagesOfTest ?? [];
      pagesOfTest = undefined;
      if (task.result?.state === 'fail' && opened.length > 0) {
        const described = await Promise.all(opened.map(({ record }) => record.describe()));
        console.error(`the pages of "${task.name}" when it failed:\n${described.join('\n')}`);
      }
      // A page left open would go on asking the gateway (and its peers) during the next tests.
      await Promise.all(opened.map(({ page }) => page.context().close()));
    });
    suite();
  });
}

/** The pages the running test opened (undefined between tests): closed after it, described if it failed. */
let pagesOfTest: { page: Page; record: PageRecord }[] | undefined;

/**
 * How long a browser step waits for what it needs (an element, a page): a missing element fails its
 * step with a message before the test's own timeout. Generous: on a loaded 2-core machine a page
 * can take seconds to appear (browser files run one at a time, vitest.config.ts).
 */
export const STEP_TIMEOUT_MS = 20_000;

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export interface ConsoleUser {
  email: string;
  password: string;
  name: string;
}

export interface ConsolePage {
  page: Page;
  /** Scripts the content security policy refused and errors the page threw; a test expects none. */
  problems: string[];
}

/** A real gateway on a free loopback port serving the built console, and one browser for the file. */
export interface ConsoleHarness {
  gateway: TestGateway;
  baseUrl: string;
  browser: Browser;
  /** A new browser context (its own cookies) with a page at `path`. */
  open(path?: string, viewport?: { width: number; height: number }): Promise<ConsolePage>;
  /**
   * A new browser context already signed in as `user` (through `POST /auth/login`, which the form
   * calls; the form itself is tested in sign-in.single.test.ts), with a page at `path`.
   */
  openSignedIn(
    user: ConsoleUser,
    path?: string,
    viewport?: { width: number; height: number },
  ): Promise<ConsolePage>;
  /** A user with a password, in a new group holding exactly these scopes (made through the API). */
  createUser(scopes: string[]): Promise<ConsoleUser>;
  /** The navigation links a new user holding exactly these scopes sees once signed in. */
  navigationFor(scopes: string[]): Promise<string[]>;
  close(): Promise<void>;
}

/** `port`: listen there rather than on any free port (a peer that connects back must know it first). */
export async function startConsole(
  overrides: Partial<Config> = {},
  { port }: { port?: number } = {},
): Promise<ConsoleHarness> {
  await ensureConsoleBuilt();
  const gateway = await startTestGateway(overrides);
  const baseUrl = port ? await gateway.app.listen({ port, host: '127.0.0.1' }) : await gateway.listen();
  const browser = await launchChromium();
  async function newPage(viewport: { width: number; height: number }): Promise<ConsolePage> {
    const context = await browser.newContext({ baseURL: baseUrl, viewport });
    context.setDefaultTimeout(STEP_TIMEOUT_MS);
    const page = await context.newPage();
    pagesOfTest?.push({ page, record: recordPage(page) });
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) problems.push(message.text());
    });
    return { page, problems };
  }
  async function open(target = '/', viewport = DESKTOP): Promise<ConsolePage> {
    const opened = await newPage(viewport);
    await opened.page.goto(target);
    return opened;
  }
  async function openSignedIn(user: ConsoleUser, target = '/', viewport = DESKTOP): Promise<ConsolePage> {
    const opened = await newPage(viewport);
    const login = await opened.page.request.post('/auth/login', {
      data: { email: user.email, password: user.password },
    });
    expect(login.status(), await login.text()).toBe(200);
    await opened.page.goto(target);
    return opened;
  }
  async function createUser(scopes: string[]): Promise<ConsoleUser> {
    const suffix = crypto.randomBytes(4).toString('hex');
    const group = `group-${suffix}`;
    const user = { email: `user-${suffix}@test`, password: `password-${suffix}`, name: `User ${suffix}` };
    expect((await gateway.call('POST', '/api/admin/groups', { body: { name: group, scopes } })).status).toBe(
      201,
    );
    const created = await gateway.call('POST', '/api/admin/users', { body: { ...user, group } });
    expect(created.status).toBe(201);
    return user;
  }
  return {
    gateway,
    baseUrl,
    browser,
    createUser,
    open,
    openSignedIn,
    async navigationFor(scopes) {
      const user = await createUser(scopes);
      const { page } = await open('/');
      await signIn(page, user);
      const navigation = page.getByRole('navigation', { name: 'Main' });
      // Account is open to everyone signed in: once it shows, so do the links the scopes allow.
      await navigation.getByRole('link', { name: 'Account' }).waitFor();
      const links = await navigation.getByRole('link').allTextContents();
      await page.context().close();
      return links;
    },
    async close() {
      await browser.close();
      await gateway.close();
    },
  };
}

/** Signs in through the form, as a person would. */
export async function signIn(page: Page, user: { email: string; password: string }): Promise<void> {
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

// Functions passed to page.evaluate run in the browser; this project has no DOM types, so they
// name what they use there.
interface InPageElement {
  parentElement: InPageElement | null;
  getClientRects(): { length: number };
}

interface InPage {
  requestAnimationFrame(callback: () => void): number;
  getComputedStyle(element: InPageElement): { opacity: string };
  axe: { run(options: axe.RunOptions): Promise<axe.AxeResults> };
  document: {
    documentElement: { scrollWidth: number; clientWidth: number };
    getAnimations(): { effect: { getTiming(): { iterations?: number } } | null }[];
    querySelectorAll(selector: string): Iterable<InPageElement>;
  };
}

/**
 * Waits until what fades or slides in (dialogs, toasts) is in place: a transition a click has just
 * scheduled starts within two frames, then every finite animation has ended and every dialog shown
 * is fully opaque (endless animations such as a loader's spin are not waited for). axe measures
 * contrast on what is painted.
 */
async function animationsDone(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const { requestAnimationFrame } = globalThis as unknown as InPage;
        requestAnimationFrame(() => requestAnimationFrame(() => resolve()));
      }),
  );
  await page.waitForFunction(() => {
    const { document, getComputedStyle } = globalThis as unknown as InPage;
    const opaque = (element: InPageElement | null): boolean =>
      element === null || (getComputedStyle(element).opacity === '1' && opaque(element.parentElement));
    return (
      document
        .getAnimations()
        .every((animation) => animation.effect?.getTiming().iterations === Number.POSITIVE_INFINITY) &&
      [...document.querySelectorAll('[role="dialog"]')]
        .filter((dialog) => dialog.getClientRects().length > 0)
        .every(opaque)
    );
  });
}

/** The serious and critical accessibility violations axe-core finds on the page as it is now. */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  await animationsDone(page);
  // Evaluated through the debugging protocol, which the page's content security policy does not govern.
  await page.evaluate(axe.source);
  const results = await page.evaluate(() => {
    return (globalThis as unknown as InPage).axe.run({ resultTypes: ['violations'] });
  });
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

/** Saves the page as test-results/console/<name>.png, for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** Whether the page scrolls sideways (it must not, even on a phone). */
export function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const { documentElement } = (globalThis as unknown as InPage).document;
    return documentElement.scrollWidth > documentElement.clientWidth;
  });
}

/** Clicks the button named `button`, then `confirm` in the confirmation dialog it opens, named `question`. */
export async function clickAndConfirm(page: Page, button: string, question: string, confirm: string) {
  await page.getByRole('button', { name: button }).click();
  await page.getByRole('dialog', { name: question }).getByRole('button', { name: confirm }).click();
}

/**
 * Presses Tab, as a keyboard user would, until `target` has the focus (at least once: a field a
 * dialog focused on opening is reached again round its focus trap); fails when it never does
 * (it cannot be reached with the keyboard) within `most` presses.
 */
export async function tabTo(page: Page, target: Locator, most = 60): Promise<void> {
  const focused = () =>
    target.evaluate(
      (element) =>
        element ===
        (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement,
    );
  for (let press = 0; press < most; press++) {
    await page.keyboard.press('Tab');
    if (await focused()) return;
  }
  throw new Error(`${target} is not reached with Tab within ${most} presses`);
}
