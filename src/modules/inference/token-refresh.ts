import { and, eq, isNotNull, lt } from 'drizzle-orm';
import { type AuditActor, systemActor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { unprocessable } from '../../core/errors.js';
import { isProtocolViolation, outboundFailure } from '../../core/outbound-errors.js';
import { inferenceConnections } from '../../db/schema/index.js';
import type { CatalogEntry } from '../../inference-catalog.js';
import { type ConnectionRow, connectionView, findConnection } from './connection-rows.js';
import { SEALED_IN, tokenColumns } from './connection-secrets.js';
import { OAuthServerError, oauthClientFor, type TokenSet } from './oauth-client.js';
import type { ProviderCatalog } from './provider-catalog.js';
import type { Connection } from './schemas.js';

/** Access tokens are renewed when they have less than this left. */
const REFRESH_MARGIN_MS = 5 * 60_000;

const expiresSoon = () => new Date(Date.now() + REFRESH_MARGIN_MS);

/**
 * Renews the access tokens of OAuth connections with their refresh tokens: in the background before they
 * expire, before a connection is used, and on demand. Every outcome is recorded on the connection.
 */
export class TokenRefresher {
  constructor(
    private readonly deps: Pick<Deps, 'db' | 'audit' | 'secrets' | 'egress' | 'log'> & {
      catalog: ProviderCatalog;
    },
  ) {}

  /** Background work: renews every access token about to expire; a refusal is logged and recorded. */
  async refreshDue(): Promise<void> {
    const due = await this.deps.db
      .select()
      .from(inferenceConnections)
      .where(
        and(
          eq(inferenceConnections.authType, 'oauth'),
          isNotNull(inferenceConnections.refreshTokenSealed),
          lt(inferenceConnections.accessTokenExpiresAt, expiresSoon()),
        ),
      );
    for (const row of due) {
      const entry = this.deps.catalog.find(row.providerId);
      if (!entry?.oauth) continue;
      try {
        await this.refresh(systemActor(), row, entry);
      } catch (error) {
        this.deps.log.warn(
          { connectionId: row.id, reason: (error as Error).message },
          'token refresh failed',
        );
      }
    }
  }

  /** Forces a refresh now (operator action). */
  async refreshNow(actor: AuditActor, id: string): Promise<Connection> {
    const row = await findConnection(this.deps.db, id);
    if (row.authType !== 'oauth' || !row.refreshTokenSealed)
      throw unprocessable(
        'NO_REFRESH_TOKEN',
        'only an OAuth connection holding a refresh token can be refreshed',
      );
    const entry = this.deps.catalog.find(row.providerId);
    if (!entry)
      throw unprocessable(
        'PROVIDER_NOT_IN_CATALOG',
        `provider ${row.providerId} is no longer in the catalog`,
      );
    await this.refresh(actor, row, entry);
    return connectionView(await findConnection(this.deps.db, id), this.deps.catalog);
  }

  /** The row with an access token valid for a while yet, refreshing it first when it is about to expire. */
  async freshTokens(actor: AuditActor, row: ConnectionRow, entry: CatalogEntry): Promise<ConnectionRow> {
    const expiring = row.accessTokenExpiresAt !== null && row.accessTokenExpiresAt < expiresSoon();
    if (!expiring || !row.refreshTokenSealed) return row;
    // A refusal is recorded on the connection; the caller then shows what the provider says to the old token.
    await this.refresh(actor, row, entry).catch(() => undefined);
    return findConnection(this.deps.db, row.id);
  }

  /** Renews the access token with the refresh token; a refusal is recorded on the connection and thrown as 422. */
  private async refresh(actor: AuditActor, row: ConnectionRow, entry: CatalogEntry): Promise<void> {
    const { db, audit, secrets } = this.deps;
    const refreshToken = secrets.open(row.refreshTokenSealed!, SEALED_IN.refreshToken);
    let tokens: TokenSet;
    try {
      tokens = await oauthClientFor(entry, this.deps.egress).refresh(refreshToken);
    } catch (error) {
      const message = refusal(error);
      await db.transaction(async (tx) => {
        await tx
          .update(inferenceConnections)
          .set({ lastRefreshError: message, updatedAt: new Date() })
          .where(eq(inferenceConnections.id, row.id));
        await audit.record(tx, actor, {
          action: 'inference.connection.token_refreshed',
          targetType: 'inference_connection',
          targetId: row.id,
          outcome: 'failure',
          metadata: { error: message },
        });
      });
      throw unprocessable(
        'TOKEN_REFRESH_FAILED',
        `the provider refused to renew the access token: ${message}`,
      );
    }
    await db.transaction(async (tx) => {
      await tx
        .update(inferenceConnections)
        .set({
          ...tokenColumns(secrets, tokens),
          lastRefreshedAt: new Date(),
          lastRefreshError: null,
          updatedAt: new Date(),
        })
        .where(eq(inferenceConnections.id, row.id));
      await audit.record(tx, actor, {
        action: 'inference.connection.token_refreshed',
        targetType: 'inference_connection',
        targetId: row.id,
        metadata: {
          accessTokenExpiresAt: tokens.expiresAt?.toISOString() ?? null,
          rotated: Boolean(tokens.refreshToken),
        },
      });
    });
  }
}

/** Why a refresh failed, in the provider's words when it said something. */
function refusal(error: unknown): string {
  if (error instanceof OAuthServerError || isProtocolViolation(error)) return error.message;
  return (
    (outboundFailure(error, 'the token refresh').details as { explanation?: string }).explanation ??
    'refresh failed'
  );
}
