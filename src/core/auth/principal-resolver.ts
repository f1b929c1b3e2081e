import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { authTokens, groups, users } from '../../db/schema/index.js';
import { hashTokenSecret } from './token-secrets.js';

export interface Principal {
  tokenId: string;
  tokenKind: 'api' | 'session';
  csrfHash: string | null;
  expiresAt: Date | null;
  userId: string;
  email: string;
  name: string;
  groupName: string;
  scopes: string[];
}

interface CacheEntry {
  principal: Principal | null;
  cachedUntil: number;
}

const CACHE_TTL_MS = 5_000;
const CACHE_MAX_ENTRIES = 10_000;
const TOUCH_INTERVAL_MS = 60_000;

/**
 * Token → principal, with a short-lived cache so the hot path skips the database. Anything that can
 * make a cached answer wrong (revoke, disable, group change) calls `invalidate()`, which drops the
 * whole cache at once: those changes are rare and correctness beats hit rate there. `lastUsedAt` is
 * written at most once a minute per token, off the request path.
 */
export class PrincipalResolver {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly lastTouch = new Map<string, number>();
  private readonly invalidationListeners = new Set<() => void>();

  constructor(private readonly db: Db) {}

  async resolve(secret: string, now = Date.now()): Promise<Principal | null> {
    const tokenHash = hashTokenSecret(secret);
    const cached = this.cache.get(tokenHash);
    const principal = cached && cached.cachedUntil > now ? cached.principal : await this.load(tokenHash, now);
    if (!principal || (principal.expiresAt && principal.expiresAt.getTime() <= now)) return null;
    this.touch(principal.tokenId, now);
    return principal;
  }

  /** Forget every cached answer (in this process, and in others through the listeners). */
  invalidate(): void {
    this.cache.clear();
    for (const listener of this.invalidationListeners) listener();
  }

  /** Drops the local cache only; used when another process announced an invalidation. */
  invalidateLocal(): void {
    this.cache.clear();
  }

  onInvalidate(listener: () => void): void {
    this.invalidationListeners.add(listener);
  }

  private async load(tokenHash: string, now: number): Promise<Principal | null> {
    const [row] = await this.db
      .select({
        tokenId: authTokens.id,
        tokenKind: authTokens.kind,
        csrfHash: authTokens.csrfHash,
        expiresAt: authTokens.expiresAt,
        userId: users.id,
        email: users.email,
        name: users.name,
        groupName: groups.name,
        scopes: groups.scopes,
      })
      .from(authTokens)
      .innerJoin(users, eq(users.id, authTokens.userId))
      .innerJoin(groups, eq(groups.id, users.groupId))
      .where(
        and(eq(authTokens.tokenHash, tokenHash), isNull(authTokens.revokedAt), eq(users.disabled, false)),
      );
    const principal = row ?? null;
    if (this.cache.size >= CACHE_MAX_ENTRIES) this.cache.clear();
    this.cache.set(tokenHash, { principal, cachedUntil: now + CACHE_TTL_MS });
    return principal;
  }

  private touch(tokenId: string, now: number): void {
    const last = this.lastTouch.get(tokenId) ?? 0;
    if (now - last < TOUCH_INTERVAL_MS) return;
    if (this.lastTouch.size >= CACHE_MAX_ENTRIES) this.lastTouch.clear();
    this.lastTouch.set(tokenId, now);
    this.db
      .update(authTokens)
      .set({ lastUsedAt: sql`now()` })
      .where(eq(authTokens.id, tokenId))
      .catch(() => {
        // Usage time is informative; a failed write must not fail the request that caused it.
      });
  }
}
