import type { GatewayModule } from '../../core/app.js';
import { clientInfoOf } from '../../core/auth/client-info.js';
import { setSessionCookie } from '../../core/auth/session-cookie.js';
import { DataOf } from '../../core/http-schemas.js';
import type { LoginService } from './login.js';
import { ChallengeRef, Credentials, LoginAnswer, LoginStep, SecondStep, TotpEnrolment } from './schemas.js';

const tags = ['auth'];
const open = { public: true } as const;

/** Signing in with a password, and the second step that follows for accounts with TOTP. */
export const loginRoutes: GatewayModule<{ login: LoginService }> = async (app, { login }) => {
  const cookieSecure = app.deps.config.cookieSecure;

  app.post(
    '',
    {
      config: { ...open, errors: [401] },
      schema: {
        tags,
        summary: 'Log in with email and password; starts a browser session or asks for the second step',
        description:
          'Answers the session token (usable as Bearer) and sets it as an HttpOnly cookie. Cookie-authenticated ' +
          'changes must send `csrfToken` in the `X-CSRF-Token` header. An account with two-factor sign-in ' +
          'answers `{mfaRequired: true, challengeToken}` instead, and one whose group requires it but has none ' +
          '`{mfaEnrollmentRequired: true, challengeToken}`: no session until `POST /auth/login/totp`.',
        security: [],
        body: Credentials,
        response: { 200: DataOf(LoginStep) },
      },
    },
    async (request, reply) => {
      const step = await login.login(request.body, clientInfoOf(request));
      if ('token' in step) setSessionCookie(reply, step, cookieSecure);
      return { data: step };
    },
  );

  app.post(
    '/totp',
    {
      config: { ...open, errors: [401, 409] },
      schema: {
        tags,
        summary: 'Complete a login with the code of the authenticator or a recovery code',
        description:
          'Send `code` (6 digits) or `recoveryCode` with the `challengeToken` of `POST /auth/login`. A code is ' +
          'accepted once; a recovery code is used up. During a required enrolment the first code turns ' +
          'two-factor sign-in on and the answer carries the ten recovery codes, shown once.',
        security: [],
        body: SecondStep,
        response: { 200: DataOf(LoginAnswer) },
      },
    },
    async (request, reply) => {
      const answer = await login.completeSecondStep(request.body, clientInfoOf(request));
      setSessionCookie(reply, answer, cookieSecure);
      return { data: answer };
    },
  );

  app.post(
    '/totp/enrol',
    {
      config: { ...open, errors: [401, 409, 422] },
      schema: {
        tags,
        summary: 'Start the enrolment a login must make first (group requires two-factor sign-in)',
        description:
          'For a `mfaEnrollmentRequired` challenge: a new secret and its `otpauth://` URI to show as a QR code; ' +
          'the first code, sent to `POST /auth/login/totp`, turns it on and completes the login.',
        security: [],
        body: ChallengeRef,
        response: { 200: DataOf(TotpEnrolment) },
      },
    },
    async (request) => ({
      data: await login.enrolDuringLogin(request.body.challengeToken, clientInfoOf(request)),
    }),
  );
};
