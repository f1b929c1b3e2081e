import { and, desc, eq, gt, isNull, ne, or, sql } from 'drizzle-orm';
import type { Actor, AuditActor } from '../../core/actor.js';
import type { AuditAction } from '../../core/audit-actions.js';
import { verifyPassword } from '../../core/auth/passwords.js';
import { csrfTokenFor } from '../../core/auth/token-secrets.js';
import type { Deps } from '../../core/deps.js';
import { AppError, notFound, unauthorized } from '../../core/errors.js';
import { authTokens, type TokenKind, users } from '../../db/schema/index.js';
import type { UserService } from '../users/service.js';
import { FAILED_LOGIN_ACTION, LoginThrottle } from './login-throttle.js';
import type {
  Credentials,
  IssuedApiToken,
  LoginAnswer,
  Me,
  NewApiToken,
  Session,
  TokenRecord,
} from './schemas.js';
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

/** What the auth service is built from: the shared deps and the users area's service. */
export type AuthDeps = Pick<Deps, 'db' | 'audit' | 'principals' | 'config' | 'notifications'> & {
  users: UserService;
};

/** Login, sessions and the caller's own API tokens. */
export class AuthService {
  private readonly throttle: LoginThrottle;

  constructor(private readonly deps: AuthDeps) {
    this.throttle = new LoginThrottle(deps);
  }

  /** Email + password → a browser session. Every failure looks the same to the caller. */
  async login({ email, password }: Credentials, client: ClientInfo): Promise<LoginAnswer> {
    const normalized = email.trim().toLowerCase();
    const [user] = await this.deps.db.select().from(users).where(eq(users.email, normalized));
    const auditActor: AuditActor = {
      userId: user?.id ?? null,
      email: normalized,
      requestId: client.requestId,
      clientIp: client.clientIp,
    };
    const refusal = (action: AuditAction) => ({
      action,
      targetType: 'user',
      targetId: user?.id ?? null,
      outcome: 'failure' as const,
      metadata: { email: normalized },
    });
    const verdict = await this.throttle.check(normalized, client.clientIp);
    if (verdict.locked) {
      // Not counted as a failure, so a locked account unlocks when the window passes.
      await this.deps.audit.recordAlone(this.deps.db, auditActor, refusal('auth.login.throttled'));
      throw new AppError('UNAUTHORIZED', {
        reason: 'TOO_MANY_FAILED_LOGINS',
        explanation: 'too many failed logins for this account or address; try again later',
        retryAfterSeconds: verdict.retryAfterSeconds,
      });
    }
    const passwordOk = await verifyPassword(password, user?.passwordHash);
    if (!user || !passwordOk || user.disabled) {
      await this.deps.db.transaction(async (tx) => {
        await this.deps.audit.record(tx, auditActor, refusal(FAILED_LOGIN_ACTION));
        await this.throttle.reportLocks(tx, normalized, client.clientIp);
      });
      throw unauthorized();
    }
    const session = await this.deps.db.transaction(async (tx) => {
      const issued = await issueToken(tx, {
        userId: user.id,
        kind: 'session',
        name: 'browser session',
        expiresAt: new Date(Date.now() + this.deps.config.sessionTtlSeconds * 1000),
        userAgent: client.userAgent,
        clientIp: client.clientIp,
      });
      await this.deps.audit.record(tx, auditActor, {
        action: 'auth.login.succeeded',
        targetType: 'session',
        targetId: issued.id,
      });
      return issued;
    });
    return {
      token: session.token,
      csrfToken: session.csrfToken!,
      expiresAt: session.expiresAt!,
      user: await this.deps.users.getUser(user.id),
    };
  }

  /** The caller as the gateway knows it: who, in which group, with which scopes. */
  /** The caller; a session signed in by cookie also gets its CSRF token back (derived from the secret). */
  currentUser(actor: Actor, sessionCookie?: string): Me {
    const { userId, email, name, groupName, scopes } = actor;
    const me = { id: userId, email, name, groupName, scopes: [...scopes] };
    return actor.tokenKind === 'session' && sessionCookie
      ? { ...me, csrfToken: csrfTokenFor(sessionCookie) }
      : me;
  }

  /** Ends the session or revokes the API token the caller is using. */
  async logout(actor: Actor): Promise<void> {
    await this.revoke(
      actor,
      actor.tokenId,
      actor.tokenKind === 'session' ? 'auth.logout' : 'auth.token.revoked',
    );
  }

  /** A token for the caller; a blank name becomes `api token`. */
  async createApiToken(actor: Actor, { name, expiresInDays }: NewApiToken): Promise<IssuedApiToken> {
    const expiresAt = expiresInDays ? new Date(Date.now() + expiresInDays * 86_400_000) : null;
    const issued = await createApiToken(this.deps.db, this.deps.audit, actor, {
      userId: actor.userId,
      name: name.trim() || 'api token',
      expiresAt,
    });
    return { ...issued, lastUsedAt: null };
  }

  listApiTokens(actor: Actor): Promise<TokenRecord[]> {
    return this.listTokens(actor, 'api');
  }

  async listSessions(actor: Actor): Promise<Session[]> {
    const sessions = await this.listTokens(actor, 'session');
    return sessions.map((session) => ({ ...session, current: session.id === actor.tokenId }));
  }

  async revokeApiToken(actor: Actor, tokenId: string): Promise<void> {
    const [token] = await this.deps.db
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
    const revoked = await this.deps.db.transaction(async (tx) => {
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
      await this.deps.audit.record(tx, actor, {
        action: 'auth.sessions.revoked_others',
        targetType: 'user',
        targetId: actor.userId,
        metadata: { revoked: rows.length },
      });
      return rows.length;
    });
    this.deps.principals.invalidate();
    return revoked;
  }

  private listTokens(actor: Actor, kind: TokenKind) {
    return this.deps.db
      .select(tokenColumns)
      .from(authTokens)
      .where(and(eq(authTokens.userId, actor.userId), eq(authTokens.kind, kind), activeToken()))
      .orderBy(desc(authTokens.createdAt));
  }

  private async revoke(actor: Actor, tokenId: string, action: AuditAction): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      await tx.update(authTokens).set({ revokedAt: new Date() }).where(eq(authTokens.id, tokenId));
      await this.deps.audit.record(tx, actor, { action, targetType: 'token', targetId: tokenId });
    });
    this.deps.principals.invalidate();
  }
}
