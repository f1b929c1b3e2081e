import crypto from 'node:crypto';
import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { AuditActor } from '../../core/actor.js';
import { hashTokenSecret } from '../../core/auth/token-secrets.js';
import type { Deps } from '../../core/deps.js';
import { AppError, invalidField, notFound } from '../../core/errors.js';
import { isUuid } from '../../core/ids.js';
import { trimmedName } from '../../core/names.js';
import { fetchPage } from '../../core/pagination.js';
import { loggingEnvironments, loggingIngestTokens, loggingSchemas } from '../../db/schema/index.js';
import type { LogEnvironmentService } from './environments.js';
import type {
  IngestTarget,
  IngestToken,
  IssuedIngestToken,
  NewIngestToken,
  TokenListQuery,
} from './record-schemas.js';

const PREFIX = 'igl_';
const SECRET_SHAPE = /^igl_[A-Za-z0-9_-]{43}$/;
const TOUCH_INTERVAL_MS = 60_000;

const tokenColumns = {
  id: loggingIngestTokens.id,
  environmentId: loggingIngestTokens.environmentId,
  name: loggingIngestTokens.name,
  createdAt: loggingIngestTokens.createdAt,
  expiresAt: loggingIngestTokens.expiresAt,
  lastUsedAt: loggingIngestTokens.lastUsedAt,
  revokedAt: loggingIngestTokens.revokedAt,
};

/** 401 for every way an ingest credential can be wrong; the reason says which rule applies. */
const notAnIngestToken = () =>
  new AppError('UNAUTHORIZED', {
    reason: 'INGEST_TOKEN_REQUIRED',
    explanation: 'send a valid, unexpired ingest token of the environment as Authorization: Bearer igl_…',
  });

/**
 * Ingest tokens: write-only credentials of one environment. Only their SHA-256 is stored; the secret
 * is answered once. They are resolved here, by the ingest routes alone: the gateway's own
 * authentication does not know them, so an ingest token opens nothing else.
 */
export class IngestTokens {
  /** Tokens whose `lastUsedAt` was written within the last minute. */
  private readonly recentlyTouched = new LRUCache<string, true>({ max: 10_000, ttl: TOUCH_INTERVAL_MS });

  constructor(
    private readonly deps: Pick<Deps, 'db' | 'audit'> & {
      environments: Pick<LogEnvironmentService, 'getEnvironment'>;
    },
  ) {}

  async create(actor: AuditActor, environmentId: string, input: NewIngestToken): Promise<IssuedIngestToken> {
    const name = trimmedName(input.name);
    const expiresAt =
      input.expiresAt === undefined || input.expiresAt === null ? null : new Date(input.expiresAt);
    if (expiresAt && expiresAt.getTime() <= Date.now())
      throw invalidField(['expiresAt'], 'must be in the future');
    const token = PREFIX + crypto.randomBytes(32).toString('base64url');
    return this.deps.db.transaction(async (tx) => {
      await this.deps.environments.getEnvironment(environmentId, tx);
      const [row] = await tx
        .insert(loggingIngestTokens)
        .values({ environmentId, name, tokenHash: hashTokenSecret(token), expiresAt })
        .returning(tokenColumns);
      await this.deps.audit.record(tx, actor, {
        action: 'logging.ingest_token.created',
        targetType: 'ingest_token',
        targetId: row!.id,
        metadata: { environmentId, name, expiresAt: expiresAt?.toISOString() ?? null },
      });
      return { ...row!, token };
    });
  }

  async list(environmentId: string, query: TokenListQuery) {
    await this.deps.environments.getEnvironment(environmentId);
    const where = eq(loggingIngestTokens.environmentId, environmentId);
    return fetchPage<IngestToken>(
      query,
      ({ limit, offset }) =>
        this.deps.db
          .select(tokenColumns)
          .from(loggingIngestTokens)
          .where(where)
          .orderBy(desc(loggingIngestTokens.createdAt), desc(loggingIngestTokens.id))
          .limit(limit)
          .offset(offset),
      this.deps.db.select({ value: count() }).from(loggingIngestTokens).where(where),
    );
  }

  /** Revokes a token at once (every gateway reads tokens from the database on each request). */
  async revoke(actor: AuditActor, environmentId: string, tokenId: string): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      await this.deps.environments.getEnvironment(environmentId, tx);
      const [row] = isUuid(tokenId)
        ? await tx
            .update(loggingIngestTokens)
            .set({ revokedAt: sql`coalesce(${loggingIngestTokens.revokedAt}, now())` })
            .where(
              and(eq(loggingIngestTokens.id, tokenId), eq(loggingIngestTokens.environmentId, environmentId)),
            )
            .returning({ name: loggingIngestTokens.name })
        : [];
      if (!row) throw notFound({ tokenId });
      await this.deps.audit.record(tx, actor, {
        action: 'logging.ingest_token.revoked',
        targetType: 'ingest_token',
        targetId: tokenId,
        metadata: { environmentId, name: row.name },
      });
    });
  }

  /**
   * `Authorization: Bearer igl_…` → the environment it writes to, with what ingest needs (limits,
   * retention, schema). One indexed read per request, so a revoke or a settings change applies to
   * the next request on every gateway.
   */
  async authenticate(authorization: string | undefined, now = Date.now()): Promise<IngestTarget> {
    const secret = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
    if (!secret || !SECRET_SHAPE.test(secret)) throw notAnIngestToken();
    const [row] = await this.deps.db
      .select({
        tokenId: loggingIngestTokens.id,
        expiresAt: loggingIngestTokens.expiresAt,
        environmentId: loggingEnvironments.id,
        retentionDays: loggingEnvironments.retentionDays,
        onSchemaViolation: loggingEnvironments.onSchemaViolation,
        maxBodyBytes: loggingEnvironments.ingestMaxBodyBytes,
        maxRecords: loggingEnvironments.ingestMaxRecords,
        recordsPerSecond: loggingEnvironments.ingestRecordsPerSecond,
        bytesPerSecond: loggingEnvironments.ingestBytesPerSecond,
        burstSeconds: loggingEnvironments.ingestBurstSeconds,
        schema: loggingSchemas.fields,
      })
      .from(loggingIngestTokens)
      .innerJoin(loggingEnvironments, eq(loggingEnvironments.id, loggingIngestTokens.environmentId))
      .leftJoin(loggingSchemas, eq(loggingSchemas.id, loggingEnvironments.schemaId))
      .where(
        and(
          eq(loggingIngestTokens.tokenHash, hashTokenSecret(secret)),
          isNull(loggingIngestTokens.revokedAt),
        ),
      );
    if (!row || (row.expiresAt && row.expiresAt.getTime() <= now)) throw notAnIngestToken();
    this.touch(row.tokenId);
    const { expiresAt: _expiresAt, schema, ...target } = row;
    return { ...target, schema: schema ?? [] };
  }

  private touch(tokenId: string): void {
    if (this.recentlyTouched.has(tokenId)) return;
    this.recentlyTouched.set(tokenId, true);
    this.deps.db
      .update(loggingIngestTokens)
      .set({ lastUsedAt: sql`now()` })
      .where(eq(loggingIngestTokens.id, tokenId))
      .catch(() => {
        // Usage time is informative; a failed write must not fail the ingest that caused it.
      });
  }
}
