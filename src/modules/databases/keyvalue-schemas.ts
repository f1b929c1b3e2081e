import { type Static, Type } from 'typebox';
import { LiteralUnion, NamedObject, Nullable, Uuid } from '../../core/http-schemas.js';

/** The shapes of the key browser (`/api/databases/{id}/keyvalue/keys…`). */

export const KEY_TYPES = ['string', 'hash', 'list', 'set', 'zset', 'stream'] as const;
export type KeyType = (typeof KEY_TYPES)[number];

export const Bytes = Type.Union(
  [
    Type.String(),
    Type.Object({ base64: Type.String({ maxLength: 14_000_000 }) }, { additionalProperties: false }),
  ],
  { description: 'UTF-8 text as a string; other bytes as {"base64": "…"}' },
);

/** `base64`: the key in the path (and a list's pattern) is base64url, for bytes that are not UTF-8. */
const Encoding = Type.Optional(LiteralUnion(['text', 'base64'] as const, { default: 'text' }));

export const KeyParams = Type.Object({
  id: Uuid(),
  key: Type.String({ minLength: 1, maxLength: 65_536 }),
});

export const KeyEncodingQuery = Type.Object({
  encoding: Encoding,
});

export const KeyListQuery = Type.Object({
  pattern: Type.Optional(
    Type.String({ minLength: 1, maxLength: 4096, description: 'SCAN MATCH glob (default *)' }),
  ),
  type: Type.Optional(LiteralUnion(KEY_TYPES)),
  cursor: Type.Optional(
    Type.String({ pattern: '^[0-9]{1,20}$', description: 'from the previous page; 0 starts' }),
  ),
  count: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  encoding: Encoding,
});

export const KeySummary = NamedObject('KeySummary', {
  key: Bytes,
  type: LiteralUnion(KEY_TYPES),
  ttl: Nullable(Type.Integer({ description: 'seconds left; null when the key does not expire' })),
  memoryBytes: Nullable(Type.Integer({ description: 'MEMORY USAGE with 5 samples of nested values' })),
});

export const KeyPage = Type.Object({
  data: Type.Array(KeySummary),
  cursor: Nullable(Type.String({ description: 'for the next page; null when the scan is complete' })),
});

export const KeyReadQuery = Type.Object({
  encoding: Encoding,
  /** The type the caller expects (from the list); another answers 409. */
  type: Type.Optional(LiteralUnion(KEY_TYPES)),
  cursor: Type.Optional(
    Type.String({
      maxLength: 64,
      description:
        'where the page starts: a byte offset (string), SCAN cursor (hash, set), index (list, zset) or exclusive entry id (stream)',
    }),
  ),
  count: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
});

const Common = {
  key: Bytes,
  ttl: Nullable(Type.Integer()),
  length: Type.Integer({ description: 'bytes (string), fields, items, members or entries in all' }),
  cursor: Nullable(Type.String({ description: 'for the next page; null after the last' })),
};
const FieldValue = Type.Object({ field: Bytes, value: Bytes });

export const KeyValue = Type.Union([
  Type.Object({
    ...Common,
    type: Type.Literal('string'),
    value: Bytes,
    truncated: Type.Boolean({ description: 'bytes follow past this page' }),
  }),
  Type.Object({ ...Common, type: Type.Literal('hash'), entries: Type.Array(FieldValue) }),
  Type.Object({
    ...Common,
    type: Type.Literal('list'),
    items: Type.Array(Type.Object({ index: Type.Integer(), value: Bytes })),
  }),
  Type.Object({ ...Common, type: Type.Literal('set'), members: Type.Array(Bytes) }),
  Type.Object({
    ...Common,
    type: Type.Literal('zset'),
    members: Type.Array(Type.Object({ member: Bytes, score: Type.Number() })),
  }),
  Type.Object({
    ...Common,
    type: Type.Literal('stream'),
    entries: Type.Array(Type.Object({ id: Type.String(), fields: Type.Array(FieldValue) })),
  }),
]);

export type KeyListQuery = Static<typeof KeyListQuery>;
export type KeyReadQuery = Static<typeof KeyReadQuery>;
export type KeySummary = Static<typeof KeySummary>;
export type KeyValue = Static<typeof KeyValue>;
