import type { Page, Request } from 'playwright-core';

/** How many answered requests a page's record keeps (the latest). */
const ANSWERED_KEPT = 12;

/**
 * What a page of a test did, kept so that a failed step can say what the page was waiting for: the
 * requests still without an answer, the latest answered ones and how long each took, and the text
 * on the page. A step that times out says only what it did not find.
 */
export interface PageRecord {
  describe(): Promise<string>;
}

export function recordPage(page: Page): PageRecord {
  const started = new Map<Request, number>();
  const statuses = new Map<Request, number>();
  const answered: string[] = [];
  const line = (request: Request, outcome: string) =>
    `${request.method()} ${new URL(request.url()).pathname}: ${outcome} after ${Date.now() - (started.get(request) ?? Date.now())} ms`;
  const settle = (request: Request, outcome: string) => {
    answered.push(line(request, outcome));
    if (answered.length > ANSWERED_KEPT) answered.shift();
    started.delete(request);
    statuses.delete(request);
  };
  page.on('request', (request) => started.set(request, Date.now()));
  page.on('response', (response) => statuses.set(response.request(), response.status()));
  page.on('requestfinished', (request) => settle(request, String(statuses.get(request))));
  page.on('requestfailed', (request) => settle(request, `failed (${request.failure()?.errorText})`));
  return {
    async describe() {
      const text = page.isClosed()
        ? '(closed)'
        : await page
            .locator('body')
            .innerText({ timeout: 2_000 })
            .catch((error: Error) => `(unreadable: ${error.message})`);
      return [
        `page ${page.url()}`,
        `  waiting: ${
          [...started.keys()]
            .map((request) =>
              line(request, statuses.has(request) ? `${statuses.get(request)}, body unread` : 'no answer'),
            )
            .join('; ') || 'nothing'
        }`,
        `  latest: ${answered.join('; ') || 'none'}`,
        `  text: ${text.replace(/\s+/g, ' ').slice(0, 800)}`,
      ].join('\n');
    },
  };
}
