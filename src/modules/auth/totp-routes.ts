import type { GatewayModule } from '../../core/app.js';
import { clientInfoOf } from '../../core/auth/client-info.js';
import { AUTHENTICATED } from '../../core/auth/scopes.js';
import { DataOf, Success } from '../../core/http-schemas.js';
import { RecoveryCodes, TotpConfirmation, TotpEnrolment, TotpRemoval, TotpStatus } from './schemas.js';
import type { TotpService } from './totp.js';

const tags = ['auth'];
const signedIn = { scope: AUTHENTICATED } as const;

/** The caller's own TOTP second factor: state, enrolment, confirmation, removal. */
export const totpRoutes: GatewayModule<{ totp: TotpService }> = async (app, { totp }) => {
  app.get(
    '',
    {
      config: signedIn,
      schema: {
        tags,
        summary: "The caller's two-factor sign-in: on, waiting for its first code, recovery codes left",
        response: { 200: DataOf(TotpStatus) },
      },
    },
    async (request) => ({ data: await totp.status(request.actor.userId) }),
  );

  app.post(
    '',
    {
      config: { ...signedIn, errors: [409] },
      schema: {
        tags,
        summary: 'Start enrolling an authenticator app (TOTP, SHA-1, 6 digits, 30 s)',
        description:
          'Answers the secret and its `otpauth://` URI (show it as a QR code); nothing changes at login until ' +
          '`POST /auth/me/totp/confirm` with a first code. Starting again replaces a secret still waiting; ' +
          '409 `TOTP_ALREADY_ENABLED` when it is on.',
        response: { 201: DataOf(TotpEnrolment) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({
        data: await totp.startEnrolment(request.actor, {
          id: request.actor.userId,
          email: request.actor.email,
        }),
      }),
  );

  app.post(
    '/confirm',
    {
      config: { ...signedIn, errors: [409] },
      schema: {
        tags,
        summary: 'Turn two-factor sign-in on with a first code; answers ten recovery codes, shown once',
        body: TotpConfirmation,
        response: { 200: DataOf(RecoveryCodes) },
      },
    },
    async (request) => ({
      data: { recoveryCodes: await totp.confirm(request.actor, request.body.code) },
    }),
  );

  app.delete(
    '',
    {
      config: { ...signedIn, errors: [409, 422] },
      schema: {
        tags,
        summary: 'Turn two-factor sign-in off, proven with a current `code` or the `password`',
        description:
          'A wrong proof counts as a failed login. 422 `TOTP_REQUIRED_BY_GROUP` while the group requires it.',
        body: TotpRemoval,
        response: { 200: Success },
      },
    },
    async (request) => {
      await totp.disable(request.actor, request.body ?? {}, clientInfoOf(request));
      return { success: true };
    },
  );
};
