import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { CallResult, TestGateway } from '../support/gateway.js';

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
