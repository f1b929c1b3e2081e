import crypto from 'node:crypto';
import { and, count, desc, eq, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import type { Actor, AuditActor } from '../../core/actor.js';
import type { AuditRecorder } from '../../core/audit-recorder.js';
import { hasScope } from '../../core/auth/scopes.js';
import { hashTokenSecret } from '../../core/auth/token-secrets.js';
import type { Deps } from '../../core/deps.js';
import { conflict, invalidField, notFound } from '../../core/errors.js';
import { trimmedName } from '../../core/names.js';
import { fetchPage } from '../../core/pagination.js';
import type { Db, DbOrTx } from '../../db/client.js';
import { groups, pagesDeployments, pagesDeployTokens, users } from '../../db/schema/index.js';
import { requireProject } from './project-rows.js';
import type { DeployToken, DeployTokenListQuery, IssuedDeployToken, NewDeployToken } from './schemas.js';

/** Deploy tokens start with their own prefix, so no other route mistakes one for an API token. */
const DEPLOY_TOKEN_PREFIX = 'igp_';

export const looksLikeDeployToken = (value: string) => /^igp_[A-Za-z0-9_-]{43}$/.test(value);

/** The one scope a deploy token's caller holds: deploying that project (it grants no route scope). */
export const deployScope = (projectId: string) => `pages:deploy:${projectId}`;

/** The scope the token's creator must still hold, on the whole area or on the token's project. */
const CREATOR_SCOPE = 'pages:manage';

const tokenColumns = {
  id: pagesDeployTokens.id,
  projectId: pagesDeployTokens.projectId,
  name: pagesDeployTokens.name,
  createdBy: users.email,
  createdAt: pagesDeployTokens.createdAt,
  lastUsedAt: pagesDeployTokens.lastUsedAt,
  expiresAt: pagesDeployTokens.expiresAt,
  revokedAt: pagesDeployTokens.revokedAt,
};

/**
 * Project deploy tokens for CI: shown once, kept as SHA-256, revocable. A token acts for the user
 * who created it, only while that user is enabled and still holds `pages:manage`, and only to upload
 * deployments of its project and read the deployments it uploaded.
 */
export class DeployTokenService {
  private readonly db: Db;
  private readonly audit: AuditRecorder;
  private readonly log: Deps['log'];

  constructor(deps: Pick<Deps, 'db' | 'audit' | 'log'>) {
    this.db = deps.db;
    this.audit = deps.audit;
    this.log = deps.log;
  }

  async list(projectId: string, filter: DeployTokenListQuery) {
    await requireProject(this.db, projectId);
    const conditions: SQL[] = [eq(pagesDeployTokens.projectId, projectId)];
    if (filter.revoked !== undefined)
      conditions.push(
        filter.revoked ? isNotNull(pagesDeployTokens.revokedAt) : isNull(pagesDeployTokens.revokedAt),
      );
    const where = and(...conditions);
    return fetchPage(
      filter,
      ({ limit, offset }) =>
        this.db
          .select(tokenColumns)
          .from(pagesDeployTokens)
          .innerJoin(users, eq(users.id, pagesDeployTokens.createdBy))
          .where(where)
          .orderBy(desc(pagesDeployTokens.createdAt), desc(pagesDeployTokens.id))
          .limit(limit)
          .offset(offset),
      this.db.select({ value: count() }).from(pagesDeployTokens).where(where),
    );
  }

  async create(actor: Actor, projectId: string, input: NewDeployToken): Promise<IssuedDeployToken> {
    const name = trimmedName(input.name);
    const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
    if (expiresAt && expiresAt.getTime() <= Date.now())
      throw invalidField(['expiresAt'], 'must be in the future');
    const token = DEPLOY_TOKEN_PREFIX + crypto.randomBytes(32).toString('base64url');
    return this.db.transaction(async (tx) => {
      await requireProject(tx, projectId);
      const [row] = await tx
        .insert(pagesDeployTokens)
        .values({ projectId, name, tokenHash: hashTokenSecret(token), createdBy: actor.userId, expiresAt })
        .returning({ id: pagesDeployTokens.id });
      await this.audit.record(tx, actor, {
        action: 'pages.deploy_token.created',
        targetType: 'pages_deploy_token',
        targetId: row!.id,
        metadata: { projectId, name, expiresAt: expiresAt?.toISOString() ?? null },
      });
      return { ...(await this.get(projectId, row!.id, tx)), token };
    });
  }

  async revoke(actor: AuditActor, projectId: string, tokenId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const token = await this.get(projectId, tokenId, tx);
      if (token.revokedAt) throw conflict('DEPLOY_TOKEN_REVOKED', { tokenId, revokedAt: token.revokedAt });
      await tx
        .update(pagesDeployTokens)
        .set({ revokedAt: new Date() })
        .where(eq(pagesDeployTokens.id, tokenId));
      await this.audit.record(tx, actor, {
        action: 'pages.deploy_token.revoked',
        targetType: 'pages_deploy_token',
        targetId: tokenId,
        metadata: { projectId, name: token.name },
      });
    });
  }

  /**
   * The caller a deploy token stands for, or null when it is unknown, revoked or expired, or its
   * creator is disabled or no longer holds `pages:manage` (or `pages:manage:<projectId>`). Read from the database on every use (no
   * cache), so a revoke takes effect at once in every gateway process.
   */
  async authenticate(secret: string, request: { id: string; ip: string }): Promise<Actor | null> {
    const [row] = await this.db
      .select({
        id: pagesDeployTokens.id,
        projectId: pagesDeployTokens.projectId,
        expiresAt: pagesDeployTokens.expiresAt,
        userId: users.id,
        email: users.email,
        name: users.name,
        groupName: groups.name,
        scopes: groups.scopes,
      })
      .from(pagesDeployTokens)
      .innerJoin(users, eq(users.id, pagesDeployTokens.createdBy))
      .innerJoin(groups, eq(groups.id, users.groupId))
      .where(
        and(
          eq(pagesDeployTokens.tokenHash, hashTokenSecret(secret)),
          isNull(pagesDeployTokens.revokedAt),
          eq(users.disabled, false),
        ),
      );
    if (!row || (row.expiresAt && row.expiresAt.getTime() <= Date.now())) return null;
    if (!hasScope(row.scopes, CREATOR_SCOPE, row.projectId)) return null;
    await this.db
      .update(pagesDeployTokens)
      .set({ lastUsedAt: sql`now()` })
      .where(eq(pagesDeployTokens.id, row.id))
      .catch((error: unknown) => {
        // Usage time is informative; a failed write must not fail the upload.
        this.log.warn({ err: error }, 'could not record the use of a deploy token');
      });
    return {
      userId: row.userId,
      email: row.email,
      name: row.name,
      groupName: row.groupName,
      scopes: [deployScope(row.projectId)],
      tokenId: row.id,
      tokenKind: 'deploy',
      tokenExpiresAt: row.expiresAt,
      requestId: request.id,
      clientIp: request.ip,
    };
  }

  /** Which deploy token uploaded a deployment (null when a person did, undefined when there is none). */
  async uploaderOf(deploymentId: string): Promise<string | null | undefined> {
    const [row] = await this.db
      .select({ tokenId: pagesDeployments.deployTokenId })
      .from(pagesDeployments)
      .where(eq(pagesDeployments.id, deploymentId));
    return row?.tokenId;
  }

  private async get(projectId: string, tokenId: string, db: DbOrTx = this.db): Promise<DeployToken> {
    const [row] = await db
      .select(tokenColumns)
      .from(pagesDeployTokens)
      .innerJoin(users, eq(users.id, pagesDeployTokens.createdBy))
      .where(and(eq(pagesDeployTokens.id, tokenId), eq(pagesDeployTokens.projectId, projectId)));
    if (row) return row;
    await requireProject(db, projectId);
    throw notFound({ projectId, tokenId });
  }
}
