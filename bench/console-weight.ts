/**
 * The web console on loopback: the JavaScript each page loads (gzipped, as the gateway sends it)
 * and the time from navigation to the first rendered row of a list, with an empty cache and with
 * the console's files cached, for sign-in and every area. Serves the build in dist/web (run
 * `npm run build` first) from a real gateway with one record in each area's first list, and drives
 * Debian's chromium (scripts/install-test-deps.sh).
 *
 *   npx tsx bench/console-weight.ts [--runs 10] [--users 200]
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { BrowserContext, Page } from 'playwright-core';
import { CONSOLE_BUILD_DIR } from '../src/modules/console/bundle.js';
import { launchChromium } from '../test/services/chromium.js';
import { numberOption } from './support/command-line.js';
import { seedConsoleLists } from './support/console-seed.js';
import { startBenchGateway } from './support/gateway.js';

const RUNS = Math.min(numberOption('runs', 10), 100);
const USERS = Math.min(numberOption('users', 200), 10_000);
const PASSWORD = 'bench password';

const firstRow = (page: Page, table: string) =>
  page.getByRole('table', { name: table }).getByRole('row').nth(1);

interface BenchPage {
  path: string;
  signedIn: boolean;
  /** What the timing waits for, when it is not the page's heading or button. */
  shows?: string;
  ready: (page: Page) => ReturnType<Page['getByRole']>;
}

/** A signed-in page whose first rendered content is the first row of the list `table`. */
const listPage = (pagePath: string, table: string): BenchPage => ({
  path: pagePath,
  signedIn: true,
  shows: '(first row of the list)',
  ready: (page: Page) => firstRow(page, table),
});

/** Each page: where it is, and what shows once it has rendered (in the navigation's order). */
const PAGES: BenchPage[] = [
  { path: '/signin', signedIn: false, ready: (page: Page) => page.getByRole('button', { name: 'Sign in' }) },
  {
    path: '/overview',
    signedIn: true,
    ready: (page: Page) => page.getByRole('heading', { name: 'Overview' }),
  },
  listPage('/containers', 'Nodes'),
  listPage('/databases', 'Databases'),
  listPage('/logging', 'Environments'),
  listPage('/audit', 'Audit events'),
  listPage('/certificates', 'Certificates'),
  listPage('/pages', 'Projects'),
  listPage('/integrations', 'Repository hosts'),
  {
    path: '/inference',
    signedIn: true,
    shows: '(first card of the catalog)',
    ready: (page: Page) => page.getByRole('region', { name: 'Providers' }).getByRole('article').first(),
  },
  listPage('/nodes', 'Nodes'),
  listPage('/notifications', 'Channels'),
  listPage('/users', 'Users'),
  listPage('/users/groups', 'Groups'),
  { path: '/account', signedIn: true, ready: (page: Page) => firstRow(page, 'Sessions') },
];

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

if (!fs.existsSync(path.join(CONSOLE_BUILD_DIR, 'index.html'))) {
  console.error(`no console build in ${CONSOLE_BUILD_DIR}: run npm run build first`);
  process.exit(1);
}

const gateway = await startBenchGateway();
const baseUrl = await gateway.app.listen({ port: 0, host: '127.0.0.1' });
const api = async (method: string, url: string, body?: unknown) => {
  const response = await gateway.app.inject({
    method: method as 'POST',
    url,
    headers: { authorization: `Bearer ${gateway.token}` },
    ...(body === undefined ? {} : { payload: body as object }),
  });
  if (response.statusCode >= 300)
    throw new Error(`${method} ${url} answered ${response.statusCode}: ${response.body}`);
  return response.json();
};
const { data: me } = await api('GET', '/auth/me');
await api('PUT', `/api/admin/users/${gateway.userId}/password`, { password: PASSWORD });
const seed = await seedConsoleLists(api);
// An environment's records view (the log viewer: search, histogram chart, records), after the list.
PAGES.splice(PAGES.findIndex((page) => page.path === '/logging') + 1, 0, {
  path: `/logging/environments/${seed.loggingEnvironmentId}`,
  signedIn: true,
  shows: '(the histogram chart)',
  ready: (page: Page) => page.getByRole('img', { name: /in this range/ }),
});
for (let index = 0; index < USERS; index++) {
  await api('POST', '/api/admin/users', {
    email: `user-${index}@bench`,
    name: `User ${index}`,
    group: 'admins',
  });
}

const browser = await launchChromium();

/** A context holding a fresh session cookie of the bench user (signed in through the API). */
async function signedInContext(): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 800 } });
  const login = await context.request.post('/auth/login', { data: { email: me.email, password: PASSWORD } });
  if (!login.ok()) throw new Error(`login answered ${login.status()}`);
  return context;
}

/** Loads `pagePath` and answers the gzipped size of every script it loaded (until the network rests) and the time to `ready`. */
async function visit(
  context: BrowserContext,
  pagePath: string,
  ready: (page: Page) => ReturnType<Page['getByRole']>,
) {
  const page = await context.newPage();
  const scripts: Promise<number>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script')
      scripts.push(response.body().then((body) => zlib.gzipSync(body, { level: 9 }).length));
  });
  const started = performance.now();
  await page.goto(pagePath);
  await ready(page).waitFor({ timeout: 30_000 });
  const elapsed = performance.now() - started;
  // Scripts the page still loads once ready (a part shown below the first row) count too, and a
  // body read still under way when the page closes would fail.
  await page.waitForLoadState('networkidle');
  const sizes = await Promise.all(scripts);
  await page.close();
  return { elapsed, files: sizes.length, bytes: sizes.reduce((sum, size) => sum + size, 0) };
}

console.log(
  `console on loopback, node ${process.version}, ${RUNS} runs per page, ${USERS + 1} users in the list, chromium headless`,
);
console.log(
  'page                        JS files  JS gzipped  ready, empty cache p50/p90   ready, cached p50/p90',
);
for (const target of PAGES) {
  const cold: number[] = [];
  const warm: number[] = [];
  let weight = { files: 0, bytes: 0 };
  for (let run = 0; run < RUNS; run++) {
    const context = target.signedIn
      ? await signedInContext()
      : await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 800 } });
    const first = await visit(context, target.path, target.ready);
    weight = first;
    cold.push(first.elapsed);
    warm.push((await visit(context, target.path, target.ready)).elapsed);
    await context.close();
  }
  const timing = (values: number[]) =>
    `${percentile(values, 50).toFixed(0)} / ${percentile(values, 90).toFixed(0)} ms`.padEnd(28);
  console.log(
    `${(target.path.startsWith('/logging/environments/') ? '/logging/environments/<id>' : target.path).padEnd(28)}${String(weight.files).padEnd(10)}${kb(weight.bytes).padEnd(12)}${timing(cold)}${timing(warm)}${target.shows ?? ''}`,
  );
}

await browser.close();
await gateway.close();
await seed.close();
