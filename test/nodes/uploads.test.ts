import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/raw.js';
import { UPLOAD_SWEEP_JOB } from '../../src/modules/nodes/upload-sweep.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import { type CallResult, startTestGateway, type TestGateway } from '../support/gateway.js';
import { createNode, createUpload, putChunk, sha256, sha256OfFile, tempFile, tempRoot } from './helpers.js';

const KIB = 1024;
const MIB = 1024 * 1024;

let gateway: TestGateway;
let root: string;
let nodeId: string;
let viewToken: string;
let noScopeToken: string;

beforeAll(async () => {
  gateway = await startTestGateway({
    uploadChunkBytes: 8 * MIB,
    uploadMaxChunkBytes: 16 * MIB,
    uploadMaxFileBytes: 2 ** 50,
  });
  root = tempRoot();
  nodeId = (await createNode(gateway, root)).id;
  viewToken = await gateway.tokenWithScopes(['nodes:view']);
  noScopeToken = await gateway.tokenWithScopes([]);
});
afterAll(() => gateway.close());

const uploadsUrl = () => `/api/nodes/${nodeId}/files/uploads`;
let counter = 0;
const uniquePath = (ext = 'bin') => `dir-${++counter}/file-${counter}.${ext}`;

async function session(uploadId: string) {
  const result = await gateway.call('GET', `${uploadsUrl()}/${uploadId}`);
  expect(result.status).toBe(200);
  return result.body.data;
}

