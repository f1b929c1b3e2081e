import { and, eq, gt, isNull, ne, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import { authTokens, type TokenKind } from '../../db/schema/index.js';
import type { AuditActor } from '../actor.js';
import type { AuditRecorder } from '../audit-recorder.js';
import type { ClientInfo } from './client-info.js';
import { csrfTokenFor, generateTokenSecret, hashTokenSecret } from './token-secrets.js';

/*
 * Issuing and revoking the gateway's credentials (API tokens and browser sessions). Core holds them
 * beside the principal resolver that reads them, because every way in ends here: the password login
 * (auth), single sign-on (identity-providers), the first-start setup code (console), the CLI, and a
 * password set by an administrator (users), which revokes the user's sessions.
 */

/** Not revoked and not expired, as of the database's clock. */
export const activeToken = () =>
  and(isNull(authTokens.revokedAt), or(isNull(authTokens.expiresAt), gt(authTokens.expiresAt, sql`now()`)));

/** How much of a secret is kept in the clear (`igw_` + 8 characters), so tokens can be told apart. */
const PREFIX_LENGTH = 12;

export interface IssuedToken {
  id: string;
  name: string;
  kind: TokenKind;
  prefix: string;
  /** What an API token is narrowed to (null: all of its user's scopes). */
  scopes: string[] | null;
  /** The secret; shown once, never stored. */
  token: string;
  createdAt: Date;
  expiresAt: Date | null;
  /** For sessions: the CSRF token to send with cookie-authenticated changes. */
  csrfToken?: string;
}

export interface TokenRequest {
  userId: string;
  kind: TokenKind;
  name: string;
  expiresAt: Date | null;
  scopes?: string[] | null;
  userAgent?: string | null;
  clientIp?: string | null;
}

/** Creates an API token or a browser session; only hashes reach the database. */
export async function issueToken(db: DbOrTx, request: TokenRequest): Promise<IssuedToken> {
  const token = generateTokenSecret();
  const csrfToken = request.kind === 'session' ? csrfTokenFor(token) : undefined;
  const [row] = await db
    .insert(authTokens)
    .values({
      userId: request.userId,
      kind: request.kind,
      name: request.name,
      tokenHash: hashTokenSecret(token),
      prefix: token.slice(0, PREFIX_LENGTH),
      csrfHash: csrfToken ? hashTokenSecret(csrfToken) : null,
      scopes: request.scopes ?? null,
      userAgent: request.userAgent ?? null,
      clientIp: request.clientIp ?? null,
      expiresAt: request.expiresAt,
    })
    .returning();
  return {
    id: row!.id,
    name: row!.name,
    kind: request.kind,
    prefix: row!.prefix!,
    scopes: row!.scopes,
    token,
    createdAt: row!.createdAt,
    expiresAt: row!.expiresAt,
    ...(csrfToken ? { csrfToken } : {}),
  };
}

/**
 * Issues an API token for `userId` and records `auth.token.created` in the same transaction; the
 * API (a user's own token) and the CLI (a token for any user) both come through here.
 */
export function createApiToken(
  db: Db,
  audit: AuditRecorder,
  actor: AuditActor,
  request: { userId: string; name: string; expiresAt: Date | null; scopes: string[] | null },
  metadata: Record<string, unknown> = {},
): Promise<IssuedToken> {
  return db.transaction(async (tx) => {
    const issued = await issueToken(tx, { ...request, kind: 'api' });
    await audit.record(tx, actor, {
      action: 'auth.token.created',
      targetType: 'token',
      targetId: issued.id,
      metadata: {
        ...metadata,
        name: issued.name,
        expiresAt: issued.expiresAt?.toISOString() ?? null,
        scopes: issued.scopes,
      },
    });
    return issued;
  });
}

/**
 * Starts a browser session for a user who has proved who they are (password, second factor, single
 * sign-on, first-start setup) and records `auth.login.succeeded`, in the caller's transaction.
 */
export async function startBrowserSession(
  tx: DbOrTx,
  deps: { audit: AuditRecorder; sessionTtlSeconds: number },
  user: { id: string; email: string },
  client: ClientInfo,
  metadata: Record<string, unknown> = {},
): Promise<IssuedToken & { csrfToken: string; expiresAt: Date }> {
  const session = await issueToken(tx, {
    userId: user.id,
    kind: 'session',
    name: 'browser session',
    expiresAt: new Date(Date.now() + deps.sessionTtlSeconds * 1000),
    userAgent: client.userAgent,
    clientIp: client.clientIp,
  });
  await deps.audit.record(
    tx,
    { userId: user.id, email: user.email, requestId: client.requestId, clientIp: client.clientIp },
    { action: 'auth.login.succeeded', targetType: 'session', targetId: session.id, metadata },
  );
  return { ...session, csrfToken: session.csrfToken!, expiresAt: session.expiresAt! };
}

/** Revokes a user's active browser sessions, except `keep`; answers how many. */
export async function revokeSessions(tx: DbOrTx, userId: string, keep?: string): Promise<number> {
  const rows = await tx
    .update(authTokens)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(authTokens.userId, userId),
        eq(authTokens.kind, 'session'),
        keep ? ne(authTokens.id, keep) : undefined,
        activeToken(),
      ),
    )
    .returning({ id: authTokens.id });
  return rows.length;
}
