import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CONSOLE_BUILD_DIR } from '../../src/modules/console/bundle.js';
import { tarGz } from '../pages/archives.js';
import { createProject, deployOk } from '../pages/helpers.js';
import { type ConsoleHarness, describeInBrowser, startConsole } from '../support/console.js';

// Functions passed to page.evaluate run in the browser; this project has no DOM types.
interface InPage {
  document: {
    createElement(tag: 'script'): { type: string; src: string; onload: () => void; onerror: () => void };
    head: { append(element: unknown): void };
  };
}

/** How Chromium reports the policy refusing a script under /sites/. */
const REFUSED_SITE_SCRIPT = /script '[^']*\/sites\/[^']*'.*Content Security Policy/;

/**
 * Adds `<script type=module src=url>` to the page, as an injected one would be: `loaded`, or
 * `refused`. A module (the console's files are modules) already loaded is not run again.
 */
function addScript(page: Page, url: string): Promise<string> {
  return page.evaluate(
    (src) =>
      new Promise<string>((resolve) => {
        const { document } = globalThis as unknown as InPage;
        const script = document.createElement('script');
        script.onload = () => resolve('loaded');
        script.onerror = () => resolve('refused');
        script.type = 'module';
        script.src = src;
        document.head.append(script);
      }),
    url,
  );
}

describeInBrowser('the content security policies of the console and the API docs', () => {
  let harness: ConsoleHarness;
  let siteScript: string;
  let consoleScript: string;

  beforeAll(async () => {
    harness = await startConsole();
    const project = await createProject(harness.gateway);
    await deployOk(harness.gateway, project.id, await tarGz({ 'index.html': 'a site', 'app.js': 'void 0;' }));
    siteScript = `/sites/${project.slug}/app.js`;
    const name = fs.readdirSync(path.join(CONSOLE_BUILD_DIR, 'assets')).find((file) => file.endsWith('.js'));
    consoleScript = `/assets/${name}`;
  });
  afterAll(() => harness?.close());

  it('render the API docs with every operation and no refusal', async () => {
    const { page, problems } = await harness.open('/docs');
    await page.getByRole('heading', { name: /infragate API/ }).waitFor();
    await page.locator('.opblock').first().waitFor();
    expect(problems).toEqual([]);
  });

  it('refuse a script under /sites/ on a console page, and take the console’s own', async () => {
    const { page, problems } = await harness.open('/');
    await page.waitForURL('**/signin');
    expect(await addScript(page, consoleScript)).toBe('loaded');
    expect(await addScript(page, siteScript)).toBe('refused');
    expect(problems).toEqual([expect.stringMatching(REFUSED_SITE_SCRIPT)]);
  });

  it('refuse a script under /sites/ on the API docs page', async () => {
    const { page, problems } = await harness.open('/docs');
    await page.getByRole('heading', { name: /infragate API/ }).waitFor();
    expect(await addScript(page, siteScript)).toBe('refused');
    expect(problems).toEqual([expect.stringMatching(REFUSED_SITE_SCRIPT)]);
  });
});
