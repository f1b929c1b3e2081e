import { and, desc, eq } from 'drizzle-orm';
import type { Actor } from '../../core/actor.js';
import type { AuditAction } from '../../core/audit-actions.js';
import type { ClientInfo } from '../../core/auth/client-info.js';
import { hashPassword, verifyPassword } from '../../core/auth/passwords.js';
import { tokenScopes } from '../../core/auth/scope-input.js';
import { csrfTokenFor } from '../../core/auth/token-secrets.js';
import { activeToken, createApiToken, revokeSessions } from '../../core/auth/tokens.js';
import type { Deps } from '../../core/deps.js';
import { invalidField, notFound, unprocessable } from '../../core/errors.js';
import { authTokens, type TokenKind, users } from '../../db/schema/index.js';
import type { LoginThrottle } from './login-throttle.js';
import type { IssuedApiToken, Me, NewApiToken, PasswordChange, Session, TokenRecord } from './schemas.js';

const tokenColumns = {
  id: authTokens.id,
  name: authTokens.name,
  prefix: authTokens.prefix,
  createdAt: authTokens.createdAt,
  lastUsedAt: authTokens.lastUsedAt,
  expiresAt: authTokens.expiresAt,
  scopes: authTokens.scopes,
  userAgent: authTokens.userAgent,
  clientIp: authTokens.clientIp,
};

export type AccountDeps = Pick<Deps, 'db' | 'audit' | 'principals' | 'config'> & { throttle: LoginThrottle };

/** The signed-in caller's own account: who they are, their sessions, API tokens and password. */
export class AccountService {
  constructor(private readonly deps: AccountDeps) {}

  /** The caller; a session signed in by cookie also gets its CSRF token back (derived from the secret). */
  currentUser(actor: Actor, sessionCookie?: string): Me {
    const { userId, email, name, groupName, scopes } = actor;
    const me = { id: userId, email, name, groupName, scopes: [...scopes] };
    if (actor.tokenKind !== 'session' || !sessionCookie) return me;
    return {
      ...me,
      csrfToken: csrfTokenFor(sessionCookie),
      ...(actor.tokenExpiresAt ? { sessionExpiresAt: actor.tokenExpiresAt } : {}),
    };
  }

  /** Ends the session or revokes the API token the caller is using. */
  async logout(actor: Actor): Promise<void> {
    await this.revoke(
      actor,
      actor.tokenId,
      actor.tokenKind === 'session' ? 'auth.logout' : 'auth.token.revoked',
    );
  }

  /**
   * Changes the caller's password, proven by the current one (a wrong one counts as a failed login),
   * and revokes their other browser sessions; answers how many were revoked.
   */
  async changePassword(actor: Actor, change: PasswordChange, client: ClientInfo): Promise<number> {
    const [user] = await this.deps.db
      .select({ passwordHash: users.passwordHash })
      .from(users)
      .where(eq(users.id, actor.userId));
    if (!user?.passwordHash)
      throw unprocessable(
        'PASSWORD_NOT_SET',
        'this account has no password (it signs in through single sign-on); an administrator can set one',
      );
    const attempt = { email: actor.email, userId: actor.userId, client };
    const proven = await this.deps.throttle.checkSecret(
      attempt,
      { step: 'password_change' },
      async () => (await verifyPassword(change.currentPassword, user.passwordHash)) || undefined,
    );
    if (!proven) throw invalidField(['currentPassword'], 'is not your current password');
    const passwordHash = await hashPassword(change.newPassword);
    const revoked = await this.deps.db.transaction(async (tx) => {
      await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, actor.userId));
      const count = await revokeSessions(tx, actor.userId, actor.tokenId);
      await this.deps.audit.record(tx, actor, {
        action: 'auth.password.changed',
        targetType: 'user',
        targetId: actor.userId,
        metadata: { sessionsRevoked: count },
      });
      return count;
    });
    this.deps.principals.invalidate();
    return revoked;
  }

  /**
   * A token for the caller; a blank name becomes `api token`. With `INFRAGATE_TOKEN_MAX_DAYS` a
   * token without an expiry gets the longest one allowed, and a longer one is refused. `scopes`
   * narrows it to some the caller holds now (through the token in use: a narrowed token cannot make
   * a wider one); left out, the new token is narrowed as the one in use is.
   */
  async createApiToken(actor: Actor, { name, expiresInDays, scopes }: NewApiToken): Promise<IssuedApiToken> {
    const maxDays = this.deps.config.tokenMaxDays;
    if (maxDays !== undefined && expiresInDays !== undefined && expiresInDays > maxDays)
      throw invalidField(['expiresInDays'], `must be at most ${maxDays}: the gateway's token policy`);
    const narrowedTo = scopes ? tokenScopes(scopes, actor.scopes) : await this.scopesOfTokenInUse(actor);
    const days = expiresInDays ?? maxDays;
    const expiresAt = days ? new Date(Date.now() + days * 86_400_000) : null;
    const issued = await createApiToken(this.deps.db, this.deps.audit, actor, {
      userId: actor.userId,
      name: name.trim() || 'api token',
      expiresAt,
      scopes: narrowedTo,
    });
    return { ...issued, lastUsedAt: null };
  }

  listApiTokens(actor: Actor): Promise<TokenRecord[]> {
    return this.listTokens(actor, 'api');
  }

  /** The longest lifetime a new API token may have, in days; null when there is no limit. */
  get maxTokenLifetimeDays(): number | null {
    return this.deps.config.tokenMaxDays ?? null;
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
      const count = await revokeSessions(tx, actor.userId, actor.tokenId);
      await this.deps.audit.record(tx, actor, {
        action: 'auth.sessions.revoked_others',
        targetType: 'user',
        targetId: actor.userId,
        metadata: { revoked: count },
      });
      return count;
    });
    this.deps.principals.invalidate();
    return revoked;
  }

  /** What the token the caller uses is narrowed to (null: a session, or a token of all the user's scopes). */
  private async scopesOfTokenInUse(actor: Actor): Promise<string[] | null> {
    const [token] = await this.deps.db
      .select({ scopes: authTokens.scopes })
      .from(authTokens)
      .where(eq(authTokens.id, actor.tokenId));
    return token?.scopes ?? null;
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
