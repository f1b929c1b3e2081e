import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { checkRecordCount, parseRecordBatch, readBody } from '../../src/modules/logging/ingest-body.js';
import { judge } from '../../src/modules/logging/ingest-service.js';
import { parseJsonRecord } from '../../src/modules/logging/record-input.js';
import type { IngestTarget } from '../../src/modules/logging/record-schemas.js';

// The limits of one ingest request and of the time an environment keeps, without a gateway.
const DAY_MS = 86_400_000;
const NOW = new Date('2026-11-25T12:00:00.000Z');

const environment = (settings: Partial<IngestTarget> = {}): IngestTarget => ({
  tokenId: 'token',
  environmentId: 'environment',
  retentionDays: 2,
  onSchemaViolation: 'reject',
  maxBodyBytes: 1024,
  maxRecords: 10,
  recordsPerSecond: 100,
  bytesPerSecond: 10_240,
  burstSeconds: 1,
  schema: [],
  ...settings,
});

/** What ingest does with one record of `input`, sent at NOW to `target`. */
const judged = (input: Record<string, unknown>, target = environment()) =>
  judge(parseJsonRecord({ message: 'm', ...input }, NOW), target, NOW);

const at = (offsetMs: number) => ({ timestamp: NOW.getTime() + offsetMs });

describe('the time an environment takes records for', () => {
  it('takes a record up to one day ahead of the clock', () => {
    expect(judged(at(DAY_MS))).toHaveProperty('record');
  });

  it('refuses a record a millisecond more than a day ahead', () => {
    expect(judged(at(DAY_MS + 1))).toEqual({
      issues: [{ path: ['timestamp'], message: 'is more than a day in the future' }],
    });
  });

  it('takes a record as old as the retention', () => {
    expect(judged(at(-2 * DAY_MS))).toHaveProperty('record');
  });

  it('refuses a record a millisecond older than the retention', () => {
    expect(judged(at(-2 * DAY_MS - 1))).toEqual({
      issues: [{ path: ['timestamp'], message: 'is older than this environment keeps (2 days)' }],
    });
  });

  it("reads the retention of the record's environment", () => {
    expect(judged(at(-2 * DAY_MS - 1), environment({ retentionDays: 3 }))).toHaveProperty('record');
  });
});

describe("an environment's schema", () => {
  const schema = [{ name: 'user', type: 'string' as const, required: true }];

  it('refuses a record that breaks it under reject', () => {
    expect(judged({ user: 7 }, environment({ schema }))).toEqual({
      issues: [{ path: ['fields', 'user'], message: 'must be of type string' }],
    });
  });

  it('keeps a record that breaks it under keep, flagged with what it breaks', () => {
    expect(judged({}, environment({ schema, onSchemaViolation: 'keep' }))).toMatchObject({
      record: { violations: [{ path: ['fields', 'user'], message: 'is required by the schema' }] },
    });
  });

  it('keeps a record that follows it unflagged', () => {
    expect(judged({ user: 'ada' }, environment({ schema }))).toMatchObject({ record: { violations: null } });
  });

  it('refuses under keep too what is outside the time kept', () => {
    expect(judged(at(DAY_MS + 1), environment({ schema, onSchemaViolation: 'keep' }))).toHaveProperty(
      'issues',
    );
  });
});

describe('the records of one request', () => {
  it('may be as many as the environment takes, and not one more (413)', () => {
    expect(() => checkRecordCount(10, 10)).not.toThrow();
    expect(() => checkRecordCount(11, 10)).toThrow(
      expect.objectContaining({
        statusCode: 413,
        details: [
          { path: [], message: 'the body holds 11 records; this environment takes at most 10 per request' },
        ],
      }),
    );
  });

  it('are counted in a JSON array, a lone object counting as one', () => {
    const json = (value: unknown) => Buffer.from(JSON.stringify(value));
    const records = Array.from({ length: 3 }, () => ({ message: 'm' }));
    expect(parseRecordBatch('application/json', json(records), NOW, 3)).toHaveLength(3);
    expect(() => parseRecordBatch('application/json', json(records), NOW, 2)).toThrow(
      expect.objectContaining({ statusCode: 413 }),
    );
    expect(parseRecordBatch('application/json', json({ message: 'm' }), NOW, 1)).toHaveLength(1);
  });

  it('are the NDJSON lines that are not blank', () => {
    const body = Buffer.from('{"message":"a"}\n\n  \n{"message":"b"}\r\n\n');
    expect(parseRecordBatch('application/x-ndjson', body, NOW, 2)).toHaveLength(2);
    expect(() => parseRecordBatch('application/x-ndjson', body, NOW, 1)).toThrow(
      expect.objectContaining({ statusCode: 413 }),
    );
  });
});

describe('the body of one request', () => {
  const LIMIT = 1024;
  const limitMessage = `the body is larger than this environment's ingest limit of ${LIMIT} bytes`;
  const tooLarge = { statusCode: 413, details: [{ path: [], message: limitMessage }] };
  /** A body arriving in chunks of 100 bytes, without a declared length. */
  const streamed = (bytes: Buffer) =>
    Readable.from(
      Array.from({ length: Math.ceil(bytes.length / 100) }, (_, i) => bytes.subarray(i * 100, i * 100 + 100)),
    );
  const gzipHeaders = { 'content-encoding': 'gzip' };

  it('may be as large as the limit', async () => {
    expect(await readBody(streamed(Buffer.alloc(LIMIT, 'a')), {}, LIMIT)).toHaveLength(LIMIT);
  });

  it('is refused (413) as soon as it passes the limit by a byte', async () => {
    await expect(readBody(streamed(Buffer.alloc(LIMIT + 1, 'a')), {}, LIMIT)).rejects.toMatchObject(tooLarge);
  });

  it('is refused before it is read when its declared length passes the limit', async () => {
    let read = false;
    const body = new Readable({
      read() {
        read = true;
        this.push(null);
      },
    });
    await expect(readBody(body, { 'content-length': String(LIMIT + 1) }, LIMIT)).rejects.toMatchObject(
      tooLarge,
    );
    expect(read).toBe(false);
  });

  it('is measured once decompressed: gzip may expand to the limit, and not a byte past it', async () => {
    const gzip = (size: number) => streamed(zlib.gzipSync(Buffer.alloc(size, 'a')));
    expect(await readBody(gzip(LIMIT), gzipHeaders, LIMIT)).toHaveLength(LIMIT);
    await expect(readBody(gzip(LIMIT + 1), gzipHeaders, LIMIT)).rejects.toMatchObject(tooLarge);
  });

  it('is refused (400) when it says gzip and is not', async () => {
    await expect(
      readBody(streamed(Buffer.from('{"message":"m"}')), gzipHeaders, LIMIT),
    ).rejects.toMatchObject({
      statusCode: 400,
      details: [{ path: [], message: 'the body is not valid gzip' }],
    });
  });

  it('is refused (400) when it is empty', async () => {
    const empty = { statusCode: 400, details: [{ path: [], message: 'the body is empty' }] };
    await expect(readBody(Readable.from([]), {}, LIMIT)).rejects.toMatchObject(empty);
    await expect(readBody(undefined, {}, LIMIT)).rejects.toMatchObject(empty);
  });

  it('is refused (415) in an encoding other than gzip', async () => {
    await expect(
      readBody(streamed(Buffer.from('x')), { 'content-encoding': 'br' }, LIMIT),
    ).rejects.toMatchObject({
      statusCode: 415,
      details: [{ path: [], message: 'Content-Encoding must be gzip or none' }],
    });
  });
});
