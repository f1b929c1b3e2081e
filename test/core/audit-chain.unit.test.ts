import { describe, expect, it } from 'vitest';
import { type ChainedFields, chainHash, GENESIS_HASH } from '../../src/core/audit-recorder.js';
import { canonicalJson } from '../../src/core/canonical-json.js';

// The expected texts are written by hand and the hashes were computed outside this code, with
// `printf '%s\n%s' "$prevHash" "$canonicalText" | sha256sum`: a change to the canonical form or to
// the hash input breaks every chain already stored, and must fail here.

const first: ChainedFields = {
  seq: 1,
  id: '00000000-0000-4000-8000-000000000001',
  occurredAt: new Date('2024-01-02T03:04:05.678Z'),
  actorId: null,
  actorEmail: 'ops@example.test',
  action: 'logging.schema_folder.moved',
  targetType: 'logging_schema_folder',
  targetId: 'f1',
  outcome: 'success',
  requestId: 'req-1',
  clientIp: '127.0.0.1',
  metadata: { to: 'b', from: 'a', note: 'grüße', nested: { z: 1, a: [2, { y: true, b: null }] } },
};
const FIRST_TEXT =
  '{"action":"logging.schema_folder.moved","actorEmail":"ops@example.test","actorId":null,' +
  '"clientIp":"127.0.0.1","id":"00000000-0000-4000-8000-000000000001",' +
  '"metadata":{"from":"a","nested":{"a":[2,{"b":null,"y":true}],"z":1},"note":"grüße","to":"b"},' +
  '"occurredAt":"2024-01-02T03:04:05.678Z","outcome":"success","requestId":"req-1","seq":1,' +
  '"targetId":"f1","targetType":"logging_schema_folder"}';
const FIRST_HASH = '2f5ac295ced1c2d25ab732d375c75c9652da36567bbb9c39223a9e37bd713aab';

const second: ChainedFields = {
  seq: 2,
  id: '00000000-0000-4000-8000-000000000002',
  occurredAt: new Date('2024-01-02T03:04:06Z'),
  actorId: null,
  actorEmail: null,
  action: 'auth.login.refused',
  targetType: null,
  targetId: null,
  outcome: 'failure',
  requestId: null,
  clientIp: null,
  metadata: {},
};
const SECOND_HASH = 'ff4905761215e68c4e92d420ca34dc065dd9413c0541836da0899de46c53ee3e';

describe('canonicalJson', () => {
  it('sorts object keys at every depth and keeps array order', () => {
    expect(canonicalJson({ ...first, occurredAt: first.occurredAt.toISOString() })).toBe(FIRST_TEXT);
  });

  it('orders keys by UTF-16 code unit, so upper case comes before lower case', () => {
    expect(canonicalJson({ b: 1, a: 2, B: 3, _: 4 })).toBe('{"B":3,"_":4,"a":2,"b":1}');
  });

  it('leaves out keys whose value is undefined', () => {
    expect(canonicalJson({ kept: null, dropped: undefined })).toBe('{"kept":null}');
  });

  it('writes a Date as its ISO-8601 text', () => {
    expect(canonicalJson({ at: new Date('2024-01-02T03:04:05.678Z') })).toBe(
      '{"at":"2024-01-02T03:04:05.678Z"}',
    );
  });
});

describe('chainHash', () => {
  it('starts the chain with a hash of sixty-four zeros', () => {
    expect(GENESIS_HASH).toBe('0'.repeat(64));
  });

  it('is SHA-256 over the previous hash, a newline and the canonical event', () => {
    expect(chainHash(GENESIS_HASH, first)).toBe(FIRST_HASH);
  });

  it('links each event to the hash of the one before it', () => {
    expect(chainHash(FIRST_HASH, second)).toBe(SECOND_HASH);
  });

  it('gives the same hash whatever order the metadata keys were written in', () => {
    const reordered = {
      ...first,
      metadata: { nested: { a: [2, { b: null, y: true }], z: 1 }, note: 'grüße', from: 'a', to: 'b' },
    };
    expect(chainHash(GENESIS_HASH, reordered)).toBe(FIRST_HASH);
  });
});
