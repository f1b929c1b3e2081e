import crypto from 'node:crypto';
import { count, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { AuditActor } from '../../core/actor.js';
import { hashTokenSecret } from '../../core/auth/token-secrets.js';
import { conflictOnDuplicate } from '../../core/db-errors.js';
import type { Deps } from '../../core/deps.js';
import { invalidField, notFound } from '../../core/errors.js';
import { isUuid } from '../../core/ids.js';
import { trimmedName } from '../../core/names.js';
import { fetchPage } from '../../core/pagination.js';
import { inferenceKeys } from '../../db/schema/index.js';
import type {
  ConsumerKey,
  ConsumerKeyChange,
  IssuedConsumerKey,
  KeyListQuery,
  NewConsumerKey,
} from './plane-schemas.js';

const PREFIX = 'igk_';
const SECRET_SHAPE = /^igk_[A-Za-z0-9_-]{43}$/;
const SHOWN_PREFIX_LENGTH = 10;
const TOUCH_INTERVAL_MS = 60_000;

const keyColumns = {
  id: inferenceKeys.id,
  name: inferenceKeys.name,
  keyPrefix: inferenceKeys.keyPrefix,
  models: inferenceKeys.models,
  expiresAt: inferenceKeys.expiresAt,
  revokedAt: inferenceKeys.revokedAt,
  lastUsedAt: inferenceKeys.lastUsedAt,
  createdAt: inferenceKeys.createdAt,
  updatedAt: inferenceKeys.updatedAt,
};

/** Why a key did not open the data plane; the data plane answers each in the caller's protocol. */
export type KeyRefusal = 'missing' | 'unknown' | 'revoked' | 'expired';

export type KeyCheck = { ok: true; key: ConsumerKey } | { ok: false; refusal: KeyRefusal };

/** A future instant or a 400 on the field. */
function futureDate(value: string | null | undefined): Date | null | undefined {
  if (value === undefined || value === null) return value;
  const date = new Date(value);
  if (date.getTime() <= Date.now()) throw invalidField(['expiresAt'], 'must be in the future');
  return date;
}

/**
 * Consumer keys of the data plane. Only their SHA-256 is stored; the secret is answered once. The
 * gateway's authentication does not know them (they are not `igw_` tokens), so a key opens nothing
 * under `/api`; the data plane resolves them itself.
 */
export class ConsumerKeys {
  /** Keys whose `lastUsedAt` was written within the last minute. */
  private readonly recentlyTouched = new LRUCache<string, true>({ max: 10_000, ttl: TOUCH_INTERVAL_MS });

  constructor(private readonly deps: Pick<Deps, 'db' | 'audit'>) {}

  async create(actor: AuditActor, input: NewConsumerKey): Promise<IssuedConsumerKey> {
    const name = trimmedName(input.name);
    const expiresAt = futureDate(input.expiresAt) ?? null;
    const key = PREFIX + crypto.randomBytes(32).toString('base64url');
    return this.deps.db.transaction(async (tx) => {
      const [row] = await conflictOnDuplicate(
        tx
          .insert(inferenceKeys)
          .values({
            name,
            keyHash: hashTokenSecret(key),
            keyPrefix: key.slice(0, SHOWN_PREFIX_LENGTH),
            models: input.models ?? null,
            expiresAt,
            createdBy: actor.userId,
          })
          .returning(keyColumns),
        'KEY_NAME_TAKEN',
        { name },
      );
      await this.deps.audit.record(tx, actor, {
        action: 'inference.key.created',
        targetType: 'inference_key',
        targetId: row!.id,
        metadata: { name, models: row!.models, expiresAt: expiresAt?.toISOString() ?? null },
      });
      return { ...row!, key };
    });
  }

  async list(query: KeyListQuery) {
    const where =
      query.revoked === undefined
        ? undefined
        : query.revoked
          ? isNotNull(inferenceKeys.revokedAt)
          : isNull(inferenceKeys.revokedAt);
    return fetchPage<ConsumerKey>(
      query,
      ({ limit, offset }) =>
        this.deps.db
          .select(keyColumns)
          .from(inferenceKeys)
          .where(where)
          .orderBy(desc(inferenceKeys.createdAt), desc(inferenceKeys.id))
          .limit(limit)
          .offset(offset),
      this.deps.db.select({ value: count() }).from(inferenceKeys).where(where),
    );
  }

  async get(id: string): Promise<ConsumerKey> {
    const [row] = isUuid(id)
      ? await this.deps.db.select(keyColumns).from(inferenceKeys).where(eq(inferenceKeys.id, id))
      : [];
    if (!row) throw notFound({ keyId: id });
    return row;
  }

  /** Renames a key or changes what it may use; applies to the key's next request on every gateway. */
  async update(actor: AuditActor, id: string, change: ConsumerKeyChange): Promise<ConsumerKey> {
    const values: Partial<typeof inferenceKeys.$inferInsert> = {};
    if (change.name !== undefined) values.name = trimmedName(change.name);
    if (change.models !== undefined) values.models = change.models;
    if (change.expiresAt !== undefined) values.expiresAt = futureDate(change.expiresAt);
    return this.deps.db.transaction(async (tx) => {
      const [row] = isUuid(id)
        ? await conflictOnDuplicate(
            tx
              .update(inferenceKeys)
              .set({ ...values, updatedAt: new Date() })
              .where(eq(inferenceKeys.id, id))
              .returning(keyColumns),
            'KEY_NAME_TAKEN',
            { name: values.name },
          )
        : [];
      if (!row) throw notFound({ keyId: id });
      await this.deps.audit.record(tx, actor, {
        action: 'inference.key.updated',
        targetType: 'inference_key',
        targetId: id,
        metadata: {
          ...change,
          ...(values.expiresAt !== undefined ? { expiresAt: values.expiresAt?.toISOString() ?? null } : {}),
        },
      });
      return row;
    });
  }

  /** Revokes a key at once (every gateway reads keys from the database on each request); kept for its usage. */
  async revoke(actor: AuditActor, id: string): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const [row] = isUuid(id)
        ? await tx
            .update(inferenceKeys)
            .set({ revokedAt: sql`coalesce(${inferenceKeys.revokedAt}, now())`, updatedAt: new Date() })
            .where(eq(inferenceKeys.id, id))
            .returning({ name: inferenceKeys.name })
        : [];
      if (!row) throw notFound({ keyId: id });
      await this.deps.audit.record(tx, actor, {
        action: 'inference.key.revoked',
        targetType: 'inference_key',
        targetId: id,
        metadata: { name: row.name },
      });
    });
  }

  /** The key a data-plane secret stands for, or why it does not open the plane. One indexed read. */
  async authenticate(secret: string | undefined, now = Date.now()): Promise<KeyCheck> {
    if (!secret) return { ok: false, refusal: 'missing' };
    if (!SECRET_SHAPE.test(secret)) return { ok: false, refusal: 'unknown' };
    const [row] = await this.deps.db
      .select(keyColumns)
      .from(inferenceKeys)
      .where(eq(inferenceKeys.keyHash, hashTokenSecret(secret)));
    if (!row) return { ok: false, refusal: 'unknown' };
    if (row.revokedAt) return { ok: false, refusal: 'revoked' };
    if (row.expiresAt && row.expiresAt.getTime() <= now) return { ok: false, refusal: 'expired' };
    this.touch(row.id);
    return { ok: true, key: row };
  }

  private touch(keyId: string): void {
    if (this.recentlyTouched.has(keyId)) return;
    this.recentlyTouched.set(keyId, true);
    this.deps.db
      .update(inferenceKeys)
      .set({ lastUsedAt: sql`now()` })
      .where(eq(inferenceKeys.id, keyId))
      .catch(() => {
        // Usage time is informative; a failed write must not fail the request that caused it.
      });
  }
}

/** Whether a model name matches one of the key's names or globs (`*` any run, `?` one character). */
export function keyAllowsModel(patterns: string[] | null, model: string): boolean {
  if (patterns === null) return true;
  return patterns.some((pattern) => globToRegExp(pattern).test(model));
}

function globToRegExp(pattern: string): RegExp {
  const body = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`);
}
