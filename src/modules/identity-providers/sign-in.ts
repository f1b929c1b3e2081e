import crypto from 'node:crypto';
import { and, asc, eq, gt, isNotNull, lt, sql } from 'drizzle-orm';
import * as oauth from 'oauth4webapi';
import type { AuditActor } from '../../core/actor.js';
import type { ClientInfo } from '../../core/auth/client-info.js';
import { hashTokenSecret, safeEqual } from '../../core/auth/token-secrets.js';
import { startBrowserSession } from '../../core/auth/tokens.js';
import type { Deps } from '../../core/deps.js';
import { AppError, notFound } from '../../core/errors.js';
import type { SignInAttempt } from '../../core/sign-in-throttle.js';
import { identityProviders, oidcSignIns } from '../../db/schema/index.js';
import { accountFor, SsoRefusal, vouchedEmail } from './account-mapping.js';
import { type OidcClient, OidcProviderError, type SignInSecrets } from './oidc-client.js';
import { callbackUrl, SEALED_CLIENT_SECRET } from './providers.js';
import type { CallbackQuery, SignInProvider } from './schemas.js';

/** How long a person has at the provider before the sign-in they started is forgotten. */
export const SIGN_IN_TTL_SECONDS = 600;
const SEALED = { nonce: 'oidc_sign_ins.nonce', codeVerifier: 'oidc_sign_ins.code_verifier' };

export type SignInDeps = Pick<
  Deps,
  'db' | 'audit' | 'secrets' | 'config' | 'principals' | 'log' | 'signInThrottle'
> & { oidc: OidcClient };

/** Where a started sign-in goes: the provider, with the browser's binding secret to set as a cookie. */
export interface StartedSignIn {
  location: string;
  browserBinding: string;
}

export interface CompletedSignIn {
  session: { token: string; expiresAt: Date };
  next: string;
}

/**
 * The providers a person may sign in through: enabled, and holding a client secret (a new issuer
 * drops it until an admin sends one).
 */
const OFFERED = and(eq(identityProviders.enabled, true), isNotNull(identityProviders.clientSecretSealed));

const PROVIDER_FAILURES = {
  refused: 'SSO_REFUSED',
  invalid_response: 'SSO_TOKEN_INVALID',
  unreachable: 'SSO_PROVIDER_UNREACHABLE',
} as const;

/**
 * Signing in through an OpenID Connect provider: the start (state, nonce and PKCE verifier kept
 * server-side, bound to the browser by a cookie, used once) and the callback (every check, the
 * account found or created, its mapped group applied, a browser session started). Refusals are
 * `SsoRefusal`s, counted by the login throttle like wrong passwords.
 */
export class OidcSignInService {
  constructor(private readonly deps: SignInDeps) {}

  /** The providers people may sign in through, for the sign-in page's buttons. */
  listEnabled(): Promise<SignInProvider[]> {
    return this.deps.db
      .select({ id: identityProviders.id, name: identityProviders.name })
      .from(identityProviders)
      .where(OFFERED)
      .orderBy(asc(identityProviders.name));
  }

  /** 404 for an unknown provider or one not offered; an unreachable one is an `SsoRefusal`. */
  async start(providerId: string, next: string, existingBinding: string | undefined): Promise<StartedSignIn> {
    const [provider] = await this.deps.db
      .select()
      .from(identityProviders)
      .where(and(eq(identityProviders.id, providerId), OFFERED));
    if (!provider) throw notFound({ identityProviderId: providerId });
    // Reusing the browser's binding lets two tabs sign in at once.
    const browserBinding = existingBinding ?? crypto.randomBytes(32).toString('base64url');
    const secrets = this.newSecrets();
    const location = await this.withProvider(() =>
      this.deps.oidc.authorizationUrl(this.clientOf(provider), secrets),
    );
    await this.deps.db.transaction(async (tx) => {
      // Sign-ins nobody came back from are of no use: dropped here rather than by a job.
      await tx.delete(oidcSignIns).where(lt(oidcSignIns.expiresAt, sql`now()`));
      await tx.insert(oidcSignIns).values({
        providerId,
        stateHash: hashTokenSecret(secrets.state),
        browserHash: hashTokenSecret(browserBinding),
        nonceSealed: this.deps.secrets.seal(secrets.nonce, SEALED.nonce),
        codeVerifierSealed: this.deps.secrets.seal(secrets.codeVerifier, SEALED.codeVerifier),
        nextPath: next,
        expiresAt: new Date(Date.now() + SIGN_IN_TTL_SECONDS * 1000),
      });
    });
    return { location, browserBinding };
  }

