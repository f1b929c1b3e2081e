import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_BUILD_DIR } from '../../src/modules/console/bundle.js';
import { ensureConsoleBuilt } from '../support/build.js';
import { expectError } from '../support/expectations.js';
import { type CallResult, startTestGateway, type TestGateway } from '../support/gateway.js';
import { LogCapture } from '../support/log-capture.js';

let gateway: TestGateway;
let scriptName: string;
const html = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

/** The sources of one directive of an answer's content security policy. */
function directive(result: CallResult, name: string): string[] {
  const policy = String(result.headers['content-security-policy']);
  const found = policy.split(';').find((part) => part.trim().startsWith(`${name} `));
  return found ? found.trim().split(/\s+/).slice(1) : [];
}

beforeAll(async () => {
  await ensureConsoleBuilt();
  gateway = await startTestGateway();
  scriptName = fs.readdirSync(path.join(CONSOLE_BUILD_DIR, 'assets')).find((name) => name.endsWith('.js'))!;
});
afterAll(() => gateway.close());

describe('the console page', () => {
  it('is served at / with no-cache, the console policy and the security headers', async () => {
    const result = await gateway.call('GET', '/', { token: null, headers: { host: 'Console.test:8443' } });
    expect(result.status).toBe(200);
    expect(result.headers['content-type']).toMatch(/^text\/html/);
    expect(result.headers['cache-control']).toBe('no-cache');
    expect(directive(result, 'script-src')).toEqual(['127.0.0.1:8080/assets/', 'console.test:8443/assets/']);
    expect(directive(result, 'frame-ancestors')).toEqual(["'none'"]);
    expect(result.headers['x-frame-options']).toBe('DENY');
    expect(result.headers['x-content-type-options']).toBe('nosniff');
  });

  it('loads its scripts from files only, never inline', async () => {
    const page = (await gateway.call('GET', '/', { token: null })).text;
    const scripts = page.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(script).toMatch(/\bsrc="\/assets\//);
  });

  it('answers a deep link a browser navigates to', async () => {
    const result = await gateway.call('GET', '/users/groups?page=2', { token: null, headers: html });
    expect(result.status).toBe(200);
    expect(result.text).toContain('<div id="root">');
  });

  it('leaves unknown paths to API clients as the JSON 404', async () => {
    expectError(await gateway.call('GET', '/users/groups', { token: null }), 404, 'NOT_FOUND');
  });

  it('never answers a change to a deep link', async () => {
    expectError(await gateway.call('POST', '/users', { token: null, headers: html }), 404, 'NOT_FOUND');
  });

  it("keeps a page's query (the setup link's code) out of the request log", async () => {
    const logs = new LogCapture();
    const logged = await startTestGateway({ logLevel: 'trace' }, { logStream: logs });
    try {
      const result = await logged.call('GET', '/setup?code=the-one-time-code', {
        token: null,
        headers: html,
      });
      expect(result.status).toBe(200);
      expect(logs.text).toContain('"url":"/setup"');
      expect(logs.text).not.toContain('the-one-time-code');
    } finally {
      await logged.close();
    }
  });

  it('answers a revalidation with 304 when the page did not change', async () => {
    const first = await gateway.call('GET', '/', { token: null });
    const again = await gateway.call('GET', '/', {
      token: null,
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.status).toBe(304);
  });
});

describe('paths the console never takes over', () => {
  it('an unknown /api path still wants a token first, then answers the JSON 404', async () => {
    expectError(
      await gateway.call('GET', '/api/no-such-thing', { token: null, headers: html }),
      401,
      'UNAUTHORIZED',
    );
    expectError(await gateway.call('GET', '/api/no-such-thing', { headers: html }), 404, 'NOT_FOUND');
  });

  it('an unknown /auth path still wants a token first', async () => {
    expectError(
      await gateway.call('GET', '/auth/no-such-thing', { token: null, headers: html }),
      401,
      'UNAUTHORIZED',
    );
  });

  it('the health checks, the API document and the docs keep their answers', async () => {
    expect((await gateway.call('GET', '/healthz', { token: null, headers: html })).body).toEqual({
      status: 'ok',
    });
    expect((await gateway.call('GET', '/openapi.json', { token: null, headers: html })).body.openapi).toBe(
      '3.1.0',
    );
    expect((await gateway.call('GET', '/docs', { token: null, headers: html })).text).not.toContain(
      '<div id="root">',
    );
  });

  it('the docs have a policy of their own: scripts from their static files only', async () => {
    const docs = await gateway.call('GET', '/docs', { token: null, headers: { ...html, host: 'gw.test' } });
    expect(directive(docs, 'default-src')).toEqual(["'none'"]);
    expect(directive(docs, 'script-src')).toEqual(['127.0.0.1:8080/docs/static/', 'gw.test/docs/static/']);
    expect(directive(docs, 'connect-src')).toEqual(["'self'", '127.0.0.1:8080']);
  });

  it("a page reached at a Host no policy source can name takes its scripts from 'self' there", async () => {
    for (const host of ['[::1]:8080', 'a;b', 'x y']) {
      const page = await gateway.call('GET', '/', { token: null, headers: { host } });
      expect(directive(page, 'script-src')).toEqual(['127.0.0.1:8080/assets/', "'self'"]);
    }
  });

  it('unknown pages sites and assets answer the JSON 404', async () => {
    expectError(
      await gateway.call('GET', '/sites/nothing/', { token: null, headers: html }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await gateway.call('GET', '/assets/nothing.js', { token: null, headers: html }),
      404,
      'NOT_FOUND',
    );
  });
});

describe('the console assets', () => {
  it('are cached for good (their names change with their content)', async () => {
    const result = await gateway.call('GET', `/assets/${scriptName}`, { token: null });
    expect(result.status).toBe(200);
    expect(result.headers['content-type']).toMatch(/^text\/javascript/);
    expect(result.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('are sent gzipped to a browser that accepts it', async () => {
    const plain = await gateway.call('GET', `/assets/${scriptName}`, { token: null });
    const gzipped = await gateway.app.inject({
      method: 'GET',
      url: `/assets/${scriptName}`,
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers.vary).toBe('accept-encoding');
    expect(gzipped.rawPayload.length).toBeLessThan(plain.text.length);
  });

  it('are only the files of the build: a path out of assets/ answers 404', async () => {
    for (const url of [
      '/assets/..%2Fpackage.json',
      '/assets/%2E%2E/index.html',
      '/assets/../../package.json',
    ]) {
      expectError(await gateway.call('GET', url, { token: null }), 404, 'NOT_FOUND');
    }
  });
});
