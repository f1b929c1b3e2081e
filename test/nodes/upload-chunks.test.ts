import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import type { CallResult, TestGateway } from '../support/gateway.js';
import {
  createUpload,
  getUpload,
  putChunk,
  sha256,
  sha256OfFile,
  startUploadGateway,
  tempFile,
  uniquePath,
} from './helpers.js';

const KIB = 1024;
const MIB = 1024 * 1024;

let gateway: TestGateway;
let root: string;
let nodeId: string;
let viewToken: string;

beforeAll(async () => {
  ({ gateway, root, nodeId, viewToken } = await startUploadGateway());
});
afterAll(() => gateway.close());

const uploadsUrl = () => `/api/nodes/${nodeId}/files/uploads`;
const session = (uploadId: string) => getUpload(gateway, nodeId, uploadId);

describe('PUT /api/nodes/{id}/files/uploads/{uploadId}/chunks', () => {
  it('uploads a random 50 MB file in several chunks and puts it in place byte for byte', async () => {
    const data = crypto.randomBytes(50 * 1000 * 1000);
    const target = uniquePath();
    const upload = await createUpload(gateway, nodeId, {
      path: target,
      totalBytes: data.length,
      sha256: sha256(data),
    });
    let offset = 0;
    let chunks = 0;
    let last: { status: string; receivedBytes: number } | undefined;
    while (offset < data.length) {
      const chunk = data.subarray(offset, offset + upload.chunkSize);
      const result = await putChunk(gateway, nodeId, upload.uploadId, chunk, offset);
      expect(result.status).toBe(200);
      last = result.body.data;
      offset += chunk.length;
      chunks += 1;
      expect(last!.receivedBytes).toBe(offset);
    }
    expect(chunks).toBeGreaterThan(5);
    expect(last!.status).toBe('complete');
    expect(sha256OfFile(path.join(root, target))).toBe(sha256(data));
    expect(fs.existsSync(tempFile(root, upload.uploadId))).toBe(false);
  });

  it('answers uploadId, receivedBytes, totalBytes and status after each chunk', async () => {
    const upload = await createUpload(gateway, nodeId, { path: uniquePath(), totalBytes: 6 });
    const result = await putChunk(gateway, nodeId, upload.uploadId, Buffer.from('abc'), 0);
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({
      uploadId: upload.uploadId,
      receivedBytes: 3,
      totalBytes: 6,
      status: 'open',
    });
  });

  it('refuses a chunk at the wrong offset with 409 naming the expected offset', async () => {
    const upload = await createUpload(gateway, nodeId, { path: uniquePath(), totalBytes: 10 });
    await putChunk(gateway, nodeId, upload.uploadId, Buffer.from('12345'), 0);
    const result = await putChunk(gateway, nodeId, upload.uploadId, Buffer.from('67890'), 3);
    expectError(result, 409, 'CONFLICT');
    expect(result.body.details).toMatchObject({ reason: 'UPLOAD_OFFSET_MISMATCH', expectedOffset: 5 });
    expect((await session(upload.uploadId)).receivedBytes).toBe(5);
  });

  it('appends at receivedBytes when offset is omitted or null', async () => {
    const target = uniquePath('txt');
    const upload = await createUpload(gateway, nodeId, { path: target, totalBytes: 6 });
    expect(
      (await putChunk(gateway, nodeId, upload.uploadId, Buffer.from('ab'))).body.data.receivedBytes,
    ).toBe(2);
    expect(
      (await putChunk(gateway, nodeId, upload.uploadId, Buffer.from('cd'), null)).body.data.receivedBytes,
    ).toBe(4);
    const last = await putChunk(gateway, nodeId, upload.uploadId, Buffer.from('ef'));
    expect(last.body.data.status).toBe('complete');
    expect(fs.readFileSync(path.join(root, target), 'utf8')).toBe('abcdef');
  });

  it('refuses a chunk that goes past totalBytes with 400 and keeps receivedBytes', async () => {
    const upload = await createUpload(gateway, nodeId, { path: uniquePath(), totalBytes: 4 });
    const result = await putChunk(gateway, nodeId, upload.uploadId, Buffer.from('12345'), 0);
    expectValidationError(result, ['body']);
    expect((await session(upload.uploadId)).receivedBytes).toBe(0);
  });

  it('refuses an offset beyond totalBytes with 400 on offset', async () => {
    const upload = await createUpload(gateway, nodeId, { path: uniquePath(), totalBytes: 4 });
    expectValidationError(await putChunk(gateway, nodeId, upload.uploadId, Buffer.from('1'), 9), ['offset']);
  });

  it('refuses a negative or non-numeric offset with 400', async () => {
    const upload = await createUpload(gateway, nodeId, { path: uniquePath(), totalBytes: 4 });
    const negative = await gateway.call('PUT', `${uploadsUrl()}/${upload.uploadId}/chunks?offset=-1`, {
      rawBody: Buffer.from('1'),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expectError(negative, 400, 'VALIDATION_ERROR');
    const text = await gateway.call('PUT', `${uploadsUrl()}/${upload.uploadId}/chunks?offset=abc`, {
      rawBody: Buffer.from('1'),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expectError(text, 400, 'VALIDATION_ERROR');
  });

  it('refuses a chunk body larger than the per-chunk limit with 413', async () => {
    const upload = await createUpload(gateway, nodeId, { path: uniquePath(), totalBytes: 40 * MIB });
    const result = await putChunk(gateway, nodeId, upload.uploadId, Buffer.alloc(16 * MIB + 1), 0);
    expectError(result, 413, 'VALIDATION_ERROR');
    expect((await session(upload.uploadId)).receivedBytes).toBe(0);
  });

  it('refuses a JSON body with 415', async () => {
    const upload = await createUpload(gateway, nodeId, { path: uniquePath(), totalBytes: 4 });
    const result = await gateway.call('PUT', `${uploadsUrl()}/${upload.uploadId}/chunks`, { body: { a: 1 } });
    expectError(result, 415, 'VALIDATION_ERROR');
  });

  it('fails the session with 422 CHECKSUM_MISMATCH when the bytes do not match the sha256, and removes its data', async () => {
    const target = uniquePath();
    const upload = await createUpload(gateway, nodeId, {
      path: target,
      totalBytes: 5,
      sha256: sha256('hello'),
    });
    const result = await putChunk(gateway, nodeId, upload.uploadId, Buffer.from('HELLO'), 0);
    expectError(result, 422, 'UNPROCESSABLE_ENTITY');
    expect(result.body.details).toMatchObject({
      reason: 'CHECKSUM_MISMATCH',
      expectedSha256: sha256('hello'),
      actualSha256: sha256('HELLO'),
    });
    expect((await session(upload.uploadId)).status).toBe('failed');
    expect(fs.existsSync(path.join(root, target))).toBe(false);
    expect(fs.existsSync(tempFile(root, upload.uploadId))).toBe(false);
    const again = await putChunk(gateway, nodeId, upload.uploadId, Buffer.from('hello'), 0);
    expectError(again, 409, 'CONFLICT');
    expect(again.body.details.reason).toBe('UPLOAD_NOT_OPEN');
  });

  it('answers 401 without a token, 403 without nodes:manage and 404 for an unknown session', async () => {
    const upload = await createUpload(gateway, nodeId, { path: uniquePath(), totalBytes: 4 });
    expectError(
      await putChunk(gateway, nodeId, upload.uploadId, Buffer.from('1'), 0, null),
      401,
      'UNAUTHORIZED',
    );
    expectError(
      await putChunk(gateway, nodeId, upload.uploadId, Buffer.from('1'), 0, viewToken),
      403,
      'FORBIDDEN',
    );
    expectError(await putChunk(gateway, nodeId, crypto.randomUUID(), Buffer.from('1'), 0), 404, 'NOT_FOUND');
    expectError(
      await putChunk(gateway, crypto.randomUUID(), upload.uploadId, Buffer.from('1'), 0),
      404,
      'NOT_FOUND',
    );
  });

  describe('over a real socket', () => {
    let base: URL;
    beforeAll(async () => {
      base = new URL(await gateway.listen());
    });

    /** Starts a PUT whose body is sent piece by piece; the caller ends or breaks it. */
    function openPut(uploadId: string, offset: number, length: number) {
      const request = http.request({
        host: base.hostname,
        port: base.port,
        method: 'PUT',
        path: `${uploadsUrl()}/${uploadId}/chunks?offset=${offset}`,
        headers: {
          authorization: `Bearer ${gateway.adminToken}`,
          'content-type': 'application/octet-stream',
          'content-length': String(length),
        },
      });
      const response = new Promise<{ status: number; body: CallResult['body'] }>((resolve, reject) => {
        request.on('response', async (res) => {
          let text = '';
          for await (const part of res) text += part;
          resolve({ status: res.statusCode!, body: JSON.parse(text) });
        });
        request.on('error', reject);
      });
      const write = (data: Buffer) => new Promise<void>((resolve) => request.write(data, () => resolve()));
      return { request, response, write };
    }

    const waitUntil = (uploadId: string, check: (data: CallResult['body']) => boolean) =>
      eventually(async () => {
        const data = await session(uploadId);
        return check(data) && data;
      }, 'the session to change');

    it('lets one of two concurrent PUTs on a session write and answers the other 409', async () => {
      const data = crypto.randomBytes(256 * KIB);
      const target = uniquePath();
      const upload = await createUpload(gateway, nodeId, { path: target, totalBytes: data.length });
      const first = openPut(upload.uploadId, 0, data.length);
      await first.write(data.subarray(0, 64 * KIB));
      await waitUntil(upload.uploadId, (current) => current.writing === true);

      const second = await putChunk(gateway, nodeId, upload.uploadId, data, 0);
      expectError(second, 409, 'CONFLICT');
      expect(second.body.details.reason).toBe('UPLOAD_IN_PROGRESS');

      first.request.end(data.subarray(64 * KIB));
      const answer = await first.response;
      expect(answer.status).toBe(200);
      expect(answer.body.data.status).toBe('complete');
      expect(sha256OfFile(path.join(root, target))).toBe(sha256(data));
    });

    it('keeps what arrived of a chunk whose client went away, so the upload resumes from there', async () => {
      const data = crypto.randomBytes(2 * MIB);
      const target = uniquePath();
      const upload = await createUpload(gateway, nodeId, {
        path: target,
        totalBytes: data.length,
        sha256: sha256(data),
      });
      const put = openPut(upload.uploadId, 0, data.length);
      put.response.catch(() => undefined);
      await put.write(data.subarray(0, 700 * KIB));
      await waitUntil(upload.uploadId, (current) => current.writing === true);
      put.request.destroy();

      const after = await waitUntil(upload.uploadId, (current) => current.writing === false);
      expect(after.status).toBe('open');
      expect(after.receivedBytes).toBeGreaterThan(0);
      expect(after.receivedBytes).toBeLessThanOrEqual(700 * KIB);

      const rest = await putChunk(
        gateway,
        nodeId,
        upload.uploadId,
        data.subarray(after.receivedBytes),
        after.receivedBytes,
      );
      expect(rest.status).toBe(200);
      expect(rest.body.data.status).toBe('complete');
      expect(sha256OfFile(path.join(root, target))).toBe(sha256(data));
    });
  });
});
