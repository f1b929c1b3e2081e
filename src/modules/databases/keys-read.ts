import type { Deps } from '../../core/deps.js';
import { conflict, invalidField, notFound } from '../../core/errors.js';
import type { KeyValueConnections } from './connections.js';
import { pathBytes, replyBytes, toBytesJson } from './key-bytes.js';
import { type KeyValueHandle, openKeyValue } from './keyvalue-access.js';
import type { KeyListQuery, KeyReadQuery, KeySummary, KeyType, KeyValue } from './keyvalue-schemas.js';

/** SCAN calls one page may make to fill itself when a pattern or type matches few keys. */
const MAX_SCAN_ROUNDS = 10;
const INDEX = /^\d{1,18}$/;
const STREAM_ID = /^\d{1,20}(-\d{1,20})?$/;

export type KeyBrowserDeps = Pick<Deps, 'config'> & { connections: KeyValueConnections };

/** TTL's answer as the browser shows it: seconds left, null for none; undefined when the key is gone. */
function ttlOf(reply: unknown): number | null | undefined {
  const seconds = Number(reply);
  if (seconds === -2) return undefined;
  return seconds < 0 ? null : seconds;
}

/** Pairs of a flat [a, b, a, b …] reply. */
function pairs(
  flat: unknown[],
): { field: ReturnType<typeof toBytesJson>; value: ReturnType<typeof toBytesJson> }[] {
  const out = [];
  for (let i = 0; i + 1 < flat.length; i += 2) {
    out.push({ field: toBytesJson(replyBytes(flat[i])), value: toBytesJson(replyBytes(flat[i + 1])) });
  }
  return out;
}

const keyGone = (key: Buffer) => notFound({ reason: 'KEY_NOT_FOUND', key: toBytesJson(key) });

/**
 * Reads of the key browser: pages of keys by SCAN (never KEYS), and one key's value by its type,
 * a page at a time (HSCAN, SSCAN, LRANGE, ZRANGE, XRANGE, GETRANGE) so a huge value is never
 * loaded whole, here or on the server.
 */
export class KeyBrowser {
  constructor(private readonly deps: KeyBrowserDeps) {}

  async list(id: string, query: KeyListQuery): Promise<{ data: KeySummary[]; cursor: string | null }> {
    const kv = await openKeyValue(this.deps.connections, id);
    const count = query.count ?? 100;
    const pattern =
      query.pattern === undefined ? Buffer.from('*') : pathBytes(query.pattern, query.encoding, 'pattern');
    let cursor = query.cursor ?? '0';
    const found: Buffer[] = [];
    let rounds = 0;
    do {
      const [next, keys] = (await kv.run(
        'SCAN',
        cursor,
        'MATCH',
        pattern,
        'COUNT',
        count,
        ...(query.type ? ['TYPE', query.type] : []),
      )) as [Buffer, Buffer[]];
      cursor = String(next);
      found.push(...keys);
      rounds += 1;
    } while (cursor !== '0' && found.length < count && rounds < MAX_SCAN_ROUNDS);
    const described = await Promise.all(found.map((key) => this.describe(kv, key)));
    return {
      data: described.filter((summary): summary is KeySummary => summary !== undefined),
      cursor: cursor === '0' ? null : cursor,
    };
  }

  /** One key's type, TTL and sampled memory; undefined when it vanished since the SCAN. */
  private async describe(kv: KeyValueHandle, key: Buffer): Promise<KeySummary | undefined> {
    const [type, ttl, memory] = await Promise.all([
      kv.run('TYPE', key),
      kv.run('TTL', key),
      // Some servers refuse MEMORY (ACLs, managed offerings): the size is then unknown.
      kv.run('MEMORY', 'USAGE', key, 'SAMPLES', 5).catch(() => null),
    ]);
    const name = String(type) as KeyType | 'none';
    const seconds = ttlOf(ttl);
    if (name === 'none' || seconds === undefined) return undefined;
    return {
      key: toBytesJson(key),
      type: name,
      ttl: seconds,
      memoryBytes: memory === null ? null : Number(memory),
    };
  }

