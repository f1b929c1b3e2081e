import { expect } from 'vitest';
import type { OidcPeer } from '../services/oidc-provider.js';
import type { CallResult, TestGateway } from '../support/gateway.js';
import { sessionCookieOf } from './helpers.js';

let counter = 0;

/** Adds a provider for the oidc-provider peer through the admin API; answers its record. */
export async function addProvider(
  gateway: TestGateway,
  oidc: OidcPeer,
  settings: Record<string, unknown> = {},
): Promise<{ id: string; name: string }> {
  counter += 1;
  const clientId = (settings.clientId as string | undefined) ?? oidc.sso.signIn;
  const result = await gateway.call('POST', '/api/admin/identity-providers', {
    body: {
      name: `Provider ${counter}`,
      issuer: oidc.issuer,
      clientId,
      clientSecret: oidc.sso.secretOf(clientId),
      scopes: ['openid', 'email', 'groups'],
      ...settings,
    },
  });
  expect(result.status, JSON.stringify(result.body)).toBe(201);
  return result.body.data;
}

/** The start of a sign-in: where it sends the browser, and the binding cookie it set. */
export async function startSignIn(gateway: TestGateway, providerId: string, next?: string) {
  const query = next === undefined ? '' : `?next=${encodeURIComponent(next)}`;
  const result = await gateway.call('GET', `/auth/oidc/${providerId}/start${query}`, { token: null });
  expect(result.status, result.text).toBe(302);
  const header = result.headers['set-cookie'];
  const lines = Array.isArray(header) ? header : [String(header)];
  const binding = lines.find((line) => line.startsWith('infragate_oidc='))!.split(';')[0]!;
  return { location: String(result.headers.location), binding };
}

/** The gateway's callback, as the browser loads it after the provider redirected it there. */
export function callback(
  gateway: TestGateway,
  redirect: string,
  binding: string | undefined,
): Promise<CallResult> {
  const url = new URL(redirect);
  expect(url.pathname).toBe('/auth/oidc/callback');
  return gateway.call('GET', `/auth/oidc/callback${url.search}`, {
    token: null,
    ...(binding ? { headers: { cookie: binding } } : {}),
  });
}

/** A whole sign-in through the provider as `login` (the subject), ending at the gateway's callback. */
export async function signInThrough(
  gateway: TestGateway,
  oidc: OidcPeer,
  providerId: string,
  login: string,
  next?: string,
): Promise<CallResult> {
  const { location, binding } = await startSignIn(gateway, providerId, next);
  return callback(gateway, await oidc.browser.authorize(location, login), binding);
}

/** Where the callback sent the browser: the console page, or the sign-in page with `sso=<reason>`. */
export function landing(result: CallResult): {
  path: string;
  reason: string | null;
  cookie: string | undefined;
} {
  expect(result.status, result.text).toBe(303);
  const url = new URL(String(result.headers.location), 'http://gateway');
  return { path: url.pathname, reason: url.searchParams.get('sso'), cookie: sessionCookieOf(result) };
}
