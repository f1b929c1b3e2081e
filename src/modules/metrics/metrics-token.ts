import crypto from 'node:crypto';
import type { Actor } from '../../core/actor.js';
import type { RouteCredential } from '../../core/auth/route-credential.js';

const digest = (text: string) => crypto.createHash('sha256').update(text).digest();

/**
 * `INFRAGATE_METRICS_TOKEN` as the route credential of GET /metrics: a scraper's configuration
 * holds one operator-chosen secret instead of a user's API token. It stands for no user, grants
 * `metrics:view` and nothing else, and every other route refuses it (401). Compared by digest in
 * constant time; without the setting it recognises nothing.
 */
export function metricsTokenCredential(configured: string | undefined): RouteCredential {
  const expected = configured === undefined ? undefined : digest(configured);
  return {
    scheme: 'metricsToken',
    recognises: (secret) => expected !== undefined && crypto.timingSafeEqual(digest(secret), expected),
    authenticate: async (_secret, request): Promise<Actor> => ({
      userId: '',
      email: 'metrics-token',
      name: 'INFRAGATE_METRICS_TOKEN',
      groupName: '',
      scopes: ['metrics:view'],
      tokenId: 'metrics-token',
      tokenKind: 'metrics',
      tokenExpiresAt: null,
      requestId: request.id,
      clientIp: request.ip,
    }),
    // The token grants one scope, the one this route needs.
    authorize: async () => {},
  };
}
