import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { OidcBrowser } from './oidc-browser.js';
import {
  basicClientId,
  idTokenRewriter,
  SSO_CLIENTS,
  signingKeyPair,
  ssoClientRegistrations,
  ssoSecretOf,
} from './oidc-sso-clients.js';
import { freePort } from './peers.js';

/**
 * A real OAuth 2.0 / OpenID Connect authorization server (oidc-provider 9) on a loopback port, with
 * authorization code + PKCE and the device authorization grant (RFC 8628) enabled, and its
 * development login/consent pages. The test plays the user through `browser` over plain HTTP.
 * The subject is whatever login the user types; `accounts` gives a subject its claims (email,
 * groups), and a test may change them between two sign-ins. Clients for the gateway's single
 * sign-on are in `oidc-sso-clients.ts`.
 *
 * oidc-provider never answers `slow_down`; a thin middleware in front of its token endpoint adds
 * RFC 8628 §3.5 polling-interval enforcement (a poll sooner than the interval answers `slow_down`
 * and raises the interval by 5 seconds).
 */
export interface OidcPeer {
  issuer: string;
  /** Public client for the redirect flow (PKCE, loopback redirect URI). */
  redirectClientId: string;
  redirectUri: string;
  /** Public client for the device flow. */
  deviceClientId: string;
  /** Device flow client whose device codes live 2 seconds. */
  shortDeviceClientId: string;
  endpoints: { authorization: string; token: string; deviceAuthorization: string; userinfo: string };
  browser: OidcBrowser;
  /** Claims of each subject (the login typed at the provider): `email`, `email_verified`, `groups`. */
  accounts: Map<string, AccountClaims>;
  /** Single sign-on clients (confidential) and their secrets. */
  sso: typeof SSO_CLIENTS & { secretOf(clientId: string): string };
  /** Asks the provider whether an access token is active (RFC 7662 introspection). */
  isActive(accessToken: string): Promise<boolean>;
  close(): Promise<void>;
}

export interface AccountClaims {
  email?: string;
  email_verified?: boolean;
  groups?: string[];
}

export const POLL_INTERVAL_SECONDS = 5;

/** Starts oidc-provider on a free loopback port. */
export async function startOidcProvider(): Promise<OidcPeer> {
  const { default: Provider } = await import('oidc-provider');
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const redirectUri = 'http://127.0.0.1:1455/auth/callback';
  const deviceGrant = 'urn:ietf:params:oauth:grant-type:device_code';
  const publicClient = { token_endpoint_auth_method: 'none', application_type: 'native' };
  const accounts = new Map<string, AccountClaims>();
  const signing = signingKeyPair();
  const rewriteIdToken = idTokenRewriter(signing.privateKey);
  const provider = new Provider(issuer, {
    jwks: { keys: [signing.jwk] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], groups: ['groups'] },
    clients: [
      {
        ...publicClient,
        client_id: 'infragate-redirect',
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      },
      {
        ...publicClient,
        client_id: 'infragate-device',
        redirect_uris: [],
        grant_types: [deviceGrant, 'refresh_token'],
        response_types: [],
      },
      {
        ...publicClient,
        client_id: 'infragate-device-short',
        redirect_uris: [],
        grant_types: [deviceGrant],
        response_types: [],
      },
      {
        client_id: 'resource-server',
        client_secret: 'resource-server-secret',
        redirect_uris: [],
        grant_types: [],
        response_types: [],
      },
      ...ssoClientRegistrations(),
    ],
    features: {
      deviceFlow: { enabled: true },
      devInteractions: { enabled: true },
      introspection: { enabled: true, allowedPolicy: async () => true },
    },
    pkce: { required: () => true },
    // Refresh tokens for every client allowed the grant (the default also wants offline_access + consent prompt).
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(grant: string): boolean }) =>
      client.grantTypeAllowed('refresh_token'),
    ttl: {
      AccessToken: 3600,
      IdToken: 3600,
      RefreshToken: 14 * 24 * 3600,
      Interaction: 600,
      Session: 3600,
      Grant: 14 * 24 * 3600,
      DeviceCode: (_ctx: unknown, _token: unknown, client: { clientId: string }) =>
        client.clientId === 'infragate-device-short' ? 2 : 600,
    },
    findAccount: async (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: async () => ({ sub, ...accounts.get(sub) }),
    }),
    cookies: { keys: ['infragate-test-cookie-key'] },
  });

  // RFC 8628 §3.5 slow_down, which oidc-provider leaves to the deployment.
  const lastPoll = new Map<string, { at: number; interval: number }>();
  interface KoaContext {
    method: string;
    path: string;
    status: number;
    body: unknown;
    req: http.IncomingMessage & { body?: string };
  }
  provider.use(async (ctx: KoaContext, next: () => Promise<void>) => {
    if (ctx.method === 'POST' && ctx.path === '/token') {
      const chunks: Buffer[] = [];
      for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
      const raw = Buffer.concat(chunks).toString('utf8');
      ctx.req.body = raw;
      const params = new URLSearchParams(raw);
      const deviceCode = params.get('device_code');
      if (params.get('grant_type') === deviceGrant && deviceCode) {
        const previous = lastPoll.get(deviceCode);
        const now = Date.now();
        if (previous && now - previous.at < previous.interval * 1000) {
          lastPoll.set(deviceCode, { at: now, interval: previous.interval + 5 });
          ctx.status = 400;
          ctx.body = { error: 'slow_down', error_description: 'polling faster than the interval' };
          return;
        }
        lastPoll.set(deviceCode, { at: now, interval: previous?.interval ?? POLL_INTERVAL_SECONDS });
      }
    }
    await next();
    const answer = ctx.body as { id_token?: string } | undefined;
    const clientId = basicClientId(ctx.req.headers.authorization);
    if (ctx.path === '/token' && answer?.id_token && clientId)
      ctx.body = { ...answer, id_token: rewriteIdToken(clientId, answer.id_token) };
  });

  const server = http.createServer(provider.callback());
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actual = (server.address() as AddressInfo).port;
  if (actual !== port) throw new Error('oidc-provider did not bind the expected port');

  return {
    issuer,
    redirectClientId: 'infragate-redirect',
    redirectUri,
    deviceClientId: 'infragate-device',
    shortDeviceClientId: 'infragate-device-short',
    endpoints: {
      authorization: `${issuer}/auth`,
      token: `${issuer}/token`,
      deviceAuthorization: `${issuer}/device/auth`,
      userinfo: `${issuer}/me`,
    },
    browser: new OidcBrowser(issuer),
    accounts,
    sso: { ...SSO_CLIENTS, secretOf: ssoSecretOf },
    async isActive(accessToken) {
      const response = await fetch(`${issuer}/token/introspection`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from('resource-server:resource-server-secret').toString('base64')}`,
        },
        body: new URLSearchParams({ token: accessToken }).toString(),
      });
      return ((await response.json()) as { active?: boolean }).active === true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
