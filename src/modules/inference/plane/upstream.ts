import type { Response } from 'undici';
import { systemActor } from '../../../core/actor.js';
import type { Deps } from '../../../core/deps.js';
import { findEgressDenial } from '../../../core/egress-guard.js';
import { AppError } from '../../../core/errors.js';
import { credentialHeaders } from '../connection-secrets.js';
import type { ResolvedTarget } from '../model-routes.js';
import type { ProviderCatalog } from '../provider-catalog.js';
import type { TokenRefresher } from '../token-refresh.js';
import { type Operation, upstreamUrl, type WireProtocol } from './protocols.js';

/** A whole upstream call (a long stream included) never outlives this. */
const CALL_CEILING_MS = 30 * 60_000;

/** Caller headers a same-protocol call carries on: the protocol's version and feature flags. */
const FORWARDED_HEADERS: Record<WireProtocol, string[]> = {
  'vendor1-chat': ['openai-beta'],
  'vendor1-responses': ['openai-beta'],
  'vendor2-messages': ['anthropic-version', 'anthropic-beta'],
  'vendor4-content': [],
};

const VENDOR2_VERSION = '2023-06-01';

/** One call to make: the target, the operation and the body to send. */
export interface UpstreamCall {
  target: ResolvedTarget;
  operation: Operation;
  stream: boolean;
  body: unknown;
  callerHeaders: Record<string, string | string[] | undefined>;
  /** The client went away: the upstream call ends too. */
  abort: AbortSignal;
}

/** How one target answered: a response (any status), or why it could not be asked. */
export type UpstreamOutcome =
  | { ok: true; response: Response; protocol: WireProtocol }
  | { ok: false; reason: string; timedOut: boolean; countsAgainstCircuit: boolean };

/**
 * Calls one target's provider through the egress guard, with the connection's credential (an OAuth
 * connection's access token refreshed first when it is about to expire). The call is abandoned when
 * no response starts within the upstream timeout, or when the client goes away.
 */
export class UpstreamCaller {
  constructor(
    private readonly deps: Pick<Deps, 'secrets' | 'egress' | 'config'> & {
      catalog: ProviderCatalog;
      tokens: TokenRefresher;
    },
  ) {}

  /** The protocol a target's provider speaks, or undefined once its entry left the catalog. */
  protocolOf(target: ResolvedTarget): WireProtocol | undefined {
    return this.deps.catalog.find(target.connection.providerId)?.wireProtocol;
  }

  async call(call: UpstreamCall): Promise<UpstreamOutcome> {
    const entry = this.deps.catalog.find(call.target.connection.providerId);
    const refused = (reason: string) =>
      ({ ok: false, reason, timedOut: false, countsAgainstCircuit: false }) as const;
    if (!entry) return refused(`provider ${call.target.connection.providerId} is no longer in the catalog`);
    let row = call.target.connection;
    if (row.authType === 'oauth') {
      row = await this.deps.tokens.freshTokens(systemActor(), row, entry);
      const expired = row.accessTokenExpiresAt !== null && row.accessTokenExpiresAt.getTime() <= Date.now();
      if (expired)
        return refused(
          `the access token expired and its refresh failed: ${row.lastRefreshError ?? 'no refresh token'}`,
        );
    }
    let credentials: Record<string, string>;
    try {
      credentials = credentialHeaders(this.deps.secrets, row, entry);
    } catch (error) {
      if (error instanceof AppError)
        return refused((error.details as { explanation?: string }).explanation ?? error.message);
      throw error;
    }
    const url = upstreamUrl(
      row.baseUrl ?? entry.baseUrl,
      call.operation,
      call.target.upstreamModel,
      call.stream,
    );
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: call.stream ? 'text/event-stream' : 'application/json',
      ...(entry.extraHeaders ?? {}),
    };
    // vendor2 requires a version; a translated call (no vendor2 caller to name one) sends the stable one.
    if (entry.wireProtocol === 'vendor2-messages') headers['anthropic-version'] ??= VENDOR2_VERSION;
    for (const name of FORWARDED_HEADERS[entry.wireProtocol]) {
      const value = call.callerHeaders[name];
      if (typeof value === 'string') headers[name] = value;
    }
    Object.assign(headers, credentials);
    const timeoutMs = this.deps.config.inferenceUpstreamTimeoutMs;
    const firstByte = new AbortController();
    const timer = setTimeout(() => firstByte.abort(), timeoutMs);
    try {
      const response = await this.deps.egress.fetch(url, {
        method: 'POST',
        headers,
        body: JSON.stringify(call.body),
        timeoutMs: CALL_CEILING_MS,
        maxRedirects: 0,
        abort: AbortSignal.any([call.abort, firstByte.signal]),
      });
      return { ok: true, response, protocol: entry.wireProtocol };
    } catch (error) {
      if (call.abort.aborted) throw error;
      if (firstByte.signal.aborted)
        return {
          ok: false,
          reason: `no answer within ${timeoutMs} ms`,
          timedOut: true,
          countsAgainstCircuit: true,
        };
      const denial = findEgressDenial(error);
      if (denial) return refused(`the egress policy refused ${denial.host}: ${denial.rule}`);
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause : (error as Error);
      return {
        ok: false,
        reason: `unreachable: ${cause.message}`,
        timedOut: false,
        countsAgainstCircuit: true,
      };
    } finally {
      clearTimeout(timer);
    }
  }
}
