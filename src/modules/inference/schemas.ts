import { type Static, Type } from 'typebox';
import {
  Name,
  NamedObject,
  NullableTimestamp,
  SearchText,
  StringEnum,
  Timestamp,
  Uuid,
  WriteOnly,
} from '../../core/http-schemas.js';
import { PaginationQueryFields } from '../../core/pagination.js';
import {
  COMPLETION_MODES,
  INFERENCE_AUTH_TYPES,
  OAUTH_FLOWS,
  OAUTH_SESSION_STATUSES,
} from '../../db/schema/index.js';
import { FAMILIES, OPERATIONS, QUOTA_KINDS, WIRE_PROTOCOLS } from '../../inference-catalog.js';

/**
 * The shapes of the inference area: the route schemas, and through `Static` the services' types (the
 * catalog file the operator writes is configuration: src/inference-catalog.ts).
 */

// ---- answers -------------------------------------------------------------------------------------

const NullableEnum = <T extends readonly string[]>(values: T) =>
  Type.Unsafe<T[number] | null>({ type: ['string', 'null'], enum: [...values, null] });
const NullableString = Type.Union([Type.String(), Type.Null()]);
const NullableInteger = Type.Union([Type.Integer(), Type.Null()]);

/**
 * A catalog entry as `GET /api/inference/providers/catalog` answers it: the contract's fields, without
 * `apiKeyHeader`, `extraHeaders` and `oauth`.
 */
export const PublicCatalogEntry = Type.Object({
  id: Type.String(),
  label: Type.String(),
  family: StringEnum(FAMILIES),
  wireProtocol: StringEnum(WIRE_PROTOCOLS),
  baseUrl: Type.String(),
  authTypes: Type.Array(StringEnum(INFERENCE_AUTH_TYPES)),
  subscription: Type.Boolean(),
  featured: Type.Boolean(),
  allowBaseUrlOverride: Type.Optional(Type.Boolean()),
  privateNetworkByDefault: Type.Optional(Type.Boolean()),
  supportedOperations: Type.Optional(Type.Array(StringEnum(OPERATIONS))),
  modelsPath: Type.Optional(Type.String()),
  quotaKind: Type.Optional(StringEnum(QUOTA_KINDS)),
  termsVersion: Type.Optional(Type.String()),
  oauthFlow: NullableEnum(OAUTH_FLOWS),
  completionMode: NullableEnum(COMPLETION_MODES),
});

export const SessionStatus = StringEnum(OAUTH_SESSION_STATUSES);

/** The provider OAuth session record of the contract. */
export const Session = NamedObject('OauthSession', {
  id: Uuid(),
  providerId: Type.String(),
  status: SessionStatus,
  authorizationUrl: Type.String(),
  completionMode: Type.String(),
  userCode: NullableString,
  pollIntervalSeconds: NullableInteger,
  connectionId: Type.Union([Uuid(), Type.Null()]),
  errorCode: NullableString,
  errorMessage: NullableString,
  expiresAt: Timestamp,
});

export const Connection = NamedObject('InferenceConnection', {
  id: Uuid(),
  providerId: Type.String(),
  providerLabel: NullableString,
  name: Type.String(),
  authType: StringEnum(INFERENCE_AUTH_TYPES),
  baseUrl: NullableString,
  effectiveBaseUrl: NullableString,
  hasApiKey: Type.Boolean(),
  hasAccessToken: Type.Boolean(),
  hasRefreshToken: Type.Boolean(),
  accessTokenExpiresAt: NullableTimestamp,
  tokenScope: NullableString,
  lastRefreshedAt: NullableTimestamp,
  lastRefreshError: NullableString,
  lastTestedAt: NullableTimestamp,
  lastTestOk: Type.Union([Type.Boolean(), Type.Null()]),
  lastTestError: NullableString,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const ModelInfo = Type.Object({ id: Type.String(), name: NullableString });

export const ConnectionTestResult = Type.Object({
  ok: Type.Boolean(),
  url: Type.String(),
  httpStatus: NullableInteger,
  responseMs: NullableInteger,
  modelCount: Type.Integer(),
  models: Type.Array(ModelInfo),
  error: NullableString,
  testedAt: Timestamp,
});

// ---- requests ------------------------------------------------------------------------------------

const ProviderId = Type.String({ minLength: 1, maxLength: 100 });
const ApiKey = WriteOnly(
  Type.String({ minLength: 1, maxLength: 8192, description: 'write-only; stored encrypted' }),
);
const BaseUrl = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: 'only where the catalog entry allows it',
});

export const ConnectionListQuery = Type.Object({
  ...PaginationQueryFields,
  providerId: Type.Optional(ProviderId),
  authType: Type.Optional(StringEnum(INFERENCE_AUTH_TYPES)),
  q: SearchText(),
});

export const NewConnection = Type.Object({
  providerId: ProviderId,
  name: Name,
  authType: StringEnum(INFERENCE_AUTH_TYPES),
  apiKey: Type.Optional(ApiKey),
  baseUrl: Type.Optional(BaseUrl),
});

export const ConnectionChange = Type.Object({
  name: Type.Optional(Name),
  apiKey: Type.Optional(Type.Union([ApiKey, Type.Null()])),
  baseUrl: Type.Optional(Type.Union([BaseUrl, Type.Null()])),
});

export const SessionListQuery = Type.Object({
  ...PaginationQueryFields,
  providerId: Type.Optional(ProviderId),
  status: Type.Optional(SessionStatus),
});

export const SessionStart = Type.Object({
  providerId: ProviderId,
  name: Type.Optional({ ...Name, description: 'name of the connection the session creates' }),
});

export const SessionCompletion = Type.Object({
  callback: Type.Optional(Type.String({ maxLength: 8192, description: 'full callback URL or code#state' })),
});

/** Session ids are uuids; the contract types the path parameter as a non-empty string (anything else is 404). */
export const SessionParams = Type.Object({ id: Type.String({ minLength: 1 }) });

export type PublicCatalogEntry = Static<typeof PublicCatalogEntry>;
export type SessionStatus = Static<typeof SessionStatus>;
export type Session = Static<typeof Session>;
export type Connection = Static<typeof Connection>;
export type ModelInfo = Static<typeof ModelInfo>;
export type ConnectionTestResult = Static<typeof ConnectionTestResult>;
export type ConnectionListQuery = Static<typeof ConnectionListQuery>;
export type NewConnection = Static<typeof NewConnection>;
export type ConnectionChange = Static<typeof ConnectionChange>;
export type SessionListQuery = Static<typeof SessionListQuery>;
export type SessionStart = Static<typeof SessionStart>;
