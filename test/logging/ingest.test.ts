import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { logStore, ndjson } from './log-store.js';

let gateway: TestGateway;
let store: ReturnType<typeof logStore>;
beforeAll(async () => {
  gateway = await startTestGateway();
  store = logStore(gateway);
});
afterAll(() => gateway.close());

async function environmentWithToken(settings: Record<string, unknown> = {}) {
  const environment = await store.environment(settings);
  return { id: environment.id as string, token: await store.token(environment.id) };
}

const now = () => new Date().toISOString();

describe('ingest formats', () => {
  it('stores one JSON record and answers what it accepted', async () => {
    const { id, token } = await environmentWithToken();
    const result = await store.ingest(token, { timestamp: now(), level: 'info', message: 'hello' });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ data: { accepted: 1, rejected: 0, flagged: 0, errors: [] } });
    expect((await store.records(id)).map((record) => record.message)).toEqual(['hello']);
  });

  it('stores a JSON array of records', async () => {
    const { id, token } = await environmentWithToken();
    const result = await store.ingest(token, [{ message: 'a' }, { message: 'b' }, { message: 'c' }]);
    expect(result.body.data.accepted).toBe(3);
    expect(await store.records(id)).toHaveLength(3);
  });

  it('stores NDJSON, one record per line, skipping blank lines', async () => {
    const { id, token } = await environmentWithToken();
    const result = await store.ingest(token, `${ndjson([{ message: 'one' }, { message: 'two' }])}\n\n`);
    expect(result.body.data).toMatchObject({ accepted: 2, rejected: 0 });
    expect(await store.records(id)).toHaveLength(2);
  });

  it('accepts gzip request bodies', async () => {
    const { id, token } = await environmentWithToken();
    const result = await store.ingest(token, ndjson([{ message: 'zipped' }]), { gzip: true });
    expect(result.body.data.accepted).toBe(1);
    expect((await store.records(id))[0]!.message).toBe('zipped');
  });

  it('reads RFC 3339 and epoch-millisecond timestamps, and defaults to the arrival time', async () => {
    const { id, token } = await environmentWithToken();
    const before = Date.now();
    await store.ingest(token, [
      { timestamp: new Date(before - 60_000).toISOString().replace('Z', '+00:00'), message: 'rfc' },
      { timestamp: before - 120_000, message: 'epoch' },
      { message: 'arrival' },
    ]);
    const byMessage = new Map((await store.records(id)).map((record) => [record.message, record.timestamp]));
    expect(byMessage.get('rfc')).toBe(new Date(before - 60_000).toISOString());
    expect(byMessage.get('epoch')).toBe(new Date(before - 120_000).toISOString());
    expect(Date.parse(byMessage.get('arrival') as string)).toBeGreaterThanOrEqual(before);
  });

  it('reads level names in any case and syslog severity numbers', async () => {
    const { id, token } = await environmentWithToken();
    await store.ingest(token, [
      { level: 'WARNING', message: 'w' },
      { level: 3, message: 'err' },
      { level: 7, message: 'dbg' },
      { level: 'trace', message: 't' },
      { message: 'default' },
    ]);
    const levels = new Map((await store.records(id)).map((record) => [record.message, record.level]));
    expect(Object.fromEntries(levels)).toEqual({
      w: 'warn',
      err: 'error',
      dbg: 'debug',
      t: 'trace',
      default: 'info',
    });
  });

  it('keeps service, trace context and fields, from `fields` and from other properties', async () => {
    const { id, token } = await environmentWithToken();
    await store.ingest(token, {
      message: 'request done',
      service: 'api',
      traceId: '4BF92F3577B34DA6A3CE929D0E0E4736',
      spanId: '00f067aa0ba902b7',
      fields: { status: 200 },
      route: '/users',
    });
    expect((await store.records(id))[0]).toMatchObject({
      service: 'api',
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      spanId: '00f067aa0ba902b7',
      fields: { status: 200, route: '/users' },
      violations: null,
    });
  });
});

