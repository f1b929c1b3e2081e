import { type Static, Type } from 'typebox';
import { NullableTimestamp, Timestamp, Uuid } from '../../core/http-schemas.js';

/** The shapes of the auth area: route schemas, and through `Static` the service's types. */

export const CurrentUser = Type.Object({
  id: Uuid(),
  email: Type.String(),
  name: Type.String(),
  groupName: Type.String(),
  scopes: Type.Array(Type.String()),
});

/** The caller as `GET /auth/me` answers it. */
export const Me = Type.Object({
  ...CurrentUser.properties,
  csrfToken: Type.Optional(
    Type.String({
      description:
        'Only to a session cookie: the token its changes send in `X-CSRF-Token` (for a reloaded page)',
    }),
  ),
});

export const TokenRecord = Type.Object({
  id: Uuid(),
  name: Type.String(),
  createdAt: Timestamp,
  lastUsedAt: NullableTimestamp,
  expiresAt: NullableTimestamp,
});

export const Session = Type.Object({
  ...TokenRecord.properties,
  userAgent: Type.Union([Type.String(), Type.Null()]),
  clientIp: Type.Union([Type.String(), Type.Null()]),
  current: Type.Boolean(),
});

export const Credentials = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 320 }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
});

export const LoginAnswer = Type.Object({
  token: Type.String(),
  csrfToken: Type.String(),
  expiresAt: Timestamp,
  user: CurrentUser,
});

export const NewApiToken = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  expiresInDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650 })),
});

/** An API token as created: its record and, this once, its secret. */
export const IssuedApiToken = Type.Object({ ...TokenRecord.properties, token: Type.String() });

export type CurrentUser = Static<typeof CurrentUser>;
export type Me = Static<typeof Me>;
export type TokenRecord = Static<typeof TokenRecord>;
export type Session = Static<typeof Session>;
export type Credentials = Static<typeof Credentials>;
export type LoginAnswer = Static<typeof LoginAnswer>;
export type NewApiToken = Static<typeof NewApiToken>;
export type IssuedApiToken = Static<typeof IssuedApiToken>;
