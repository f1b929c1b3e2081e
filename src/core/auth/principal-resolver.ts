import { and, eq, isNull, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Db } from '../../db/client.js';
import { authTokens, groups, type TokenKind, users } from '../../db/schema/index.js';
import { intersectScopes } from './scopes.js';

export interface Principal {
  tokenId: string;
  tokenKind: TokenKind;
  csrfHash: string | null;
  expiresAt: Date | null;
  userId: string;
  email: string;
  name: string;
  groupName: string;
  /** What the token may do: its group's scopes, within the token's own when it was narrowed. */
  scopes: string[];
}

/** A cached answer; a wrapper because "no such token" (null) is cached too. */
interface CacheEntry {
  principal: Principal | null;
}

const CACHE_TTL_MS = 5_000;
const CACHE_MAX_ENTRIES = 10_000;
const TOUCH_INTERVAL_MS = 60_000;

/**
 * Token → principal, with a short-lived cache so the hot path skips the database. Anything that can
 * make a cached answer grant too much (revoke, disable, group change) calls `invalidate()`, which drops
 * the whole cache at once in every process: those changes are rare and correctness beats hit rate
 * there. A rename only calls `forgetUser()`. `lastUsedAt` is
 * written at most once a minute per token, off the request path.
 */
export class PrincipalResolver {
  private readonly cache = new LRUCache<string, CacheEntry>({ max: CACHE_MAX_ENTRIES, ttl: CACHE_TTL_MS });
  /** Tokens whose `lastUsedAt` was written within the last TOUCH_INTERVAL_MS. */
  private readonly recentlyTouched = new LRUCache<string, true>({
    max: CACHE_MAX_ENTRIES,
    ttl: TOUCH_INTERVAL_MS,
  });
  private readonly invalidationListeners = new Set<() => void>();

  constructor(private readonly db: Db) {}

  /**
   * The principal of a token (by its hash) from the cache alone, without a promise: the request
   * path asks this first. Undefined when the token is not cached.
   */
  resolveCached(tokenHash: string, now = Date.now()): Principal | null | undefined {
    const cached = this.cache.get(tokenHash);
    return cached && this.admit(cached.principal, now);
  }

  /** The principal of a token (by its hash) read from the database, which the cache then holds. */
  async resolveStored(tokenHash: string, now = Date.now()): Promise<Principal | null> {
    return this.admit(await this.load(tokenHash), now);
  }

  private admit(principal: Principal | null, now: number): Principal | null {
    if (!principal || (principal.expiresAt && principal.expiresAt.getTime() <= now)) return null;
    this.touch(principal.tokenId);
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

  /**
   * Drops this process's cached principals of one user after a change that grants or revokes
   * nothing (a new display name): this process answers the new value at once, others within the
   * cache's TTL, and no other process is told (a NOTIFY is a commit of its own, serialised with
   * every other NOTIFY, and would empty every cache).
   */
  forgetUser(userId: string): void {
    for (const [tokenHash, entry] of this.cache.entries()) {
      if (entry.principal?.userId === userId) this.cache.delete(tokenHash);
    }
  }

  onInvalidate(listener: () => void): void {
    this.invalidationListeners.add(listener);
  }

  private async load(tokenHash: string): Promise<Principal | null> {
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
        groupScopes: groups.scopes,
        tokenScopes: authTokens.scopes,
      })
      .from(authTokens)
      .innerJoin(users, eq(users.id, authTokens.userId))
      .innerJoin(groups, eq(groups.id, users.groupId))
      .where(
        and(eq(authTokens.tokenHash, tokenHash), isNull(authTokens.revokedAt), eq(users.disabled, false)),
      );
    let principal: Principal | null = null;
    if (row) {
      const { groupScopes, tokenScopes, ...rest } = row;
      principal = {
        ...rest,
        scopes: tokenScopes === null ? groupScopes : intersectScopes(tokenScopes, groupScopes),
      };
    }
    this.cache.set(tokenHash, { principal });
    return principal;
  }

  private touch(tokenId: string): void {
    if (this.recentlyTouched.has(tokenId)) return;
    this.recentlyTouched.set(tokenId, true);
    this.db
      .update(authTokens)
      .set({ lastUsedAt: sql`now()` })
      .where(eq(authTokens.id, tokenId))
      .catch(() => {
        // Usage time is informative; a failed write must not fail the request that caused it.
      });
  }
}
