import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServeProcess } from '../support/cli.js';
import { eventually } from '../support/eventually.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { LogCapture } from '../support/log-capture.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const requestLines = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.includes('"request completed"'))
    .map((line) => JSON.parse(line));

/** A test gateway logging at info into a capture, for `check`; closed after it. */
async function withLoggingGateway(check: (gateway: TestGateway, logs: LogCapture) => Promise<void>) {
  const logs = new LogCapture();
  const gateway = await startTestGateway({ logLevel: 'info' }, { logStream: logs });
  try {
    await check(gateway, logs);
  } finally {
    await gateway.close();
  }
}

describe('request logging at LOG_LEVEL=info', () => {
  it('writes one line per answered request with method, url, status and time, and no header', async () => {
    await withLoggingGateway(async (gateway, logs) => {
      await gateway.call('GET', '/auth/me');
      const lines = requestLines(logs.text);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({
        level: 30,
        reqId: expect.any(String),
        req: { method: 'GET', url: '/auth/me' },
        res: { statusCode: 200 },
        responseTime: expect.any(Number),
      });
      expect(logs.text).not.toContain(gateway.adminToken);
      expect(logs.text).not.toContain('incoming request');
    });
  });

  it('never logs the code of the setup link, whatever the client accepts', async () => {
    await withLoggingGateway(async (gateway, logs) => {
      const code = 'setup-code-that-must-not-be-logged';
      const accepts = ['text/html', 'application/json', '*/*', undefined];
      for (const accept of accepts)
        await gateway.call('GET', `/setup?code=${code}`, {
          token: null,
          headers: accept ? { accept } : {},
        });
      const urls = requestLines(logs.text).map((line) => line.req.url);
      expect(urls).toEqual(accepts.map(() => '/setup'));
      expect(logs.text).not.toContain(code);
    });
  });

  it('logs the path alone of a URL no route answers, and the query of one a route answers', async () => {
    await withLoggingGateway(async (gateway, logs) => {
      await gateway.call('POST', '/no/such/route?secret=pasted-in-the-wrong-place');
      await gateway.call('GET', '/auth/me?view=full');
      const lines = requestLines(logs.text).map((line) => [line.req.url, line.res.statusCode]);
      expect(lines).toEqual([
        ['/no/such/route', 404],
        ['/auth/me?view=full', 200],
      ]);
    });
  });

  it('still has every line on stdout after a clean shutdown, though stdout is buffered', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-log-'));
    dirs.push(dataDir);
    const server = await startServeProcess({ INFRAGATE_DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    for (let i = 0; i < 3; i++) await server.call('GET', `/auth/me?n=${i}`, server.firstToken!);
    expect(await server.stop()).toBe(0);
    // The pipe may hand over its last bytes just after the process exited.
    const lines = await eventually(() => {
      const found = requestLines(server.output());
      return found.length >= 3 && found;
    }, 'the request lines read from the pipe');
    const urls = lines.map((line) => line.req.url);
    expect(urls).toEqual(expect.arrayContaining(['/auth/me?n=0', '/auth/me?n=1', '/auth/me?n=2']));
  });
});
