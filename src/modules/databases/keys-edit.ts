import crypto from 'node:crypto';
import type { Actor } from '../../core/actor.js';
import type { AuditAction } from '../../core/audit-actions.js';
import type { Deps } from '../../core/deps.js';
import { AppError, conflict, notFound } from '../../core/errors.js';
import type { KeyValueConnections } from './connections.js';
import { type BytesJson, fromBytesJson, toBytesJson } from './key-bytes.js';
import { type KeyValueHandle, openKeyValue } from './keyvalue-access.js';
import type {
  EditAnswer,
  ListPush,
  MemberBody,
  NewKeyValue,
  RenameBody,
  StreamEntryBody,
} from './keyvalue-schemas.js';

/**
 * Replaces a key with a whole new value atomically (one script, so no reader sees it half written):
 * ARGV is [type, ttl, …elements]; a stream's entries are each prefixed with their field count.
 */
const REPLACE_SCRIPT = `
local key, kind, ttl = KEYS[1], ARGV[1], tonumber(ARGV[2])
redis.call('DEL', key)
if kind == 'string' then redis.call('SET', key, ARGV[3])
elseif kind == 'hash' then for i = 3, #ARGV, 2 do redis.call('HSET', key, ARGV[i], ARGV[i + 1]) end
elseif kind == 'list' then for i = 3, #ARGV do redis.call('RPUSH', key, ARGV[i]) end
elseif kind == 'set' then for i = 3, #ARGV do redis.call('SADD', key, ARGV[i]) end
elseif kind == 'zset' then for i = 3, #ARGV, 2 do redis.call('ZADD', key, ARGV[i], ARGV[i + 1]) end
elseif kind == 'stream' then
  local i = 3
  while i <= #ARGV do
    local n = tonumber(ARGV[i])
    local entry = {}
    for j = 1, n * 2 do entry[j] = ARGV[i + j] end
    redis.call('XADD', key, '*', unpack(entry))
    i = i + 1 + n * 2
  end
end
if ttl > 0 then redis.call('EXPIRE', key, ttl) end
return 1`;

/** Removes one list item by index: LSET it to a marker no client writes, then LREM that marker. */
const REMOVE_ITEM_SCRIPT = `
if not redis.call('LINDEX', KEYS[1], ARGV[1]) then return 0 end
redis.call('LSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('LREM', KEYS[1], 1, ARGV[2])
return 1`;

/** How much of a key an audit event keeps (keys can be up to 512 MB). */
const AUDIT_KEY_BYTES = 1024;

export type KeyEditorDeps = Pick<Deps, 'db' | 'audit'> & { connections: KeyValueConnections };

const keyGone = (key: Buffer) => notFound({ reason: 'KEY_NOT_FOUND', key: toBytesJson(key) });

/** The server's "no such key" (LSET, RENAME) as the browser's 404. */
function noSuchKey(key: Buffer) {
  return (error: unknown) => {
    const serverError = error instanceof AppError && (error.details as { serverError?: string }).serverError;
    if (serverError && /no such key/i.test(serverError)) throw keyGone(key);
    throw error;
  };
}

/** The whole value flattened into the replace script's arguments. */
function elements(input: NewKeyValue): Buffer[] {
  switch (input.type) {
    case 'string':
      return [fromBytesJson(input.value)];
    case 'hash':
      return input.value.flatMap(({ field, value }) => [fromBytesJson(field), fromBytesJson(value)]);
    case 'list':
    case 'set':
      return input.value.map(fromBytesJson);
    case 'zset':
      return input.value.flatMap(({ member, score }) => [Buffer.from(String(score)), fromBytesJson(member)]);
    case 'stream':
      return input.value.flatMap(({ fields }) => [
        Buffer.from(String(fields.length)),
        ...fields.flatMap(({ field, value }) => [fromBytesJson(field), fromBytesJson(value)]),
      ]);
  }
}

