import type * as oauth from 'oauth4webapi';
import type { EgressGuard } from './egress-guard.js';

/**
 * The `customFetch` option of oauth4webapi that sends its requests (discovery, keys, tokens, user
 * info) through the egress guard, with a deadline and no redirects (OAuth endpoints do not redirect).
 */
export function oauthFetchThrough(egress: EgressGuard, timeoutMs: number): typeof fetch {
  return (async (url: string, init: oauth.CustomFetchOptions<string, URLSearchParams | undefined>) =>
    egress.fetch(url, {
      method: init.method,
      headers: init.headers as unknown as Record<string, string>,
      body: init.body?.toString(),
      timeoutMs,
      maxRedirects: 0,
    })) as unknown as typeof fetch;
}
