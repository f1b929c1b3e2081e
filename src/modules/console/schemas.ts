import { Type } from 'typebox';
import { Timestamp, WriteOnly } from '../../core/http-schemas.js';

/** The shapes of the console's first-start setup routes. */

const SetupCode = Type.String({
  minLength: 1,
  maxLength: 128,
  description: 'The `code` of the one-time link printed on the first start',
});

export const SetupCodeBody = Type.Object({ code: SetupCode });

export const SetupCompletion = Type.Object({
  code: SetupCode,
  // The same limits as any user's password (PUT /api/admin/users/{id}/password).
  password: WriteOnly(Type.String({ minLength: 8, maxLength: 1024 })),
});

export const SetupCodeState = Type.Object({
  email: Type.String({ description: 'The account whose password the link sets' }),
  expiresAt: Timestamp,
});

export const SetupSession = Type.Object({
  email: Type.String(),
  csrfToken: Type.String({ description: 'Send in `X-CSRF-Token` with cookie-authenticated changes' }),
  expiresAt: Timestamp,
});
