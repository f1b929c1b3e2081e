import * as oauth from 'oauth4webapi';
import type { Deps } from '../../core/deps.js';
import type { EgressGuard } from '../../core/egress-guard.js';
import { unprocessable } from '../../core/errors.js';
import { oauthFetchThrough } from '../../core/oauth-fetch.js';
import type { CatalogEntry, OAuthSettings } from '../../inference-catalog.js';

/** Tokens from a token endpoint, as the gateway keeps them. */
export interface TokenSet {
  accessToken: string;
  refreshToken: string | undefined;
  expiresAt: Date | null;
  scope: string | undefined;
}

/** An OAuth error answered by the authorization server (`error`, `error_description`). */
export class OAuthServerError extends Error {
  constructor(
    readonly error: string,
    readonly description: string | undefined,
  ) {
    super(description ? `${error}: ${description}` : error);
    this.name = 'OAuthServerError';
  }
}

export interface DeviceAuthorization {
  deviceCode: string;
  userCode: string;
  verificationUri: string;
  expiresIn: number;
  interval: number | undefined;
}

const REQUEST_TIMEOUT_MS = 15_000;

function tokenSet(response: oauth.TokenEndpointResponse): TokenSet {
  return {
    accessToken: response.access_token,
    refreshToken: response.refresh_token,
    expiresAt:
      typeof response.expires_in === 'number' ? new Date(Date.now() + response.expires_in * 1000) : null,
    scope: response.scope,
  };
}

/** OAuth server errors become OAuthServerError; anything else (network, bad answers) is rethrown. */
async function oauthCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof oauth.ResponseBodyError || error instanceof oauth.AuthorizationResponseError) {
      throw new OAuthServerError(error.error, error.error_description);
    }
    throw error;
  }
}

/**
 * The OAuth client of one catalog entry (oauth4webapi): a public client (no secret) with PKCE,
 * every request sent through the egress guard.
 */
export class ProviderOAuthClient {
  private readonly as: oauth.AuthorizationServer;
  private readonly client: oauth.Client;
  private readonly auth = oauth.None();
  private readonly options: oauth.TokenEndpointRequestOptions;

  readonly settings: OAuthSettings;

  constructor({ settings, egress }: Pick<Deps, 'egress'> & { settings: OAuthSettings }) {
    this.settings = settings;
    this.as = {
      issuer: settings.issuer ?? new URL(settings.tokenEndpoint).origin,
      ...(settings.authorizationEndpoint ? { authorization_endpoint: settings.authorizationEndpoint } : {}),
      token_endpoint: settings.tokenEndpoint,
      ...(settings.deviceAuthorizationEndpoint
        ? { device_authorization_endpoint: settings.deviceAuthorizationEndpoint }
        : {}),
    };
    this.client = { client_id: settings.clientId };
    this.options = {
      [oauth.allowInsecureRequests]: true,
      [oauth.customFetch]: oauthFetchThrough(egress, REQUEST_TIMEOUT_MS),
    };
  }

  /** The URL the user opens, with state and a PKCE S256 challenge. */
  async authorizationUrl(state: string, codeVerifier: string): Promise<string> {
    const url = new URL(this.settings.authorizationEndpoint!);
    for (const [key, value] of Object.entries(this.settings.authorizationParams ?? {}))
      url.searchParams.set(key, value);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', this.settings.clientId);
    url.searchParams.set('redirect_uri', this.settings.redirectUri!);
    if (this.settings.scopes.length > 0) url.searchParams.set('scope', this.settings.scopes.join(' '));
    url.searchParams.set('state', state);
    url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(codeVerifier));
    url.searchParams.set('code_challenge_method', 'S256');
    return url.href;
  }

  /** Checks the callback parameters (state already matched) and exchanges the code. */
  async exchangeCode(
    callback: URLSearchParams,
    state: string,
    redirectUri: string,
    codeVerifier: string,
  ): Promise<TokenSet> {
    return oauthCall(async () => {
      const params = oauth.validateAuthResponse(this.as, this.client, callback, state);
      const response = await oauth.authorizationCodeGrantRequest(
        this.as,
        this.client,
        this.auth,
        params,
        redirectUri,
        codeVerifier,
        this.options,
      );
      return tokenSet(await oauth.processAuthorizationCodeResponse(this.as, this.client, response));
    });
  }

  async startDevice(): Promise<DeviceAuthorization> {
    return oauthCall(async () => {
      const parameters: Record<string, string> = { ...(this.settings.authorizationParams ?? {}) };
      if (this.settings.scopes.length > 0) parameters.scope = this.settings.scopes.join(' ');
      const response = await oauth.deviceAuthorizationRequest(
        this.as,
        this.client,
        this.auth,
        parameters,
        this.options,
      );
      const answer = await oauth.processDeviceAuthorizationResponse(this.as, this.client, response);
      return {
        deviceCode: answer.device_code,
        userCode: answer.user_code,
        verificationUri: answer.verification_uri,
        expiresIn: answer.expires_in,
        interval: answer.interval,
      };
    });
  }

  /** One poll of the token endpoint; `authorization_pending` and friends arrive as OAuthServerError. */
  async pollDevice(deviceCode: string): Promise<TokenSet> {
    return oauthCall(async () => {
      const response = await oauth.deviceCodeGrantRequest(
        this.as,
        this.client,
        this.auth,
        deviceCode,
        this.options,
      );
      return tokenSet(await oauth.processDeviceCodeResponse(this.as, this.client, response));
    });
  }

  async refresh(refreshToken: string): Promise<TokenSet> {
    return oauthCall(async () => {
      const response = await oauth.refreshTokenGrantRequest(
        this.as,
        this.client,
        this.auth,
        refreshToken,
        this.options,
      );
      return tokenSet(await oauth.processRefreshTokenResponse(this.as, this.client, response));
    });
  }
}

/** The OAuth client of a catalog entry; 422 OAUTH_NOT_SUPPORTED for an entry without OAuth settings. */
export function oauthClientFor(entry: CatalogEntry, egress: EgressGuard): ProviderOAuthClient {
  if (!entry.oauth)
    throw unprocessable('OAUTH_NOT_SUPPORTED', `provider ${entry.id} does not sign in with OAuth`);
  return new ProviderOAuthClient({ egress, settings: entry.oauth });
}

export const randomState = () => oauth.generateRandomState();
export const randomCodeVerifier = () => oauth.generateRandomCodeVerifier();
