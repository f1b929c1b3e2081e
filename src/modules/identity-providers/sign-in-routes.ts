import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { GatewayModule } from '../../core/app.js';
import { requestCookie } from '../../core/auth/authenticate.js';
import { clientInfoOf } from '../../core/auth/client-info.js';
import { setSessionCookie } from '../../core/auth/session-cookie.js';
import { requestWithoutQuery } from '../../core/query-free-log.js';
import { SsoRefusal } from './account-mapping.js';
import { CallbackQuery, ProviderParams, SignInProvider, StartQuery } from './schemas.js';
import { type OidcSignInService, SIGN_IN_TTL_SECONDS } from './sign-in.js';

const tags = ['auth'];
const open = { public: true } as const;
/** Binds a sign-in to the browser that started it (HttpOnly, only sent to these routes). */
const BINDING_COOKIE = 'infragate_oidc';
const BINDING_PATH = '/auth/oidc';

/** Back to the console's sign-in page, which says in words what `reason` means. */
function toSignInPage(reply: FastifyReply, reason: string, next?: string) {
  const query = new URLSearchParams({ sso: reason });
  if (next && next !== '/') query.set('next', next);
  return reply.redirect(`/signin?${query}`, 303);
}

/** Signing in through an OpenID Connect provider: the buttons, the start and the callback. */
export const signInRoutes: GatewayModule<{ signIn: OidcSignInService }> = async (app, { signIn }) => {
  const secure = app.deps.config.cookieSecure;

  app.get(
    '/auth/oidc/providers',
    {
      config: open,
      schema: {
        tags,
        summary: 'The single sign-on providers to offer on the sign-in page (enabled ones)',
        security: [],
        response: { 200: Type.Object({ data: Type.Array(SignInProvider) }) },
      },
    },
    async () => ({ data: await signIn.listEnabled() }),
  );

  app.get(
    '/auth/oidc/:providerId/start',
    {
      config: open,
      schema: {
        tags,
        summary: 'Start signing in through a provider: redirects the browser there',
        description:
          'Answers 302 to the provider (state, nonce and a PKCE S256 challenge; valid 10 minutes, once) and ' +
          'sets the `infragate_oidc` binding cookie. `next` is the console path to land on afterwards. An ' +
          'unknown or disabled provider is 404; an unreachable one redirects to `/signin?sso=SSO_PROVIDER_UNREACHABLE`.',
        security: [],
        params: ProviderParams,
        querystring: StartQuery,
        response: {
          302: Type.Null({ description: 'To the provider’s sign-in page (`Location`)' }),
          303: Type.Null({ description: 'Back to the sign-in page when the provider cannot be reached' }),
        },
      },
    },
    async (request, reply) => {
      const next = request.query.next ?? '/';
      try {
        const started = await signIn.start(
          request.params.providerId,
          next,
          requestCookie(request, BINDING_COOKIE),
        );
        reply.setCookie(BINDING_COOKIE, started.browserBinding, {
          httpOnly: true,
          sameSite: 'lax',
          secure,
          path: BINDING_PATH,
          maxAge: SIGN_IN_TTL_SECONDS,
        });
        return reply.redirect(started.location, 302);
      } catch (error) {
        if (error instanceof SsoRefusal) return toSignInPage(reply, error.reason, next);
        throw error;
      }
    },
  );

  app.get(
    '/auth/oidc/callback',
    {
      config: open,
      schema: {
        tags,
        summary: 'Where the provider sends the browser back; ends in a browser session like password login',
        description:
          'Checks state (and that this browser started the sign-in), nonce, PKCE, the ID token (signature, ' +
          'issuer, audience, expiry) and the email, then answers 303 to `next` with the session cookie. Any ' +
          'refusal answers 303 to `/signin?sso=<reason>` (e.g. `SSO_STATE_INVALID`, `SSO_TOKEN_INVALID`, ' +
          '`SSO_USER_DISABLED`, `SSO_EMAIL_NOT_ALLOWED`, `TOO_MANY_FAILED_LOGINS`) and counts as a failed login.',
        security: [],
        querystring: CallbackQuery,
        response: {
          303: Type.Null({ description: 'To `next` with the session cookie, or to `/signin?sso=<reason>`' }),
        },
      },
      // The query holds the authorization code and state: log lines name the path only.
      logSerializers: { req: requestWithoutQuery },
    },
    async (request, reply) => {
      try {
        const done = await signIn.complete(
          request.query,
          requestCookie(request, BINDING_COOKIE),
          clientInfoOf(request),
        );
        reply.clearCookie(BINDING_COOKIE, { path: BINDING_PATH });
        setSessionCookie(reply, done.session, secure);
        return reply.redirect(done.next, 303);
      } catch (error) {
        if (error instanceof SsoRefusal) return toSignInPage(reply, error.reason);
        throw error;
      }
    },
  );
};
