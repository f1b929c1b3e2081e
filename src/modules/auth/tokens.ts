import type { AuditActor } from '../../core/actor.js';
import type { AuditRecorder } from '../../core/audit-recorder.js';
import { csrfTokenFor, generateTokenSecret, hashTokenSecret } from '../../core/auth/token-secrets.js';
import type { Db, DbOrTx } from '../../db/client.js';
import { authTokens, type TokenKind } from '../../db/schema/index.js';

export interface IssuedToken {
  id: string;
  name: string;
  kind: TokenKind;
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
      csrfHash: csrfToken ? hashTokenSecret(csrfToken) : null,
      userAgent: request.userAgent ?? null,
      clientIp: request.clientIp ?? null,
      expiresAt: request.expiresAt,
    })
    .returning();
  return {
    id: row!.id,
    name: row!.name,
    kind: request.kind,
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
  request: { userId: string; name: string; expiresAt: Date | null },
  metadata: Record<string, unknown> = {},
): Promise<IssuedToken> {
  return db.transaction(async (tx) => {
    const issued = await issueToken(tx, { ...request, kind: 'api' });
    await audit.record(tx, actor, {
      action: 'auth.token.created',
      targetType: 'token',
      targetId: issued.id,
      metadata: { ...metadata, name: issued.name, expiresAt: issued.expiresAt?.toISOString() ?? null },
    });
    return issued;
  });
}
