import type { TokenKind } from '../db/schema/index.js';

/** Who is making a request, as services see it (they never see HTTP). */
export interface Actor {
  userId: string;
  email: string;
  name: string;
  groupName: string;
  scopes: readonly string[];
  /** The API token, browser session or route credential (a pages deploy token) this request used. */
  tokenId: string;
  /**
   * `deploy`: a pages deploy token, `metrics`: `INFRAGATE_METRICS_TOKEN`, each accepted only by the
   * routes that declare it (`config.credential`).
   */
  tokenKind: TokenKind | 'deploy' | 'metrics';
  /** When that token or session stops working; null: never. */
  tokenExpiresAt: Date | null;
  requestId: string;
  clientIp: string;
}

/** The actor for work done by the gateway itself (CLI, first start, background jobs). */
export interface SystemActor {
  userId: null;
  email: 'system';
  requestId: string | null;
  clientIp: null;
}

export const systemActor = (requestId: string | null = null): SystemActor => ({
  userId: null,
  email: 'system',
  requestId,
  clientIp: null,
});

/** What an audit event records about who acted; a failed login names the email that was tried. */
export interface AuditActor {
  userId: string | null;
  email: string;
  requestId: string | null;
  clientIp: string | null;
}
