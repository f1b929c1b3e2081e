import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServeProcess, startServeProcess } from '../support/cli.js';
import { eventually } from '../support/eventually.js';

/**
 * A real `infragate serve` on the embedded database is killed with SIGKILL in the middle of work and
 * started again on the same data dir: nothing it acknowledged may be lost, nothing may be half done,
 * and the audit chain must still verify.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-crash-'));
const nodeRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-crash-root-'));
const env = { INFRAGATE_DATA_DIR: dataDir, DATABASE_URL: '', INFRAGATE_UPLOAD_LEASE_SECONDS: '2' };
let server: ServeProcess;
let token = '';

async function start(): Promise<void> {
  server = await startServeProcess(env);
}

const api = (method: string, url: string, body?: unknown) => server.call(method, url, token, body);

function killHard(): Promise<number | null> {
  return server.stop('SIGKILL');
}

beforeAll(async () => {
  await start();
  token = server.firstToken!;
});
afterAll(async () => {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(nodeRoot, { recursive: true, force: true });
});

describe('kill -9 during folder moves', () => {
  it('keeps every acknowledged move and leaves a consistent tree', async () => {
    const root = (await api('POST', '/api/logging/schema-folders', { name: 'root' })).body.data.id as string;
    const folders: string[] = [];
    for (let i = 0; i < 40; i++)
      folders.push((await api('POST', '/api/logging/schema-folders', { name: `f${i}` })).body.data.id);

    // Four clients move folders one after another; the tenth acknowledgement kills the server while
    // the other clients' moves are in flight.
    const acknowledged: string[] = [];
    const waiting = [...folders];
    let killed: Promise<unknown> | undefined;
    const client = async () => {
      for (let id = waiting.shift(); id && !killed; id = waiting.shift()) {
        const result = await api('PUT', `/api/logging/schema-folders/${id}/move`, { parentId: root }).catch(
          () => undefined,
        );
        if (result?.status === 200) acknowledged.push(id);
        if (acknowledged.length === 10) killed = killHard();
      }
    };
    await Promise.all([client(), client(), client(), client()]);
    expect(acknowledged.length).toBeGreaterThanOrEqual(10);
    await killed;

    await start();
    const listed = await api('GET', '/api/logging/schema-folders?tree=false&limit=100');
    const parentOf = new Map<string, string | null>(
      listed.body.data.map((f: { id: string; parentId: string | null }) => [f.id, f.parentId]),
    );
    for (const id of acknowledged) expect(parentOf.get(id)).toBe(root);
    for (const id of folders) expect([null, root]).toContain(parentOf.get(id));
  });
});

describe('kill -9 during an upload', () => {
  it('keeps acknowledged chunks, drops the torn one, and the upload resumes to the right file', async () => {
    const content = crypto.randomBytes(3 * 1024 * 1024);
    const sha256 = crypto.createHash('sha256').update(content).digest('hex');
    const node = (await api('POST', '/api/nodes', { name: 'crash-node', rootPath: nodeRoot })).body.data;
    const upload = (
      await api('POST', `/api/nodes/${node.id}/files/uploads`, {
        path: 'big.bin',
        totalBytes: content.length,
        sha256,
      })
    ).body.data;
    const chunkUrl = (offset: number) =>
      `${server.baseUrl}/api/nodes/${node.id}/files/uploads/${upload.uploadId}/chunks?offset=${offset}`;
    const put = (offset: number, bytes: Buffer) =>
      fetch(chunkUrl(offset), {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
        body: bytes,
      });
    const chunk = 1024 * 1024;
    expect((await put(0, content.subarray(0, chunk))).status).toBe(200);

    // The second chunk is half sent when the server dies.
    const request = http.request(chunkUrl(chunk), {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/octet-stream',
        'content-length': String(chunk),
      },
    });
    request.on('error', () => {});
    request.write(content.subarray(chunk, chunk + chunk / 2));
    await eventually(
      async () =>
        (await api('GET', `/api/nodes/${node.id}/files/uploads/${upload.uploadId}`)).body.data.writing,
      'the server to be writing the second chunk',
    );
    await killHard();
    request.destroy();

    await start();
    const status = (await api('GET', `/api/nodes/${node.id}/files/uploads/${upload.uploadId}`)).body.data;
    expect(status.receivedBytes).toBeGreaterThanOrEqual(chunk);
    expect(status.receivedBytes).toBeLessThan(2 * chunk);

    // The dead writer's lease runs out, then the client resumes from the durable point.
    let offset = status.receivedBytes as number;
    await eventually(
      async () => {
        const response = await put(offset, content.subarray(offset, offset + chunk));
        if (response.status !== 200) return false;
        offset = ((await response.json()) as { data: { receivedBytes: number } }).data.receivedBytes;
        return true;
      },
      'the upload lease to expire',
      15_000,
    );
    while (offset < content.length) {
      const response = await put(offset, content.subarray(offset, offset + chunk));
      expect(response.status).toBe(200);
      offset = ((await response.json()) as { data: { receivedBytes: number } }).data.receivedBytes;
    }
    const stored = fs.readFileSync(path.join(nodeRoot, 'big.bin'));
    expect(crypto.createHash('sha256').update(stored).digest('hex')).toBe(sha256);
  });
});