  /** The provider sent the browser back: check everything, then start a session. */
  async complete(
    query: CallbackQuery,
    browserBinding: string | undefined,
    client: ClientInfo,
  ): Promise<CompletedSignIn> {
    let email: string | null = null;
    let userId: string | null = null;
    let providerName: string | undefined;
    try {
      await this.throttled({ email: null, userId: null, client });
      const started = await this.claim(query.state, browserBinding);
      const [provider] = await this.deps.db
        .select()
        .from(identityProviders)
        .where(eq(identityProviders.id, started.providerId));
      providerName = provider?.name;
      if (!provider?.enabled) throw new SsoRefusal('SSO_PROVIDER_DISABLED');
      const callback = new URLSearchParams(
        Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined),
      );
      const secrets: SignInSecrets = {
        state: query.state!,
        nonce: this.deps.secrets.open(started.nonceSealed, SEALED.nonce),
        codeVerifier: this.deps.secrets.open(started.codeVerifierSealed, SEALED.codeVerifier),
        redirectUri: this.redirectUri,
      };
      const identity = await this.withProvider(() =>
        this.deps.oidc.completeSignIn(this.clientOf(provider), callback, secrets),
      );
      email = vouchedEmail(provider, identity.claims);
      await this.throttled({ email, userId: null, client });
      const actorOf = (user: { id: string; email: string }): AuditActor => ({
        userId: user.id,
        email: user.email,
        requestId: client.requestId,
        clientIp: client.clientIp,
      });
      const outcome = await this.deps.db.transaction(async (tx) => {
        const account = await accountFor(tx, this.deps.audit, provider, email!, identity.claims, actorOf);
        const session = await startBrowserSession(
          tx,
          { audit: this.deps.audit, sessionTtlSeconds: this.deps.config.sessionTtlSeconds },
          account,
          client,
          { method: 'oidc', identityProvider: provider.name, subject: identity.subject },
        );
        return { account, session };
      });
      userId = outcome.account.id;
      if (outcome.account.changed) this.deps.principals.invalidate();
      return { session: outcome.session, next: started.nextPath };
    } catch (error) {
      if (!(error instanceof SsoRefusal)) throw error;
      if (error.reason !== 'TOO_MANY_FAILED_LOGINS')
        await this.deps.signInThrottle.recordFailure(
          { email: error.email ?? email, userId, client },
          {
            method: 'oidc',
            reason: error.reason,
            ...(providerName ? { identityProvider: providerName } : {}),
          },
        );
      throw error;
    }
  }

  private get redirectUri(): string {
    return callbackUrl(this.deps.config.publicUrl);
  }

  /** Uses up the sign-in `state` names; it must be open, and started by this browser. */
  private async claim(state: string | undefined, browserBinding: string | undefined) {
    if (!state) throw new SsoRefusal('SSO_STATE_INVALID');
    const [started] = await this.deps.db
      .delete(oidcSignIns)
      .where(and(eq(oidcSignIns.stateHash, hashTokenSecret(state)), gt(oidcSignIns.expiresAt, sql`now()`)))
      .returning();
    if (!started || !browserBinding || !safeEqual(hashTokenSecret(browserBinding), started.browserHash))
      throw new SsoRefusal('SSO_STATE_INVALID');
    return started;
  }

  private async throttled(attempt: SignInAttempt): Promise<void> {
    try {
      await this.deps.signInThrottle.assertOpen(attempt, { method: 'oidc' });
    } catch (error) {
      if (error instanceof AppError) throw new SsoRefusal('TOO_MANY_FAILED_LOGINS', attempt.email);
      throw error;
    }
  }

  private async withProvider<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof OidcProviderError)) throw error;
      const reason = PROVIDER_FAILURES[error.failure];
      // The person sees the reason; the operator needs the provider's words (no tokens are in them).
      this.deps.log.warn({ reason, problem: error.message }, 'single sign-on: the provider call failed');
      throw new SsoRefusal(reason);
    }
  }

  private newSecrets(): SignInSecrets {
    return {
      state: oauth.generateRandomState(),
      nonce: oauth.generateRandomNonce(),
      codeVerifier: oauth.generateRandomCodeVerifier(),
      redirectUri: this.redirectUri,
    };
  }

  private clientOf(provider: typeof identityProviders.$inferSelect) {
    // Only offered providers start a sign-in; one whose secret was dropped since cannot complete it.
    if (provider.clientSecretSealed === null) throw new SsoRefusal('SSO_PROVIDER_DISABLED');
    return {
      issuer: provider.issuer,
      clientId: provider.clientId,
      clientSecret: this.deps.secrets.open(provider.clientSecretSealed, SEALED_CLIENT_SECRET),
      scopes: provider.scopes,
    };
  }
}
