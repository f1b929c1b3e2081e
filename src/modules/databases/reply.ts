/**
 * Converts a decoded RESP reply to JSON: UTF-8 bulk strings as strings, other bytes as
 * `{"base64": "…"}`, integers and doubles as numbers, arrays and sets as arrays, maps as objects,
 * nil as null. Past `maxBytes` (counted on the JSON it produces, approximately) strings are cut and
 * arrays stop, and the result says `truncated`.
 */

export type ReplyType =
  | 'string'
  | 'binary'
  | 'integer'
  | 'double'
  | 'boolean'
  | 'array'
  | 'map'
  | 'null'
  | 'error';

export interface ConvertedReply {
  result: unknown;
  type: ReplyType;
  truncated: boolean;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The text of `buffer`, or undefined when it is not valid UTF-8. */
export function decodeUtf8(buffer: Buffer): string | undefined {
  try {
    return utf8.decode(buffer);
  } catch {
    return undefined;
  }
}

/** The type of a reply other than a bulk string (a Buffer's type follows from its conversion). */
function replyType(value: unknown): ReplyType {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'double';
  if (typeof value === 'bigint') return 'integer';
  if (typeof value === 'boolean') return 'boolean';
  if (Array.isArray(value)) return 'array';
  if (value instanceof Error) return 'error';
  return 'map';
}

export function convertReply(value: unknown, maxBytes: number): ConvertedReply {
  const state = { budget: maxBytes, truncated: false };
  const result = convert(value, state);
  // A bulk string converts to text exactly when it is valid UTF-8, so it is decoded only once.
  const type = Buffer.isBuffer(value) ? (typeof result === 'string' ? 'string' : 'binary') : replyType(value);
  return { result, type, truncated: state.truncated };
}

interface Budget {
  budget: number;
  truncated: boolean;
}

/** The longest prefix of `text` whose UTF-8 form fits in `bytes` (never splits a character). */
function cutText(text: string, bytes: number): string {
  if (Buffer.byteLength(text) <= bytes) return text;
  let out = '';
  let used = 0;
  for (const char of text) {
    const size = Buffer.byteLength(char);
    if (used + size > bytes) break;
    out += char;
    used += size;
  }
  return out;
}

function convertString(text: string, state: Budget): string {
  const size = Buffer.byteLength(text) + 2;
  if (size <= state.budget) {
    state.budget -= size;
    return text;
  }
  state.truncated = true;
  const cut = cutText(text, Math.max(0, state.budget - 2));
  state.budget = 0;
  return cut;
}

function convert(value: unknown, state: Budget): unknown {
  if (value === null || value === undefined) {
    state.budget -= 4;
    return null;
  }
  if (Buffer.isBuffer(value)) {
    const text = decodeUtf8(value);
    if (text !== undefined) return convertString(text, state);
    // Base64 grows by 4/3: cut the bytes so the encoded form fits.
    const room = Math.max(0, state.budget - 14);
    const fits = Math.floor(room / 4) * 3;
    if (value.length > fits) state.truncated = true;
    const encoded = value.subarray(0, Math.min(value.length, fits)).toString('base64');
    state.budget -= encoded.length + 14;
    return { base64: encoded };
  }
  if (typeof value === 'string') return convertString(value, state);
  if (typeof value === 'number' || typeof value === 'boolean') {
    state.budget -= String(value).length;
    return Number.isFinite(value) || typeof value === 'boolean' ? value : String(value);
  }
  if (typeof value === 'bigint') {
    state.budget -= value.toString().length;
    return value.toString();
  }
  if (value instanceof Error) {
    return { error: convertString(value.message, state) };
  }
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    state.budget -= 2;
    for (const item of value) {
      if (state.budget <= 0) {
        state.truncated = true;
        break;
      }
      out.push(convert(item, state));
      state.budget -= 1;
    }
    return out;
  }
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    state.budget -= 2;
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      if (state.budget <= 0) {
        state.truncated = true;
        break;
      }
      state.budget -= Buffer.byteLength(key) + 4;
      Object.defineProperty(out, key, {
        value: convert(item, state),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return String(value);
}