/**
 * Edits of the key browser, each one command (or one script) on the server, each audited with the
 * key and the operation — never the value.
 */
export class KeyEditor {
  constructor(private readonly deps: KeyEditorDeps) {}

  /** Creates or replaces a key with a whole value (and a TTL, else none). */
  async put(actor: Actor, id: string, key: Buffer, input: NewKeyValue): Promise<EditAnswer> {
    const kv = await this.open(id);
    const created = Number(await kv.run('EXISTS', key)) === 0;
    await kv.run('EVAL', REPLACE_SCRIPT, 1, key, input.type, input.ttl ?? 0, ...elements(input));
    await this.audit(actor, id, 'databases.keyvalue.key_written', key, {
      operation: 'put',
      type: input.type,
      created,
    });
    return { created };
  }

  async putField(
    actor: Actor,
    id: string,
    key: Buffer,
    field: Buffer,
    value: BytesJson,
  ): Promise<EditAnswer> {
    const kv = await this.open(id);
    const created = Number(await kv.run('HSET', key, field, fromBytesJson(value))) === 1;
    await this.audit(actor, id, 'databases.keyvalue.key_written', key, { operation: 'field_put', created });
    return { created };
  }

  async deleteField(actor: Actor, id: string, key: Buffer, field: Buffer): Promise<EditAnswer> {
    const kv = await this.open(id);
    if (Number(await kv.run('HDEL', key, field)) === 0) throw notFound({ reason: 'FIELD_NOT_FOUND' });
    await this.audit(actor, id, 'databases.keyvalue.key_written', key, { operation: 'field_delete' });
    return {};
  }

  async pushItem(actor: Actor, id: string, key: Buffer, input: ListPush): Promise<EditAnswer> {
    const kv = await this.open(id);
    const head = input.end === 'head';
    const length = Number(await kv.run(head ? 'LPUSH' : 'RPUSH', key, fromBytesJson(input.value)));
    await this.audit(actor, id, 'databases.keyvalue.key_written', key, {
      operation: head ? 'item_push_head' : 'item_push_tail',
    });
    return { length };
  }

  async setItem(actor: Actor, id: string, key: Buffer, index: number, value: BytesJson): Promise<EditAnswer> {
    const kv = await this.open(id);
    await kv.run('LSET', key, index, fromBytesJson(value)).catch((error) => {
      const serverError =
        error instanceof AppError && (error.details as { serverError?: string }).serverError;
      if (serverError && /index out of range/i.test(serverError))
        throw notFound({ reason: 'ITEM_NOT_FOUND', index });
      return noSuchKey(key)(error);
    });
    await this.audit(actor, id, 'databases.keyvalue.key_written', key, { operation: 'item_set', index });
    return {};
  }

  async removeItem(actor: Actor, id: string, key: Buffer, index: number): Promise<EditAnswer> {
    const kv = await this.open(id);
    const marker = `infragate-removed-${crypto.randomUUID()}`;
    const removed = Number(await kv.run('EVAL', REMOVE_ITEM_SCRIPT, 1, key, index, marker));
    if (removed === 0) throw notFound({ reason: 'ITEM_NOT_FOUND', index });
    await this.audit(actor, id, 'databases.keyvalue.key_written', key, { operation: 'item_remove', index });
    return { length: Number(await kv.run('LLEN', key)) };
  }

  /** A set member (SADD), or with a score a sorted-set member (ZADD, which updates the score). */
  async addMember(actor: Actor, id: string, key: Buffer, input: MemberBody): Promise<EditAnswer> {
    const kv = await this.open(id);
    const member = fromBytesJson(input.member);
    const added =
      input.score === undefined
        ? await kv.run('SADD', key, member)
        : await kv.run('ZADD', key, input.score, member);
    await this.audit(actor, id, 'databases.keyvalue.key_written', key, {
      operation: 'member_add',
      type: input.score === undefined ? 'set' : 'zset',
    });
    return { created: Number(added) === 1 };
  }

