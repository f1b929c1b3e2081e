import { invalidField } from '../../core/errors.js';
import { decodeUtf8 } from './reply.js';

/**
 * How the key browser carries bytes in JSON, the same way the command console answers them: a
 * string when the bytes are valid UTF-8, `{"base64": "…"}` when they are not. Requests take both
 * forms, so anything the browser answered can be sent back unchanged (a binary-safe round trip).
 */
export type BytesJson = string | { base64: string };

export function toBytesJson(value: Buffer): BytesJson {
  const text = decodeUtf8(value);
  return text === undefined ? { base64: value.toString('base64') } : text;
}

export function fromBytesJson(value: BytesJson): Buffer {
  return typeof value === 'string' ? Buffer.from(value, 'utf8') : Buffer.from(value.base64, 'base64');
}

/** Reply pieces (buffers, or strings for simple replies) as bytes. */
export function replyBytes(value: unknown): Buffer {
  if (Buffer.isBuffer(value)) return value;
  return Buffer.from(String(value ?? ''), 'utf8');
}

const BASE64URL = /^[A-Za-z0-9_-]*={0,2}$/;

/**
 * A key (or field, member) named in a path: URL-encoded UTF-8 text, or with `?encoding=base64` its
 * bytes as base64url — for keys that are not UTF-8, which a URL path cannot carry as text.
 */
export function pathBytes(segment: string, encoding: 'text' | 'base64' | undefined, path: string): Buffer {
  if (encoding !== 'base64') return Buffer.from(segment, 'utf8');
  if (!BASE64URL.test(segment)) throw invalidField([path], 'must be base64url with encoding=base64');
  return Buffer.from(segment, 'base64url');
}
