import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { type CallResult, startTestGateway, type TestGateway } from '../support/gateway.js';

const MIB = 1024 * 1024;

/** A fresh, empty directory to serve as a node root. */
export function tempRoot(prefix = 'infragate-node-'): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

export async function createNode(gateway: TestGateway, rootPath = tempRoot(), name?: string) {
  const result = await gateway.call('POST', '/api/nodes', {
    body: { name: name ?? `node-${crypto.randomBytes(4).toString('hex')}`, rootPath },
  });
  expect(result.status).toBe(201);
  return result.body.data as { id: string; name: string; rootPath: string };
}

export async function createUpload(
  gateway: TestGateway,
  nodeId: string,
  body: { path: string; totalBytes: number; sha256?: string; overwrite?: boolean },
) {
  const result = await gateway.call('POST', `/api/nodes/${nodeId}/files/uploads`, { body });
  expect(result.status).toBe(201);
  return result.body.data as { uploadId: string; path: string; totalBytes: number; chunkSize: number };
}

export function putChunk(
  gateway: TestGateway,
  nodeId: string,
  uploadId: string,
  bytes: Buffer,
  offset?: number | null,
  token?: string | null,
): Promise<CallResult> {
  return gateway.call('PUT', `/api/nodes/${nodeId}/files/uploads/${uploadId}/chunks`, {
    rawBody: bytes,
    headers: { 'content-type': 'application/octet-stream' },
    ...(offset !== undefined ? { query: { offset: offset === null ? 'null' : offset } } : {}),
    ...(token !== undefined ? { token } : {}),
  });
}

export const sha256 = (data: Buffer | string) => crypto.createHash('sha256').update(data).digest('hex');

export function sha256OfFile(file: string): string {
  const hash = crypto.createHash('sha256');
  const fd = fs.openSync(file, 'r');
  const buffer = Buffer.alloc(1024 * 1024);
  try {
    for (;;) {
      const read = fs.readSync(fd, buffer, 0, buffer.length, null);
      if (read === 0) break;
      hash.update(buffer.subarray(0, read));
    }
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest('hex');
}

export const tempFile = (root: string, uploadId: string) =>
  path.join(root, '.infragate-uploads', `${uploadId}.part`);

/**
 * A gateway that takes large uploads, one node on a fresh root, and tokens with `nodes:view` only
 * and with no scope.
 */
export async function startUploadGateway() {
  const gateway = await startTestGateway({
    uploadChunkBytes: 8 * MIB,
    uploadMaxChunkBytes: 16 * MIB,
    uploadMaxFileBytes: 2 ** 50,
  });
  const root = tempRoot();
  const nodeId = (await createNode(gateway, root)).id;
  const viewToken = await gateway.tokenWithScopes(['nodes:view']);
  const noScopeToken = await gateway.tokenWithScopes([]);
  return { gateway, root, nodeId, viewToken, noScopeToken };
}

let pathCounter = 0;

/** A remote path no other upload of this test file uses. */
export const uniquePath = (ext = 'bin') => `dir-${++pathCounter}/file-${pathCounter}.${ext}`;

/** The upload session as the API answers it, failing the test on anything but 200. */
export async function getUpload(gateway: TestGateway, nodeId: string, uploadId: string) {
  const result = await gateway.call('GET', `/api/nodes/${nodeId}/files/uploads/${uploadId}`);
  expect(result.status).toBe(200);
  return result.body.data;
}