describe('POST /api/nodes/{id}/files/uploads', () => {
  it('opens a session with uploadId, nodeId, path, totalBytes, receivedBytes 0, chunkSize, status open and expiresAt', async () => {
    const result = await gateway.call('POST', uploadsUrl(), {
      body: { path: '/first/a.bin', totalBytes: 10 },
    });
    expect(result.status).toBe(201);
    expect(result.body.data).toMatchObject({
      nodeId,
      path: 'first/a.bin',
      totalBytes: 10,
      receivedBytes: 0,
      chunkSize: 8 * MIB,
      status: 'open',
      overwrite: false,
      sha256: null,
    });
    expect(result.body.data.uploadId).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(result.body.data.expiresAt).getTime()).toBeGreaterThan(Date.now());
    expect(fs.existsSync(tempFile(root, result.body.data.uploadId))).toBe(true);
  });

  it('reads /a/b.bin and a/b.bin as the same file: a second open session on it is a 409 naming the first', async () => {
    const first = await createUpload(gateway, nodeId, { path: '/same/b.bin', totalBytes: 5 });
    const second = await gateway.call('POST', uploadsUrl(), { body: { path: 'same//b.bin', totalBytes: 5 } });
    expectError(second, 409, 'CONFLICT');
    expect(second.body.details).toMatchObject({ reason: 'UPLOAD_EXISTS', uploadId: first.uploadId });
  });

  it('refuses a path that names an existing file unless overwrite is true', async () => {
    fs.mkdirSync(path.join(root, 'exists'), { recursive: true });
    fs.writeFileSync(path.join(root, 'exists/file.txt'), 'old');
    const refused = await gateway.call('POST', uploadsUrl(), {
      body: { path: 'exists/file.txt', totalBytes: 3 },
    });
    expectError(refused, 409, 'CONFLICT');
    expect(refused.body.details.reason).toBe('FILE_EXISTS');

    const upload = await createUpload(gateway, nodeId, {
      path: 'exists/file.txt',
      totalBytes: 3,
      overwrite: true,
    });
    const done = await putChunk(gateway, nodeId, upload.uploadId, Buffer.from('new'));
    expect(done.body.data.status).toBe('complete');
    expect(fs.readFileSync(path.join(root, 'exists/file.txt'), 'utf8')).toBe('new');
  });

  it.each([
    ['../escape.bin'],
    ['a/../../escape.bin'],
    ['/../etc/passwd'],
    ['a/./b.bin'],
    ['.infragate-uploads/x.part'],
    ['/'],
    ['bad\0name'],
  ])('refuses the traversal or reserved path %j with 400 on path', async (badPath) => {
    expectValidationError(
      await gateway.call('POST', uploadsUrl(), { body: { path: badPath, totalBytes: 1 } }),
      ['path'],
    );
  });

  it('refuses a path through a symbolic link that leads out of the root with 422 PATH_OUTSIDE_ROOT', async () => {
    const outside = tempRoot('infragate-outside-');
    fs.symlinkSync(outside, path.join(root, 'link-out'));
    const result = await gateway.call('POST', uploadsUrl(), {
      body: { path: 'link-out/x.bin', totalBytes: 1 },
    });
    expectError(result, 422, 'UNPROCESSABLE_ENTITY');
    expect(result.body.details.reason).toBe('PATH_OUTSIDE_ROOT');
    expect(fs.readdirSync(outside)).toEqual([]);
  });

  it('follows a symbolic link whose target stays inside the root', async () => {
    fs.mkdirSync(path.join(root, 'real-dir'));
    fs.symlinkSync(path.join(root, 'real-dir'), path.join(root, 'link-in'));
    const upload = await createUpload(gateway, nodeId, { path: 'link-in/ok.txt', totalBytes: 2 });
    expect((await putChunk(gateway, nodeId, upload.uploadId, Buffer.from('ok'))).body.data.status).toBe(
      'complete',
    );
    expect(fs.readFileSync(path.join(root, 'real-dir/ok.txt'), 'utf8')).toBe('ok');
  });

  it('refuses a missing path, a negative totalBytes and a malformed sha256 with 400 on each field', async () => {
    const result = await gateway.call('POST', uploadsUrl(), { body: { totalBytes: -1, sha256: 'xyz' } });
    expectValidationError(result, ['path']);
    expectValidationError(result, ['totalBytes']);
    expectValidationError(result, ['sha256']);
  });

  it('refuses a totalBytes above the configured largest file with 400', async () => {
    expectValidationError(
      await gateway.call('POST', uploadsUrl(), {
        body: { path: uniquePath(), totalBytes: gateway.config.uploadMaxFileBytes + 1 },
      }),
      ['totalBytes'],
    );
  });

  it('refuses a path longer than 4096 characters with 400', async () => {
    expectValidationError(
      await gateway.call('POST', uploadsUrl(), { body: { path: 'a'.repeat(4097), totalBytes: 1 } }),
      ['path'],
    );
  });

  it('refuses a totalBytes larger than the disk has free with 422 INSUFFICIENT_SPACE', async () => {
    const stats = fs.statfsSync(root);
    const result = await gateway.call('POST', uploadsUrl(), {
      body: { path: uniquePath(), totalBytes: stats.bavail * stats.bsize + 1 },
    });
    expectError(result, 422, 'UNPROCESSABLE_ENTITY');
    expect(result.body.details.reason).toBe('INSUFFICIENT_SPACE');
  });

  it('answers 401 without a token and 403 with a token lacking nodes:manage', async () => {
    const body = { path: uniquePath(), totalBytes: 1 };
    expectError(await gateway.call('POST', uploadsUrl(), { body, token: null }), 401, 'UNAUTHORIZED');
    expectError(await gateway.call('POST', uploadsUrl(), { body, token: viewToken }), 403, 'FORBIDDEN');
  });

  it('answers 404 for an unknown node', async () => {
    const result = await gateway.call('POST', `/api/nodes/${crypto.randomUUID()}/files/uploads`, {
      body: { path: uniquePath(), totalBytes: 1 },
    });
    expectError(result, 404, 'NOT_FOUND');
  });

  it('records the session in the audit trail', async () => {
    const upload = await createUpload(gateway, nodeId, { path: uniquePath(), totalBytes: 4 });
    const events = await queryRows<{ action: string }>(
      gateway.deps.db,
      sql`select action from audit_events where target_id = ${upload.uploadId}`,
    );
    expect(events.map((event) => event.action)).toEqual(['nodes.upload.created']);
  });
});

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

    async function waitUntil(uploadId: string, check: (data: CallResult['body']) => boolean) {
      for (;;) {
        const data = await session(uploadId);
        if (check(data)) return data;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }

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

describe('GET /api/nodes/{id}/files/uploads/{uploadId} and the list', () => {
  it('answers the resume point to a token with nodes:view', async () => {
    const upload = await createUpload(gateway, nodeId, { path: uniquePath(), totalBytes: 8 });
    await putChunk(gateway, nodeId, upload.uploadId, Buffer.from('1234'), 0);
    const result = await gateway.call('GET', `${uploadsUrl()}/${upload.uploadId}`, { token: viewToken });
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({
      receivedBytes: 4,
      totalBytes: 8,
      status: 'open',
      writing: false,
    });
  });

  it('answers 401, 403 and 404 as the contract says', async () => {
    const url = `${uploadsUrl()}/${crypto.randomUUID()}`;
    expectError(await gateway.call('GET', url, { token: null }), 401, 'UNAUTHORIZED');
    expectError(await gateway.call('GET', url, { token: noScopeToken }), 403, 'FORBIDDEN');
    expectError(await gateway.call('GET', url), 404, 'NOT_FOUND');
    expectValidationError(await gateway.call('GET', `${uploadsUrl()}/not-a-uuid`), ['uploadId']);
  });

  it('lists sessions newest first, filtered by status and paginated', async () => {
    const upload = await createUpload(gateway, nodeId, { path: uniquePath(), totalBytes: 1 });
    const result = await gateway.call('GET', uploadsUrl(), { query: { status: 'open', limit: 2 } });
    expect(result.status).toBe(200);
    expect(result.body.data[0].uploadId).toBe(upload.uploadId);
    expect(result.body.data.every((item: { status: string }) => item.status === 'open')).toBe(true);
    expect(result.body.pagination).toMatchObject({ page: 1, limit: 2 });
    expect(result.body.pagination.total).toBeGreaterThan(2);
    expectValidationError(await gateway.call('GET', uploadsUrl(), { query: { status: 'weird' } }), [
      'status',
    ]);
  });
});

describe('POST /api/nodes/{id}/files/uploads/{uploadId}/complete', () => {
  it('answers 409 UPLOAD_INCOMPLETE while bytes are missing', async () => {
    const upload = await createUpload(gateway, nodeId, { path: uniquePath(), totalBytes: 4 });
    await putChunk(gateway, nodeId, upload.uploadId, Buffer.from('12'), 0);
    const result = await gateway.call('POST', `${uploadsUrl()}/${upload.uploadId}/complete`);
    expectError(result, 409, 'CONFLICT');
    expect(result.body.details).toMatchObject({
      reason: 'UPLOAD_INCOMPLETE',
      receivedBytes: 2,
      totalBytes: 4,
    });
  });

  it('keeps the data when a file appeared at the path meanwhile (409 FILE_EXISTS) and completes once it is gone', async () => {
    const target = uniquePath('late');
    const data = crypto.randomBytes(1000);
    const upload = await createUpload(gateway, nodeId, {
      path: target,
      totalBytes: 1000,
      sha256: sha256(data),
    });
    fs.mkdirSync(path.dirname(path.join(root, target)), { recursive: true });
    fs.writeFileSync(path.join(root, target), 'someone else');
    const blocked = await putChunk(gateway, nodeId, upload.uploadId, data, 0);
    expectError(blocked, 409, 'CONFLICT');
    expect(blocked.body.details.reason).toBe('FILE_EXISTS');
    expect(await session(upload.uploadId)).toMatchObject({ status: 'open', receivedBytes: 1000 });

    fs.rmSync(path.join(root, target));
    const done = await gateway.call('POST', `${uploadsUrl()}/${upload.uploadId}/complete`);
    expect(done.status).toBe(200);
    expect(done.body.data.status).toBe('complete');
    expect(sha256OfFile(path.join(root, target))).toBe(sha256(data));
  });

  it('completes an empty file, and answers the same again when repeated', async () => {
    const target = uniquePath('empty');
    const upload = await createUpload(gateway, nodeId, { path: target, totalBytes: 0, sha256: sha256('') });
    const first = await gateway.call('POST', `${uploadsUrl()}/${upload.uploadId}/complete`);
    expect(first.status).toBe(200);
    expect(first.body.data.status).toBe('complete');
    const again = await gateway.call('POST', `${uploadsUrl()}/${upload.uploadId}/complete`);
    expect(again.status).toBe(200);
    expect(again.body.data.completedAt).toBe(first.body.data.completedAt);
    expect(fs.statSync(path.join(root, target)).size).toBe(0);
  });

  it('answers 403 without nodes:manage and 404 for an unknown session', async () => {
    const upload = await createUpload(gateway, nodeId, { path: uniquePath(), totalBytes: 0 });
    const url = `${uploadsUrl()}/${upload.uploadId}/complete`;
    expectError(await gateway.call('POST', url, { token: viewToken }), 403, 'FORBIDDEN');
    expectError(
      await gateway.call('POST', `${uploadsUrl()}/${crypto.randomUUID()}/complete`),
      404,
      'NOT_FOUND',
    );
  });
});

describe('DELETE /api/nodes/{id}/files/uploads/{uploadId}', () => {
  it('aborts an open session and removes its temp data; later chunks are refused', async () => {
    const upload = await createUpload(gateway, nodeId, { path: uniquePath(), totalBytes: 4 });
    await putChunk(gateway, nodeId, upload.uploadId, Buffer.from('12'), 0);
    const result = await gateway.call('DELETE', `${uploadsUrl()}/${upload.uploadId}`);
    expect(result.status).toBe(200);
    expect(result.body.data.status).toBe('aborted');
    expect(fs.existsSync(tempFile(root, upload.uploadId))).toBe(false);
    const chunk = await putChunk(gateway, nodeId, upload.uploadId, Buffer.from('34'), 2);
    expectError(chunk, 409, 'CONFLICT');
    expect(chunk.body.details).toMatchObject({ reason: 'UPLOAD_NOT_OPEN', status: 'aborted' });
  });

  it('refuses to abort a complete upload with 409', async () => {
    const upload = await createUpload(gateway, nodeId, { path: uniquePath(), totalBytes: 1 });
    await putChunk(gateway, nodeId, upload.uploadId, Buffer.from('x'), 0);
    const result = await gateway.call('DELETE', `${uploadsUrl()}/${upload.uploadId}`);
    expectError(result, 409, 'CONFLICT');
    expect(result.body.details.reason).toBe('UPLOAD_NOT_OPEN');
  });

  it('answers 401, 403 and 404', async () => {
    const url = `${uploadsUrl()}/${crypto.randomUUID()}`;
    expectError(await gateway.call('DELETE', url, { token: null }), 401, 'UNAUTHORIZED');
    expectError(await gateway.call('DELETE', url, { token: viewToken }), 403, 'FORBIDDEN');
    expectError(await gateway.call('DELETE', url), 404, 'NOT_FOUND');
  });
});

describe('the expiry sweep', () => {
  it('expires sessions idle past expiresAt, removes their temp data and leaves live sessions alone', async () => {
    const stale = await createUpload(gateway, nodeId, { path: uniquePath(), totalBytes: 4 });
    const live = await createUpload(gateway, nodeId, { path: uniquePath(), totalBytes: 4 });
    await putChunk(gateway, nodeId, stale.uploadId, Buffer.from('12'), 0);
    await gateway.deps.db.execute(
      sql`update node_uploads set expires_at = now() - interval '1 minute' where id = ${stale.uploadId}`,
    );

    await gateway.deps.jobs.runNow(UPLOAD_SWEEP_JOB);

    expect((await session(stale.uploadId)).status).toBe('expired');
    expect(fs.existsSync(tempFile(root, stale.uploadId))).toBe(false);
    expect((await session(live.uploadId)).status).toBe('open');
    expect(fs.existsSync(tempFile(root, live.uploadId))).toBe(true);
    const chunk = await putChunk(gateway, nodeId, stale.uploadId, Buffer.from('34'), 2);
    expect(chunk.body.details).toMatchObject({ reason: 'UPLOAD_NOT_OPEN', status: 'expired' });
    const events = await queryRows<{ action: string; actor_email: string }>(
      gateway.deps.db,
      sql`select action, actor_email from audit_events where target_id = ${stale.uploadId} order by seq`,
    );
    expect(events.at(-1)).toEqual({ action: 'nodes.upload.expired', actor_email: 'system' });
  });

  it('removes temp files that no open session owns', async () => {
    const orphan = tempFile(root, crypto.randomUUID());
    fs.writeFileSync(orphan, 'left by a crash');
    await gateway.deps.jobs.runNow(UPLOAD_SWEEP_JOB);
    expect(fs.existsSync(orphan)).toBe(false);
  });
});
