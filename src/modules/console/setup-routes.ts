import type { GatewayModule } from '../../core/app.js';
import { clientInfoOf } from '../../core/auth/client-info.js';
import { setSessionCookie } from '../../core/auth/session-cookie.js';
import { csrfTokenFor } from '../../core/auth/token-secrets.js';
import { DataOf } from '../../core/http-schemas.js';
import { SetupCodeBody, SetupCodeState, SetupCompletion, SetupSession } from './schemas.js';
import type { SetupService } from './setup-codes.js';

const tags = ['console'];
// The code is the credential, so these routes need no token.
const open = { public: true };

/** The first-start setup link: check its code, then set the first admin's password and sign in. */
export const consoleSetupRoutes: GatewayModule<{ setup: SetupService; cookieSecure: boolean }> = async (
  app,
  { setup, cookieSecure },
) => {
  app.post(
    '/auth/setup/check',
    {
      config: { ...open, errors: [422] },
      schema: {
        tags,
        summary: 'Check a first-start setup code before asking for a password',
        description:
          'Answers the account the link belongs to; a code that is unknown, used, expired or whose account ' +
          'has a password already is refused with 422 and `details.reason`.',
        security: [],
        body: SetupCodeBody,
        response: { 200: DataOf(SetupCodeState) },
      },
    },
    async (request) => ({ data: await setup.inspect(request.body.code, clientInfoOf(request)) }),
  );

  app.post(
    '/auth/setup',
    {
      config: { ...open, errors: [422] },
      schema: {
        tags,
        summary: "Set the first admin's password with the one-time setup code, and sign in",
        description:
          'The code works once, until it expires (`INFRAGATE_SETUP_CODE_TTL_SECONDS`), and only while the ' +
          'account has no password. Starts a browser session like `POST /auth/login` (HttpOnly cookie).',
        security: [],
        body: SetupCompletion,
        response: { 200: DataOf(SetupSession) },
      },
    },
    async (request, reply) => {
      const { session, email } = await setup.complete(
        request.body.code,
        request.body.password,
        clientInfoOf(request),
      );
      setSessionCookie(reply, session, cookieSecure);
      return { data: { email, csrfToken: csrfTokenFor(session.token), expiresAt: session.expiresAt! } };
    },
  );
};
