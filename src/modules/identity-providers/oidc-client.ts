import { LRUCache } from 'lru-cache';
import * as oauth from 'oauth4webapi';
import type { Deps } from '../../core/deps.js';
import { oauthFetchThrough } from '../../core/oauth-fetch.js';

const REQUEST_TIMEOUT_MS = 15_000;
/** Provider metadata is read again after this long (endpoints rarely move; keys are cached apart). */
const METADATA_TTL_MS = 10 * 60_000;
const CACHED_PROVIDERS = 100;

/** What the gateway needs of a provider to sign someone in. */
export interface ProviderClient {
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string[];
}

/** The per-sign-in secrets: sent (state, nonce, PKCE challenge) and checked when the browser returns. */
export interface SignInSecrets {
  state: string;
  nonce: string;
  codeVerifier: string;
  redirectUri: string;
}

/** The checked identity: the ID token's claims, completed by the UserInfo answer (same subject). */
export interface VerifiedIdentity {
  subject: string;
  claims: Record<string, unknown>;
}

/** Why a sign-in could not be completed with the provider. */
export type ProviderFailure = 'refused' | 'invalid_response' | 'unreachable';

export class OidcProviderError extends Error {
  constructor(
    readonly failure: ProviderFailure,
    cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'OidcProviderError';
  }
}

function failureOf(error: unknown): ProviderFailure {
  if (error instanceof oauth.ResponseBodyError || error instanceof oauth.AuthorizationResponseError)
    return 'refused';
  if (
    error instanceof oauth.OperationProcessingError ||
    error instanceof oauth.UnsupportedOperationError ||
    error instanceof SyntaxError
  )
    return 'invalid_response';
  return 'unreachable';
}

async function classified<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw error instanceof OidcProviderError ? error : new OidcProviderError(failureOf(error), error);
  }
}

/**
 * OpenID Connect relying party (oauth4webapi), every request through the egress guard: discovery,
 * the authorization URL (state, nonce, PKCE S256), and the code exchange with every check of the ID
 * token (signature against the provider's keys, issuer, audience, expiry, nonce).
 */
export class OidcClient {
  private readonly metadata = new LRUCache<string, oauth.AuthorizationServer>({
    max: CACHED_PROVIDERS,
    ttl: METADATA_TTL_MS,
  });
  /** oauth4webapi keeps each provider's key set in its entry and refreshes it on an unknown key id. */
  private readonly keySets = new LRUCache<string, oauth.JWKSCacheInput>({ max: CACHED_PROVIDERS });

  constructor(private readonly deps: Pick<Deps, 'egress'>) {}

  /** The provider's metadata from `<issuer>/.well-known/openid-configuration` (its issuer must match). */
  async discover(issuer: string, options: { fresh?: boolean } = {}): Promise<oauth.AuthorizationServer> {
    const cached = options.fresh ? undefined : this.metadata.get(issuer);
    if (cached) return cached;
    const issuerUrl = new URL(issuer);
    const as = await classified(async () =>
      oauth.processDiscoveryResponse(
        issuerUrl,
        await oauth.discoveryRequest(issuerUrl, { ...this.options(issuer), algorithm: 'oidc' }),
      ),
    );
    if (!as.authorization_endpoint || !as.token_endpoint || !as.jwks_uri)
      throw new OidcProviderError(
        'invalid_response',
        new Error('the provider metadata lacks an authorization, token or jwks_uri endpoint'),
      );
    this.metadata.set(issuer, as);
    return as;
  }

  async authorizationUrl(provider: ProviderClient, secrets: SignInSecrets): Promise<string> {
    const as = await this.discover(provider.issuer);
    const url = new URL(as.authorization_endpoint!);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', provider.clientId);
    url.searchParams.set('redirect_uri', secrets.redirectUri);
    url.searchParams.set('scope', provider.scopes.join(' '));
    url.searchParams.set('state', secrets.state);
    url.searchParams.set('nonce', secrets.nonce);
    url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(secrets.codeVerifier));
    url.searchParams.set('code_challenge_method', 'S256');
    return url.href;
  }

  /** Checks the callback, exchanges its code and verifies the ID token; answers who signed in. */
  async completeSignIn(
    provider: ProviderClient,
    callback: URLSearchParams,
    secrets: SignInSecrets,
  ): Promise<VerifiedIdentity> {
    const as = await this.discover(provider.issuer);
    const client: oauth.Client = { client_id: provider.clientId };
    const options = this.options(provider.issuer);
    return classified(async () => {
      const params = oauth.validateAuthResponse(as, client, callback, secrets.state);
      const response = await oauth.authorizationCodeGrantRequest(
        as,
        client,
        this.clientAuthentication(as, provider.clientSecret),
        params,
        secrets.redirectUri,
        secrets.codeVerifier,
        options,
      );
      const tokens = await oauth.processAuthorizationCodeResponse(as, client, response, {
        expectedNonce: secrets.nonce,
        requireIdToken: true,
      });
      await oauth.validateApplicationLevelSignature(as, response, {
        ...options,
        [oauth.jwksCache]: this.keySetOf(provider.issuer),
      });
      const idToken = oauth.getValidatedIdTokenClaims(tokens)!;
      let userInfo: oauth.UserInfoResponse | undefined;
      if (as.userinfo_endpoint) {
        const answer = await oauth.userInfoRequest(as, client, tokens.access_token, options);
        userInfo = await oauth.processUserInfoResponse(as, client, idToken.sub, answer);
      }
      return { subject: idToken.sub, claims: { ...userInfo, ...idToken } };
    });
  }

  private clientAuthentication(as: oauth.AuthorizationServer, secret: string): oauth.ClientAuth {
    const methods = as.token_endpoint_auth_methods_supported;
    return !methods || methods.includes('client_secret_basic')
      ? oauth.ClientSecretBasic(secret)
      : oauth.ClientSecretPost(secret);
  }

  private keySetOf(issuer: string): oauth.JWKSCacheInput {
    let keySet = this.keySets.get(issuer);
    if (!keySet) {
      keySet = {};
      this.keySets.set(issuer, keySet);
    }
    return keySet;
  }

  /** http is only reachable for loopback issuers with INFRAGATE_EGRESS=any (checked when saved). */
  private options(issuer: string) {
    return {
      [oauth.customFetch]: oauthFetchThrough(this.deps.egress, REQUEST_TIMEOUT_MS),
      [oauth.allowInsecureRequests]: new URL(issuer).protocol === 'http:',
    };
  }
}
