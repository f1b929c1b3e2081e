import { type Static, Type } from 'typebox';
import { ScopeList } from '../../core/auth/scope-input.js';
import { NamedObject, NullableTimestamp, Timestamp, Uuid, WriteOnly } from '../../core/http-schemas.js';

/** The shapes of the auth area: route schemas, and through `Static` the service's types. */

export const CurrentUser = NamedObject('CurrentUser', {
  id: Uuid(),
  email: Type.String(),
  name: Type.String(),
  groupName: Type.String(),
  scopes: Type.Array(Type.String()),
});

/** The caller as `GET /auth/me` answers it. */
export const Me = NamedObject('Me', {
  ...CurrentUser.properties,
  csrfToken: Type.Optional(
    Type.String({
      description:
        'Only to a session cookie: the token its changes send in `X-CSRF-Token` (for a reloaded page)',
    }),
  ),
  sessionExpiresAt: Type.Optional(
    Type.Unsafe<Date>(
      Type.String({
        format: 'date-time',
        description: 'Only to a session cookie: when the session ends (the console signs out then)',
      }),
    ),
  ),
});

const TokenFields = {
  id: Uuid(),
  name: Type.String(),
  prefix: Type.Union([Type.String(), Type.Null()], {
    description: 'The first characters of the secret (`igw_` + 8), to tell tokens apart; null for old tokens',
  }),
  createdAt: Timestamp,
  lastUsedAt: NullableTimestamp,
  expiresAt: NullableTimestamp,
};

export const TokenRecord = NamedObject('ApiToken', {
  ...TokenFields,
  scopes: Type.Union([Type.Array(Type.String()), Type.Null()], {
    description:
      "What the token is narrowed to: it may do what these and its user's current scopes both allow; " +
      "null: all of its user's scopes",
  }),
});

export const TokenList = Type.Object({
  data: Type.Array(TokenRecord),
  maxLifetimeDays: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Longest lifetime a new token may have (`INFRAGATE_TOKEN_MAX_DAYS`); null: no limit',
  }),
});

export const Session = NamedObject('BrowserSession', {
  ...TokenFields,
  userAgent: Type.Union([Type.String(), Type.Null()]),
  clientIp: Type.Union([Type.String(), Type.Null()]),
  current: Type.Boolean(),
});

export const Credentials = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 320 }),
  password: WriteOnly(Type.String({ minLength: 1, maxLength: 1024 })),
});

export const LoginAnswer = NamedObject('LoginAnswer', {
  token: Type.String(),
  csrfToken: Type.String(),
  expiresAt: Timestamp,
  user: CurrentUser,
  recoveryCodes: Type.Optional(
    Type.Array(Type.String(), {
      description: 'Only when this login completed a required TOTP enrolment: shown once',
    }),
  ),
});

const ChallengeFields = {
  challengeToken: Type.String({ description: 'Send it to `POST /auth/login/totp`; valid a few minutes' }),
  expiresAt: Timestamp,
};

/** The password was right and the account has TOTP: the code comes next. */
export const MfaChallenge = NamedObject('MfaChallenge', {
  mfaRequired: Type.Literal(true),
  ...ChallengeFields,
});

/** The password was right, the group requires TOTP and the account has none: it enrols first. */
export const MfaEnrolmentChallenge = NamedObject('MfaEnrolmentChallenge', {
  mfaEnrollmentRequired: Type.Literal(true),
  ...ChallengeFields,
});

export const LoginStep = Type.Union([LoginAnswer, MfaChallenge, MfaEnrolmentChallenge]);

const TotpCode = Type.String({ pattern: '^[0-9]{6}$', description: 'The 6-digit code of the authenticator' });
const RecoveryCode = Type.String({ minLength: 1, maxLength: 64 });
const ChallengeToken = Type.String({ minLength: 1, maxLength: 128 });

export const SecondStep = Type.Object({
  challengeToken: ChallengeToken,
  code: Type.Optional(TotpCode),
  recoveryCode: Type.Optional(RecoveryCode),
});

export const ChallengeRef = Type.Object({ challengeToken: ChallengeToken });

export const TotpEnrolment = NamedObject('TotpEnrolment', {
  secret: Type.String({ description: 'Base32; shown during enrolment only' }),
  otpauthUrl: Type.String({ description: 'The `otpauth://totp/…` URI to show as a QR code' }),
});

export const TotpConfirmation = Type.Object({ code: TotpCode });

export const RecoveryCodes = Type.Object({
  recoveryCodes: Type.Array(Type.String(), { description: 'Ten one-time codes, shown once' }),
});

export const TotpStatus = NamedObject('TotpStatus', {
  enabled: Type.Boolean(),
  enabledAt: NullableTimestamp,
  pending: Type.Boolean({ description: 'An enrolment was started and waits for its first code' }),
  recoveryCodesLeft: Type.Integer(),
  required: Type.Boolean({ description: "The user's group requires a second factor" }),
});

export const TotpRemoval = Type.Object({
  code: Type.Optional(TotpCode),
  password: Type.Optional(WriteOnly(Type.String({ minLength: 1, maxLength: 1024 }))),
});

const Password = WriteOnly(Type.String({ minLength: 8, maxLength: 1024 }));
export const PasswordChange = Type.Object({
  currentPassword: WriteOnly(Type.String({ minLength: 1, maxLength: 1024 })),
  newPassword: Password,
});

export const NewApiToken = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  expiresInDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650 })),
  scopes: Type.Optional(
    ScopeList(
      'Narrows the token to these scopes (the grammar of group scopes), each one held by the caller. ' +
        "Left out: those of the caller's own token (all of the user's from a browser session or an unnarrowed token)",
    ),
  ),
});

/** An API token as created: its record and, this once, its secret. */
export const IssuedApiToken = NamedObject('IssuedApiToken', {
  ...TokenRecord.properties,
  token: Type.String(),
});

export type CurrentUser = Static<typeof CurrentUser>;
export type Me = Static<typeof Me>;
export type TokenRecord = Static<typeof TokenRecord>;
export type Session = Static<typeof Session>;
export type Credentials = Static<typeof Credentials>;
export type LoginAnswer = Static<typeof LoginAnswer>;
export type LoginStep = Static<typeof LoginStep>;
export type SecondStep = Static<typeof SecondStep>;
export type TotpEnrolment = Static<typeof TotpEnrolment>;
export type TotpStatus = Static<typeof TotpStatus>;
export type TotpRemoval = Static<typeof TotpRemoval>;
export type PasswordChange = Static<typeof PasswordChange>;
export type NewApiToken = Static<typeof NewApiToken>;
export type IssuedApiToken = Static<typeof IssuedApiToken>;
