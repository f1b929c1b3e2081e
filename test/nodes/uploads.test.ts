import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/raw.js';
import { UPLOAD_SWEEP_JOB } from '../../src/modules/nodes/upload-sweep.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import type { TestGateway } from '../support/gateway.js';
import {
  createUpload,
  getUpload,
  putChunk,
  sha256,
  sha256OfFile,
  startUploadGateway,
  tempFile,
  tempRoot,
  uniquePath,
} from './helpers.js';

const MIB = 1024 * 1024;

let gateway: TestGateway;
let root: string;
let nodeId: string;
let viewToken: string;
let noScopeToken: string;

beforeAll(async () => {
  ({ gateway, root, nodeId, viewToken, noScopeToken } = await startUploadGateway());
});
afterAll(() => gateway.close());

const uploadsUrl = () => `/api/nodes/${nodeId}/files/uploads`;
const session = (uploadId: string) => getUpload(gateway, nodeId, uploadId);

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
    expect(result.body.data.map((item: { status: string }) => item.status)).toEqual(['open', 'open']);
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
      sql`select action, actor_email from audit_events where target_id = ${stale.uploadId} order by entry`,
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