describe('ingest errors per record', () => {
  it('rejects bad records by index and path and stores the others', async () => {
    const { id, token } = await environmentWithToken();
    const result = await store.ingest(token, [
      { message: 'fine' },
      { message: 'bad time', timestamp: 'yesterday' },
      { level: 'loud', message: 'bad level' },
      { timestamp: now() },
      'not an object',
      { message: 'bad trace', traceId: 'xyz' },
      { message: 'both', fields: { a: 1 }, a: 2 },
    ]);
    expect(result.status).toBe(200);
    expect(result.body.data.accepted).toBe(1);
    expect(result.body.data.rejected).toBe(6);
    expect(result.body.data.errors.map((e: { index: number; path: unknown[] }) => [e.index, e.path])).toEqual(
      [
        [1, ['timestamp']],
        [2, ['level']],
        [3, ['message']],
        [4, []],
        [5, ['traceId']],
        [6, ['a']],
      ],
    );
    expect((await store.records(id)).map((record) => record.message)).toEqual(['fine']);
  });

  it('rejects an NDJSON line that is not JSON and keeps the other lines', async () => {
    const { token } = await environmentWithToken();
    const result = await store.ingest(token, '{"message": "ok"}\n{"message": \n{"message": "ok too"}');
    expect(result.body.data).toMatchObject({ accepted: 2, rejected: 1, errors: [{ index: 1, path: [] }] });
  });

  it('rejects what the database could not store (NUL, unpaired surrogates) per record', async () => {
    const { token } = await environmentWithToken();
    const result = await store.ingest(
      token,
      '{"message": "nul \\u0000"}\n{"message": "x", "key": "\\ud800"}\n{"message": "x", "deep": {"a\\u0000": 1}}',
    );
    expect(result.body.data.rejected).toBe(3);
    expect(result.body.data.errors.map((e: { path: unknown[] }) => e.path)).toEqual([
      ['message'],
      ['key'],
      ['deep', 'a\u0000'],
    ]);
  });

  it('rejects records older than the environment keeps and more than a day ahead', async () => {
    const { token } = await environmentWithToken({ retentionDays: 2 });
    const day = 86_400_000;
    const result = await store.ingest(token, [
      { message: 'old', timestamp: Date.now() - 3 * day },
      { message: 'future', timestamp: Date.now() + 2 * day },
      { message: 'kept', timestamp: Date.now() - day },
    ]);
    expect(result.body.data).toMatchObject({ accepted: 1, rejected: 2 });
  });
});

describe('ingest requests', () => {
  it('refuses a malformed JSON body with 400 and stores nothing', async () => {
    const { id, token } = await environmentWithToken();
    expectValidationError(await store.ingest(token, '{"message": ', { contentType: 'application/json' }), []);
    expect(await store.records(id)).toEqual([]);
  });

  it('refuses a body that is not gzip when it says it is', async () => {
    const { token } = await environmentWithToken();
    const result = await store.ingest(token, '{"message": "x"}', {
      headers: { 'content-encoding': 'gzip' },
    });
    expectValidationError(result, []);
  });

  it('answers 415 to another content type or content encoding', async () => {
    const { token } = await environmentWithToken();
    expectError(
      await store.ingest(token, 'message=x', { contentType: 'text/plain' }),
      415,
      'VALIDATION_ERROR',
    );
    expectError(
      await store.ingest(token, '{"message": "x"}', {
        contentType: 'application/json',
        headers: { 'content-encoding': 'br' },
      }),
      415,
      'VALIDATION_ERROR',
    );
  });

  it('answers 413 past the body limit, compressed or not, and stores nothing', async () => {
    const { id, token } = await environmentWithToken({ ingest: { maxBodyBytes: 2048 } });
    const big = ndjson(Array.from({ length: 100 }, (_, i) => ({ message: `record number ${i}` })));
    expectError(await store.ingest(token, big), 413, 'VALIDATION_ERROR');
    expectError(await store.ingest(token, big, { gzip: true }), 413, 'VALIDATION_ERROR');
    expect(await store.records(id)).toEqual([]);
  });

  it('answers 413 past the record count and stores nothing', async () => {
    const { id, token } = await environmentWithToken({ ingest: { maxRecords: 3 } });
    const result = await store.ingest(
      token,
      Array.from({ length: 4 }, () => ({ message: 'x' })),
    );
    expectError(result, 413, 'VALIDATION_ERROR');
    expect(await store.records(id)).toEqual([]);
  });

  it('refuses an empty body', async () => {
    const { token } = await environmentWithToken();
    expectValidationError(await store.ingest(token, ''), []);
  });
});
