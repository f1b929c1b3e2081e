import { and, desc, eq, gt, isNull, ne, or, sql } from 'drizzle-orm';
import type { Actor, AuditActor } from '../../core/actor.js';
import type { AuditRecorder } from '../../core/audit-recorder.js';
import { verifyPassword } from '../../core/auth/passwords.js';
import type { PrincipalResolver } from '../../core/auth/principal-resolver.js';
import { AppError, notFound, unauthorized } from '../../core/errors.js';
import type { Db } from '../../db/client.js';
import { authTokens, users } from '../../db/schema/index.js';
import type { UserService } from '../users/service.js';
import { FAILED_LOGIN_ACTION, type LoginThrottle } from './login-throttle.js';
import { createApiToken, issueToken } from './tokens.js';

export interface ClientInfo {
  userAgent: string | null;
  clientIp: string;
  requestId: string;
}

const activeToken = () =>
  and(isNull(authTokens.revokedAt), or(isNull(authTokens.expiresAt), gt(authTokens.expiresAt, sql`now()`)));

const tokenColumns = {
  id: authTokens.id,
  name: authTokens.name,
  createdAt: authTokens.createdAt,
  lastUsedAt: authTokens.lastUsedAt,
  expiresAt: authTokens.expiresAt,
  userAgent: authTokens.userAgent,
  clientIp: authTokens.clientIp,
};

/** Login, sessions and the caller's own API tokens. */
export class AuthService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditRecorder,
    private readonly principals: PrincipalResolver,
    private readonly users: UserService,
    private readonly sessionTtlSeconds: number,
    private readonly throttle: LoginThrottle,
  ) {}

  /** Email + password → a browser session. Every failure looks the same to the caller. */
  async login(email: string, password: string, client: ClientInfo) {
    const normalized = email.trim().toLowerCase();
    const [user] = await this.db.select().from(users).where(eq(users.email, normalized));
    const auditActor: AuditActor = {
      userId: user?.id ?? null,
      email: normalized,
      requestId: client.requestId,
      clientIp: client.clientIp,
    };
    const recordRefusal = (action: string) =>
      this.audit.recordAlone(this.db, auditActor, {
        action,
        targetType: 'user',
        targetId: user?.id ?? null,
        outcome: 'failure',
        metadata: { email: normalized },
      });
    const verdict = await this.throttle.check(normalized, client.clientIp);
    if (verdict.locked) {
      // Not counted as a failure, so a locked account unlocks when the window passes.
      await recordRefusal('auth.login.throttled');
      throw new AppError('UNAUTHORIZED', {
        reason: 'TOO_MANY_FAILED_LOGINS',
        explanation: 'too many failed logins for this account or address; try again later',
        retryAfterSeconds: verdict.retryAfterSeconds,
      });
    }
    const passwordOk = await verifyPassword(password, user?.passwordHash);
    if (!user || !passwordOk || user.disabled) {
      await recordRefusal(FAILED_LOGIN_ACTION);
      throw unauthorized();
    }
    const session = await this.db.transaction(async (tx) => {
      const issued = await issueToken(tx, {
        userId: user.id,
        kind: 'session',
        name: 'browser session',
        expiresAt: new Date(Date.now() + this.sessionTtlSeconds * 1000),
        userAgent: client.userAgent,
        clientIp: client.clientIp,
      });
      await this.audit.record(tx, auditActor, {
        action: 'auth.login.succeeded',
        targetType: 'session',
        targetId: issued.id,
      });
      return issued;
    });
    return { session, user: await this.users.getUser(user.id) };
  }

  /** Ends the session or revokes the API token the caller is using. */
  async logout(actor: Actor): Promise<void> {
    await this.revoke(
      actor,
      actor.tokenId,
      actor.tokenKind === 'session' ? 'auth.logout' : 'auth.token.revoked',
    );
  }

  createApiToken(actor: Actor, name: string, expiresInDays: number | undefined) {
    const expiresAt = expiresInDays ? new Date(Date.now() + expiresInDays * 86_400_000) : null;
    return createApiToken(this.db, this.audit, actor, { userId: actor.userId, name, expiresAt });
  }

  listApiTokens(actor: Actor) {
    return this.listTokens(actor, 'api');
  }

  async listSessions(actor: Actor) {
    const sessions = await this.listTokens(actor, 'session');
    return sessions.map((session) => ({ ...session, current: session.id === actor.tokenId }));
  }

  async revokeApiToken(actor: Actor, tokenId: string): Promise<void> {
    const [token] = await this.db
      .select({ id: authTokens.id })
      .from(authTokens)
      .where(
        and(
          eq(authTokens.id, tokenId),
          eq(authTokens.userId, actor.userId),
          eq(authTokens.kind, 'api'),
          activeToken(),
        ),
      );
    if (!token) throw notFound({ tokenId });
    await this.revoke(actor, tokenId, 'auth.token.revoked');
  }

  /** Revokes every other active browser session of the caller (all of them when the caller uses an API token). */
  async revokeOtherSessions(actor: Actor): Promise<number> {
    const revoked = await this.db.transaction(async (tx) => {
      const rows = await tx
        .update(authTokens)
        .set({ revokedAt: new Date() })
        .where(
          and(
            eq(authTokens.userId, actor.userId),
            eq(authTokens.kind, 'session'),
            ne(authTokens.id, actor.tokenId),
            activeToken(),
          ),
        )
        .returning({ id: authTokens.id });
      await this.audit.record(tx, actor, {
        action: 'auth.sessions.revoked_others',
        targetType: 'user',
        targetId: actor.userId,
        metadata: { revoked: rows.length },
      });
      return rows.length;
    });
    this.principals.invalidate();
    return revoked;
  }

  private listTokens(actor: Actor, kind: 'api' | 'session') {
    return this.db
      .select(tokenColumns)
      .from(authTokens)
      .where(and(eq(authTokens.userId, actor.userId), eq(authTokens.kind, kind), activeToken()))
      .orderBy(desc(authTokens.createdAt));
  }

  private async revoke(actor: Actor, tokenId: string, action: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.update(authTokens).set({ revokedAt: new Date() }).where(eq(authTokens.id, tokenId));
      await this.audit.record(tx, actor, { action, targetType: 'token', targetId: tokenId });
    });
    this.principals.invalidate();
  }
}
