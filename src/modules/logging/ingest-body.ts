import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { invalidField, validationError } from '../../core/errors.js';
import { parseJsonRecord, type RecordParse } from './record-input.js';

/** `type/subtype` of a Content-Type header, lowercased, without parameters. */
export function mediaTypeOf(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

export const unsupportedMediaType = (allowed: string[]) =>
  validationError([{ path: [], message: `Content-Type must be one of: ${allowed.join(', ')}` }], 415);

const tooLarge = (message: string) => validationError([{ path: [], message }], 413);

/**
 * Reads a request body into memory, at most `maxBytes` once decompressed (gzip is the one
 * Content-Encoding taken): a declared length past the limit is refused before reading, and reading
 * stops as soon as the limit is passed, so neither a large body nor a gzip bomb costs more than the
 * limit.
 */
export async function readBody(
  payload: Readable | undefined,
  headers: Record<string, string | string[] | undefined>,
  maxBytes: number,
): Promise<Buffer> {
  const encoding = String(headers['content-encoding'] ?? 'identity')
    .trim()
    .toLowerCase();
  if (!['identity', 'gzip', 'x-gzip'].includes(encoding))
    throw validationError([{ path: [], message: 'Content-Encoding must be gzip or none' }], 415);
  const declared = Number(headers['content-length']);
  const limitText = `the body is larger than this environment's ingest limit of ${maxBytes} bytes`;
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(limitText);
  if (!payload) throw invalidField([], 'the body is empty');
  const source = encoding === 'identity' ? payload : payload.pipe(zlib.createGunzip());
  // A failing source (a torn upload) must not leave the decompressor waiting.
  if (source !== payload) payload.on('error', (error) => source.destroy(error));
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of source) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) throw tooLarge(limitText);
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    source.destroy();
    if (source !== payload) payload.resume();
    if ((error as { code?: string }).code?.startsWith('Z_'))
      throw invalidField([], 'the body is not valid gzip');
    throw error;
  }
  if (size === 0) throw invalidField([], 'the body is empty');
  return Buffer.concat(chunks, size);
}

const tooManyRecords = (count: number, max: number) =>
  tooLarge(`the body holds ${count} records; this environment takes at most ${max} per request`);

/** Refuses a request that holds more records than the environment takes at once. */
export function checkRecordCount(count: number, maxRecords: number): void {
  if (count > maxRecords) throw tooManyRecords(count, maxRecords);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const LINE_NOT_JSON = { issues: [{ path: [], message: 'this line is not valid JSON' }] };

/**
 * The records of `POST /api/logging/ingest`: one JSON object, a JSON array of them
 * (`application/json`), or one per line (`application/x-ndjson`, blank lines skipped). A line that
 * is not JSON is a rejected record; a JSON body that is not JSON refuses the request.
 */
export function parseRecordBatch(
  mediaType: string,
  body: Buffer,
  receivedAt: Date,
  maxRecords: number,
): RecordParse[] {
  const text = body.toString('utf8').replace(/^\uFEFF/, '');
  if (mediaType === 'application/x-ndjson') {
    const lines = text.split('\n').filter((line) => line.trim() !== '');
    checkRecordCount(lines.length, maxRecords);
    return lines.map((line) => {
      const value = parseJson(line);
      return value === undefined ? LINE_NOT_JSON : parseJsonRecord(value, receivedAt);
    });
  }
  const value = parseJson(text);
  if (value === undefined) throw invalidField([], 'body is not valid JSON');
  const values = Array.isArray(value) ? value : [value];
  checkRecordCount(values.length, maxRecords);
  return values.map((item) => parseJsonRecord(item, receivedAt));
}
