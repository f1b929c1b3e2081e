import { type Static, Type } from 'typebox';
import { LiteralUnion, NamedObject, Nullable, Timestamp, Uuid } from '../../core/http-schemas.js';

/** The shapes of the key browser (`/api/databases/{id}/keyvalue/keys…`). */

export const KEY_TYPES = ['string', 'hash', 'list', 'set', 'zset', 'stream'] as const;
export type KeyType = (typeof KEY_TYPES)[number];

// No additionalProperties: false on {base64}: with the validator's removeAdditional it would strip
// the properties of an object tried against it inside a union (e.g. a zset's {member, score}).
export const Bytes = Type.Union(
  [Type.String(), Type.Object({ base64: Type.String({ maxLength: 14_000_000 }) })],
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

/** The edits of the key browser. */

const MAX_ELEMENTS = 10_000;
const Ttl = Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'seconds' });
const ScoredMember = Type.Object({ member: Bytes, score: Type.Number() });
const Elements = <T extends Parameters<typeof Type.Array>[0]>(item: T) =>
  Type.Array(item, { minItems: 1, maxItems: MAX_ELEMENTS });
const Fields = Elements(FieldValue);

export const NewKeyValue = Type.Union([
  Type.Object({ type: Type.Literal('string'), value: Bytes, ttl: Type.Optional(Ttl) }),
  Type.Object({ type: Type.Literal('hash'), value: Fields, ttl: Type.Optional(Ttl) }),
  Type.Object({ type: Type.Literal('list'), value: Elements(Bytes), ttl: Type.Optional(Ttl) }),
  Type.Object({ type: Type.Literal('set'), value: Elements(Bytes), ttl: Type.Optional(Ttl) }),
  Type.Object({ type: Type.Literal('zset'), value: Elements(ScoredMember), ttl: Type.Optional(Ttl) }),
  Type.Object({
    type: Type.Literal('stream'),
    value: Elements(Type.Object({ fields: Fields })),
    ttl: Type.Optional(Ttl),
  }),
]);

export const FieldParams = Type.Object({
  ...KeyParams.properties,
  field: Type.String({ minLength: 1, maxLength: 65_536 }),
});
export const IndexParams = Type.Object({
  ...KeyParams.properties,
  index: Type.Integer({ minimum: -2_147_483_648, maximum: 2_147_483_647 }),
});
export const MemberParams = Type.Object({
  ...KeyParams.properties,
  member: Type.String({ minLength: 1, maxLength: 65_536 }),
});

export const FieldValueBody = Type.Object({ value: Bytes });
export const ListPush = Type.Object({
  value: Bytes,
  end: Type.Optional(LiteralUnion(['head', 'tail'] as const, { default: 'tail' })),
});
export const MemberBody = Type.Object({
  member: Bytes,
  score: Type.Optional(
    Type.Number({ description: 'given: a sorted-set member (ZADD); absent: a set member (SADD)' }),
  ),
});
export const StreamEntryBody = Type.Object({
  id: Type.Optional(Type.String({ pattern: '^(\\*|\\d{1,20}(-(\\d{1,20}|\\*))?)$', default: '*' })),
  fields: Fields,
});
export const TtlBody = Type.Object({ ttl: Nullable(Ttl) });
export const RenameBody = Type.Object({
  newKey: Bytes,
  overwrite: Type.Optional(
    Type.Boolean({ description: 'replace a key of that name (default: 409 KEY_EXISTS)' }),
  ),
});
export const EditResult = Type.Object({
  data: Type.Object({
    length: Type.Optional(Type.Integer({ description: "the value's size after the edit" })),
    id: Type.Optional(Type.String({ description: 'the stream entry added' })),
    created: Type.Optional(Type.Boolean()),
  }),
});

export type NewKeyValue = Static<typeof NewKeyValue>;
export type ListPush = Static<typeof ListPush>;
export type MemberBody = Static<typeof MemberBody>;
export type StreamEntryBody = Static<typeof StreamEntryBody>;
export type RenameBody = Static<typeof RenameBody>;
export type EditAnswer = Static<typeof EditResult>['data'];

/** Bulk delete by pattern (`databases:admin`). */

export const BULK_DELETE_STATUSES = ['running', 'done', 'failed', 'stopped'] as const;

export const BulkDeleteBody = Type.Object({
  pattern: Type.Union(
    [
      Type.String({ minLength: 1, maxLength: 4096 }),
      Type.Object({ base64: Type.String({ minLength: 1, maxLength: 8192 }) }),
    ],
    {
      description: 'a SCAN MATCH glob, as text or {"base64": "…"}',
    },
  ),
  dryRun: Type.Optional(
    Type.Boolean({ description: 'count the keys and answer a confirmToken; deletes nothing' }),
  ),
  confirmToken: Type.Optional(
    Type.String({ minLength: 1, maxLength: 128, description: 'from the dry run of this pattern' }),
  ),
});

export const BulkDeletePlan = Type.Object({
  count: Type.Integer({ description: 'keys matching when counted' }),
  confirmToken: Type.String(),
  expiresAt: Timestamp,
});

export const BulkDeleteJob = NamedObject('KeyValueBulkDelete', {
  id: Uuid(),
  pattern: Bytes,
  status: LiteralUnion(BULK_DELETE_STATUSES),
  expected: Type.Integer({ description: "the dry run's count" }),
  scanned: Type.Integer({ description: 'keys the scan has passed that matched' }),
  deleted: Type.Integer(),
  error: Nullable(Type.String()),
  startedAt: Timestamp,
  finishedAt: Nullable(Timestamp),
});

export const BulkDeleteJobParams = Type.Object({ id: Uuid(), jobId: Uuid() });

export type BulkDeleteBody = Static<typeof BulkDeleteBody>;
export type BulkDeletePlan = Static<typeof BulkDeletePlan>;
export type BulkDeleteJob = Static<typeof BulkDeleteJob>;

/** The server panes. */

export const ServerInfo = Type.Object({
  data: Type.Object({
    sections: Type.Record(Type.String(), Type.Record(Type.String(), Type.String()), {
      description: 'INFO by lower-case section (server, clients, memory, stats, keyspace …), values as text',
    }),
  }),
});

export const SlowlogQuery = Type.Object({
  count: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 128 })),
});

export const SlowlogEntry = Type.Object({
  id: Type.Integer(),
  at: Timestamp,
  durationMicros: Type.Integer(),
  command: Type.Array(Bytes, { description: 'the arguments as the server kept them (it cuts long ones)' }),
  client: Type.String(),
  clientName: Type.String(),
});

export const Slowlog = Type.Object({ data: Type.Array(SlowlogEntry) });

export const ClientList = Type.Object({
  data: Type.Array(Type.Record(Type.String(), Type.String()), {
    description: 'CLIENT LIST, one object per client',
  }),
});

export type SlowlogEntry = Static<typeof SlowlogEntry>;