  async removeMember(actor: Actor, id: string, key: Buffer, member: Buffer): Promise<EditAnswer> {
    const kv = await this.open(id);
    const type = String(await kv.run('TYPE', key));
    if (type === 'none') throw keyGone(key);
    if (type !== 'set' && type !== 'zset') {
      throw conflict('KEY_TYPE_CHANGED', { explanation: `the key holds a ${type}, not a set`, type });
    }
    if (Number(await kv.run(type === 'set' ? 'SREM' : 'ZREM', key, member)) === 0) {
      throw notFound({ reason: 'MEMBER_NOT_FOUND' });
    }
    await this.audit(actor, id, 'databases.keyvalue.key_written', key, { operation: 'member_remove', type });
    return {};
  }

  async addEntry(actor: Actor, id: string, key: Buffer, input: StreamEntryBody): Promise<EditAnswer> {
    const kv = await this.open(id);
    const fields = input.fields.flatMap(({ field, value }) => [fromBytesJson(field), fromBytesJson(value)]);
    const entryId = String(await kv.run('XADD', key, input.id ?? '*', ...fields));
    await this.audit(actor, id, 'databases.keyvalue.key_written', key, { operation: 'entry_add', entryId });
    return { id: entryId };
  }

  /** Sets the TTL in seconds, or with `null` removes it. */
  async setTtl(actor: Actor, id: string, key: Buffer, ttl: number | null): Promise<EditAnswer> {
    const kv = await this.open(id);
    if (ttl === null) {
      if (Number(await kv.run('EXISTS', key)) === 0) throw keyGone(key);
      await kv.run('PERSIST', key);
    } else if (Number(await kv.run('EXPIRE', key, ttl)) === 0) {
      throw keyGone(key);
    }
    await this.audit(actor, id, 'databases.keyvalue.key_written', key, { operation: 'ttl', ttl });
    return {};
  }

  async rename(actor: Actor, id: string, key: Buffer, input: RenameBody): Promise<EditAnswer> {
    const kv = await this.open(id);
    const newKey = fromBytesJson(input.newKey);
    if (input.overwrite) {
      await kv.run('RENAME', key, newKey).catch(noSuchKey(key));
    } else if (Number(await kv.run('RENAMENX', key, newKey).catch(noSuchKey(key))) === 0) {
      throw conflict('KEY_EXISTS', {
        explanation: 'a key of the new name exists; send overwrite: true to replace it',
      });
    }
    await this.audit(actor, id, 'databases.keyvalue.key_renamed', key, {
      newKey: this.auditKey(newKey),
      overwrite: input.overwrite ?? false,
    });
    return {};
  }

  async remove(actor: Actor, id: string, key: Buffer): Promise<void> {
    const kv = await this.open(id);
    if (Number(await kv.run('UNLINK', key)) === 0) throw keyGone(key);
    await this.audit(actor, id, 'databases.keyvalue.key_deleted', key, {});
  }

  private open(id: string): Promise<KeyValueHandle> {
    return openKeyValue(this.deps.connections, id);
  }

  /** A key as audit metadata: its first bytes, and whether it was cut. */
  private auditKey(key: Buffer): { key: BytesJson; keyTruncated?: true } {
    if (key.length <= AUDIT_KEY_BYTES) return { key: toBytesJson(key) };
    return { key: toBytesJson(key.subarray(0, AUDIT_KEY_BYTES)), keyTruncated: true };
  }

  private async audit(
    actor: Actor,
    id: string,
    action: AuditAction,
    key: Buffer,
    metadata: Record<string, unknown>,
  ): Promise<void> {
    await this.deps.audit.recordAlone(this.deps.db, actor, {
      action,
      targetType: 'database',
      targetId: id,
      metadata: { ...this.auditKey(key), ...metadata },
    });
  }
}
