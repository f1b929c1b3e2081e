import type { Deps } from '../../core/deps.js';
import { invalidField, unprocessable } from '../../core/errors.js';
import { isProtocolViolation, outboundFailure } from '../../core/outbound-errors.js';
import type { inferenceOauthSessions } from '../../db/schema/index.js';
import type { CatalogEntry } from '../../inference-catalog.js';
import { SEALED_IN } from './connection-secrets.js';
import { parseCallback } from './oauth-callback.js';
import {
  type DeviceAuthorization,
  OAuthServerError,
  oauthClientFor,
  randomCodeVerifier,
  randomState,
  type TokenSet,
} from './oauth-client.js';

type SessionRow = typeof inferenceOauthSessions.$inferSelect;

/** The flow-specific columns of a new session. */
export type FlowStart = Pick<
  typeof inferenceOauthSessions.$inferInsert,
  | 'flow'
  | 'completionMode'
  | 'authorizationUrl'
  | 'stateSealed'
  | 'codeVerifierSealed'
  | 'deviceCodeSealed'
  | 'redirectUri'
  | 'userCode'
  | 'pollIntervalSeconds'
  | 'expiresAt'
>;

/** Where one step of a pending session with the provider led. */
export type FlowStep =
  | { outcome: 'tokens'; tokens: TokenSet }
  /** The device flow's user has not approved yet; poll again after this many seconds. */
  | { outcome: 'waiting'; pollIntervalSeconds: number }
  | { outcome: 'ended'; status: 'error' | 'expired'; errorCode: string; errorMessage: string };

const DEFAULT_REDIRECT_TTL_SECONDS = 600;
const DEFAULT_POLL_INTERVAL_SECONDS = 5;
/** RFC 8628 §3.5: on slow_down the interval grows by 5 seconds. */
const SLOW_DOWN_STEP_SECONDS = 5;

const ended = (status: 'error' | 'expired', errorCode: string, errorMessage: string): FlowStep => ({
  outcome: 'ended',
  status,
  errorCode: errorCode.slice(0, 200),
  errorMessage: errorMessage.slice(0, 1000),
});

/**
 * The two OAuth flows as the provider sees them: redirect + PKCE completed with the pasted callback, and
 * the device flow completed by polling. Knows nothing of how sessions are stored.
 */
export class OAuthFlows {
  constructor(private readonly deps: Pick<Deps, 'secrets' | 'egress'>) {}

  /** Begins a sign-in: the authorization URL with fresh state and PKCE verifier, or a device code. */
  async begin(entry: CatalogEntry): Promise<FlowStart> {
    const { secrets } = this.deps;
    const client = oauthClientFor(entry, this.deps.egress);
    if (entry.oauthFlow === 'redirect') {
      const state = randomState();
      const verifier = randomCodeVerifier();
      return {
        flow: 'redirect',
        completionMode: entry.completionMode ?? 'paste_callback',
        authorizationUrl: await client.authorizationUrl(state, verifier),
        stateSealed: secrets.seal(state, SEALED_IN.state),
        codeVerifierSealed: secrets.seal(verifier, SEALED_IN.codeVerifier),
        redirectUri: entry.oauth!.redirectUri!,
        expiresAt: new Date(
          Date.now() + (entry.oauth!.sessionTtlSeconds ?? DEFAULT_REDIRECT_TTL_SECONDS) * 1000,
        ),
      };
    }
    let device: DeviceAuthorization;
    try {
      device = await client.startDevice();
    } catch (error) {
      if (error instanceof OAuthServerError)
        throw unprocessable(
          'OAUTH_REJECTED',
          `the provider refused the device authorization: ${error.message}`,
          {
            errorCode: error.error,
          },
        );
      if (isProtocolViolation(error))
        throw unprocessable(
          'OAUTH_INVALID_RESPONSE',
          `the provider's device authorization answer is unusable: ${error.message}`,
        );
      throw outboundFailure(error, 'the device authorization request');
    }
    return {
      flow: 'device',
      completionMode: entry.completionMode ?? 'device_poll',
      authorizationUrl: device.verificationUri,
      deviceCodeSealed: secrets.seal(device.deviceCode, SEALED_IN.deviceCode),
      userCode: device.userCode,
      pollIntervalSeconds: device.interval ?? DEFAULT_POLL_INTERVAL_SECONDS,
      expiresAt: new Date(Date.now() + device.expiresIn * 1000),
    };
  }

  /** Takes a pending session one step: exchanges the pasted callback's code, or polls the device code once. */
  next(row: SessionRow, entry: CatalogEntry, callback: string | undefined): Promise<FlowStep> {
    return row.flow === 'redirect' ? this.exchange(row, entry, callback) : this.poll(row, entry);
  }

  private async exchange(
    row: SessionRow,
    entry: CatalogEntry,
    callback: string | undefined,
  ): Promise<FlowStep> {
    const { secrets } = this.deps;
    if (callback === undefined)
      throw unprocessable(
        'CALLBACK_REQUIRED',
        'this session completes with the callback URL the provider redirected the browser to (or code#state); send it as callback',
      );
    const params = parseCallback(callback);
    if (!params)
      throw invalidField(['callback'], 'expected the full callback URL, its query string, or code#state');
    const state = secrets.open(row.stateSealed!, SEALED_IN.state);
    if (params.get('state') !== state)
      return ended(
        'error',
        'state_mismatch',
        'the callback does not carry the state of this session; start a new session',
      );
    if (params.has('error'))
      return ended(
        'error',
        params.get('error')!,
        params.get('error_description') ?? 'the provider refused the authorization',
      );
    if (!params.get('code')) throw invalidField(['callback'], 'the callback carries no code');
    const verifier = secrets.open(row.codeVerifierSealed!, SEALED_IN.codeVerifier);
    try {
      const client = oauthClientFor(entry, this.deps.egress);
      return {
        outcome: 'tokens',
        tokens: await client.exchangeCode(params, state, row.redirectUri!, verifier),
      };
    } catch (error) {
      return refused(error, 'the code exchange');
    }
  }

  private async poll(row: SessionRow, entry: CatalogEntry): Promise<FlowStep> {
    const deviceCode = this.deps.secrets.open(row.deviceCodeSealed!, SEALED_IN.deviceCode);
    try {
      return {
        outcome: 'tokens',
        tokens: await oauthClientFor(entry, this.deps.egress).pollDevice(deviceCode),
      };
    } catch (error) {
      if (error instanceof OAuthServerError && ['authorization_pending', 'slow_down'].includes(error.error)) {
        const interval = row.pollIntervalSeconds ?? DEFAULT_POLL_INTERVAL_SECONDS;
        return {
          outcome: 'waiting',
          pollIntervalSeconds: error.error === 'slow_down' ? interval + SLOW_DOWN_STEP_SECONDS : interval,
        };
      }
      if (error instanceof OAuthServerError && error.error === 'expired_token')
        return ended(
          'expired',
          'expired_token',
          error.description ?? 'the device code expired before the user approved it',
        );
      return refused(error, 'polling the token endpoint');
    }
  }
}

/** OAuth refusals end the session in `error`; transport trouble is a 422 and the session stays pending. */
function refused(error: unknown, what: string): FlowStep {
  if (error instanceof OAuthServerError)
    return ended('error', error.error, error.description ?? `the provider refused ${what}`);
  if (isProtocolViolation(error))
    return ended(
      'error',
      'invalid_provider_response',
      `the provider's answer to ${what} is unusable: ${error.message}`,
    );
  throw outboundFailure(error, what);
}