  /** A page of one key's value; 404 when it is gone, 409 when it is not of the `type` expected. */
  async read(id: string, rawKey: string, query: KeyReadQuery): Promise<KeyValue> {
    const key = pathBytes(rawKey, query.encoding, 'key');
    const kv = await openKeyValue(this.deps.connections, id);
    const [type, ttlReply] = await Promise.all([kv.run('TYPE', key), kv.run('TTL', key)]);
    const actual = String(type) as KeyType | 'none';
    const ttl = ttlOf(ttlReply);
    if (actual === 'none' || ttl === undefined) throw keyGone(key);
    if (query.type && query.type !== actual) {
      throw conflict('KEY_TYPE_CHANGED', { explanation: `the key now holds a ${actual}`, type: actual });
    }
    const count = query.count ?? 100;
    const common = { key: toBytesJson(key), ttl };
    const cursor = query.cursor;
    switch (actual) {
      case 'string': {
        const offset = this.index(cursor);
        const max = this.deps.config.keyvalue.maxReplyBytes;
        const [length, value] = await Promise.all([
          kv.run('STRLEN', key),
          kv.run('GETRANGE', key, offset, offset + max - 1),
        ]);
        const end = offset + replyBytes(value).length;
        const more = end < Number(length);
        return {
          ...common,
          type: 'string',
          length: Number(length),
          value: toBytesJson(replyBytes(value)),
          truncated: more,
          cursor: more ? String(end) : null,
        };
      }
      case 'hash':
      case 'set': {
        const scan = actual === 'hash' ? 'HSCAN' : 'SSCAN';
        const [length, [next, flat]] = (await Promise.all([
          kv.run(actual === 'hash' ? 'HLEN' : 'SCARD', key),
          kv.run(scan, key, this.scanCursor(cursor), 'COUNT', count),
        ])) as [number, [Buffer, unknown[]]];
        const page = {
          ...common,
          length: Number(length),
          cursor: String(next) === '0' ? null : String(next),
        };
        return actual === 'hash'
          ? { ...page, type: 'hash', entries: pairs(flat) }
          : { ...page, type: 'set', members: flat.map((member) => toBytesJson(replyBytes(member))) };
      }
      case 'list':
      case 'zset': {
        const start = this.index(cursor);
        const [length, rows] = (await Promise.all([
          kv.run(actual === 'list' ? 'LLEN' : 'ZCARD', key),
          actual === 'list'
            ? kv.run('LRANGE', key, start, start + count - 1)
            : kv.run('ZRANGE', key, start, start + count - 1, 'WITHSCORES'),
        ])) as [number, unknown[]];
        const end = start + rows.length;
        const page = { ...common, length: Number(length), cursor: end < Number(length) ? String(end) : null };
        return actual === 'list'
          ? {
              ...page,
              type: 'list',
              items: rows.map((value, i) => ({ index: start + i, value: toBytesJson(replyBytes(value)) })),
            }
          : {
              ...page,
              type: 'zset',
              members: (rows as [unknown, unknown][]).map(([member, score]) => ({
                member: toBytesJson(replyBytes(member)),
                score: Number(score),
              })),
            };
      }
      case 'stream': {
        if (cursor !== undefined && !STREAM_ID.test(cursor)) {
          throw invalidField(['cursor'], 'must be a stream entry id for a stream');
        }
        const [length, rows] = (await Promise.all([
          kv.run('XLEN', key),
          kv.run('XRANGE', key, cursor === undefined ? '-' : `(${cursor}`, '+', 'COUNT', count),
        ])) as [number, [Buffer, unknown[]][]];
        const entries = rows.map(([entryId, flat]) => ({ id: String(entryId), fields: pairs(flat) }));
        return {
          ...common,
          type: 'stream',
          length: Number(length),
          entries,
          cursor: entries.length === count ? entries.at(-1)!.id : null,
        };
      }
    }
  }

  private index(cursor: string | undefined): number {
    if (cursor === undefined) return 0;
    if (!INDEX.test(cursor)) throw invalidField(['cursor'], 'must be a non-negative integer for this type');
    return Number(cursor);
  }

  private scanCursor(cursor: string | undefined): string {
    if (cursor === undefined) return '0';
    if (!/^\d{1,20}$/.test(cursor)) throw invalidField(['cursor'], 'must be a SCAN cursor for this type');
    return cursor;
  }
}
