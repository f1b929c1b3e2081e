import { type Static, Type } from 'typebox';
import {
  Name,
  NamedObject,
  NullableTimestamp,
  SearchText,
  StringEnum,
  Timestamp,
  Uuid,
} from '../../core/http-schemas.js';
import { PaginationQueryFields } from '../../core/pagination.js';
import {
  COMPLETION_MODES,
  INFERENCE_AUTH_TYPES,
  OAUTH_FLOWS,
  OAUTH_SESSION_STATUSES,
} from '../../db/schema/index.js';

/**
 * The shapes of the inference area: the catalog file the operator writes, the route schemas, and
 * through `Static` the services' types.
 */

// ---- the catalog file (catalog/inference-providers.json or INFRAGATE_INFERENCE_CATALOG) ----------

export const FAMILIES = ['vendor1', 'vendor2', 'vendor3', 'vendor4', 'custom'] as const;
export const WIRE_PROTOCOLS = [
  'vendor1-responses',
  'vendor1-chat',
  'vendor2-messages',
  'vendor4-content',
] as const;
export const OPERATIONS = ['inference', 'images', 'search', 'realtime'] as const;
export const QUOTA_KINDS = ['vendor1-quota', 'vendor2-oauth', 'vendor3-usage'] as const;

const HttpUrl = Type.String({ minLength: 1, maxLength: 2048 });

/** How an API key travels: `authorization: Bearer <key>` unless the entry says otherwise. */
const ApiKeyHeader = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9-]+$' }),
    prefix: Type.Optional(Type.String({ maxLength: 50 })),
  },
  { additionalProperties: false },
);

/** Where an OAuth entry's authorization server lives; operators (and tests) point it anywhere. */
export const OAuthSettings = Type.Object(
  {
    issuer: Type.Optional(HttpUrl),
    authorizationEndpoint: Type.Optional(HttpUrl),
    tokenEndpoint: HttpUrl,
    deviceAuthorizationEndpoint: Type.Optional(HttpUrl),
    clientId: Type.String({ minLength: 1, maxLength: 255 }),
    scopes: Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 50 }),
    redirectUri: Type.Optional(HttpUrl),
    authorizationParams: Type.Optional(Type.Record(Type.String(), Type.String())),
    /** Lifetime of a redirect session before it expires unanswered; default 600. */
    sessionTtlSeconds: Type.Optional(Type.Integer({ minimum: 60, maximum: 86400 })),
  },
  { additionalProperties: false },
);

/** A provider as the catalog file describes it, with the settings the gateway keeps to itself. */
export const CatalogEntry = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 100, pattern: '^[a-z0-9][a-z0-9._-]*$' }),
    label: Type.String({ minLength: 1, maxLength: 255 }),
    family: StringEnum(FAMILIES),
    wireProtocol: StringEnum(WIRE_PROTOCOLS),
    baseUrl: HttpUrl,
    authTypes: Type.Array(StringEnum(INFERENCE_AUTH_TYPES), { minItems: 1, uniqueItems: true }),
    subscription: Type.Boolean(),
    featured: Type.Boolean(),
    allowBaseUrlOverride: Type.Optional(Type.Boolean()),
    privateNetworkByDefault: Type.Optional(Type.Boolean()),
    supportedOperations: Type.Optional(Type.Array(StringEnum(OPERATIONS), { uniqueItems: true })),
    modelsPath: Type.Optional(Type.String({ minLength: 1, maxLength: 500, pattern: '^/' })),
    quotaKind: Type.Optional(StringEnum(QUOTA_KINDS)),
    termsVersion: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    oauthFlow: Type.Union([StringEnum(OAUTH_FLOWS), Type.Null()]),
    completionMode: Type.Union([StringEnum(COMPLETION_MODES), Type.Null()]),
    apiKeyHeader: Type.Optional(ApiKeyHeader),
    /** Headers sent with every call to the provider (e.g. an API version). */
    extraHeaders: Type.Optional(Type.Record(Type.String(), Type.String())),
    oauth: Type.Optional(OAuthSettings),
  },
  { additionalProperties: false },
);

export const CatalogFile = Type.Object(
  { version: Type.Literal(1), providers: Type.Array(CatalogEntry, { minItems: 1, maxItems: 1000 }) },
  { additionalProperties: false },
);

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
const ApiKey = Type.String({ minLength: 1, maxLength: 8192, description: 'write-only; stored encrypted' });
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

export type OAuthSettings = Static<typeof OAuthSettings>;
export type CatalogEntry = Static<typeof CatalogEntry>;
export type CatalogFile = Static<typeof CatalogFile>;
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
