import { Type } from 'typebox';
import type { GatewayModule } from '../../core/app.js';
import {
  DataOf,
  IdParams,
  Name,
  NullableTimestamp,
  PageOf,
  SearchText,
  StringEnum,
  Success,
  Timestamp,
  Uuid,
} from '../../core/http-schemas.js';
import { PaginationQueryFields } from '../../core/pagination.js';
import { OAUTH_SESSION_STATUSES } from '../../db/schema/index.js';
import {
  AUTH_TYPES,
  COMPLETION_MODES,
  FAMILIES,
  loadCatalog,
  OAUTH_FLOWS,
  OPERATIONS,
  QUOTA_KINDS,
  WIRE_PROTOCOLS,
} from './catalog.js';
import { InferenceService, MAINTENANCE_JOB } from './service.js';

const NullableEnum = <T extends readonly string[]>(values: T) =>
  Type.Unsafe<T[number] | null>({ type: ['string', 'null'], enum: [...values, null] });
const NullableString = Type.Union([Type.String(), Type.Null()]);
const NullableInteger = Type.Union([Type.Integer(), Type.Null()]);

/** Endpoint 12: the contract's catalog entry fields, nothing more. */
const CatalogEntry = Type.Object({
  id: Type.String(),
  label: Type.String(),
  family: StringEnum(FAMILIES),
  wireProtocol: StringEnum(WIRE_PROTOCOLS),
  baseUrl: Type.String(),
  authTypes: Type.Array(StringEnum(AUTH_TYPES)),
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

const SessionStatus = StringEnum(OAUTH_SESSION_STATUSES);

/** The provider OAuth session record of the contract. */
const Session = Type.Object({
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

const Connection = Type.Object({
  id: Uuid(),
  providerId: Type.String(),
  providerLabel: NullableString,
  name: Type.String(),
  authType: StringEnum(AUTH_TYPES),
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

const TestResult = Type.Object({
  ok: Type.Boolean(),
  url: Type.String(),
  httpStatus: NullableInteger,
  responseMs: NullableInteger,
  modelCount: Type.Integer(),
  models: Type.Array(Type.Object({ id: Type.String(), name: NullableString })),
  error: NullableString,
  testedAt: Timestamp,
});

const ProviderId = Type.String({ minLength: 1, maxLength: 100 });
const ApiKey = Type.String({ minLength: 1, maxLength: 8192, description: 'write-only; stored encrypted' });
const BaseUrl = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: 'only where the catalog entry allows it',
});
/** Session ids are uuids; the contract types the path parameter as a non-empty string (anything else is 404). */
const SessionParams = Type.Object({ id: Type.String({ minLength: 1 }) });

const view = { scope: 'inference:view' };
const manage = { scope: 'inference:manage' };
const tags = ['inference'];

/** Inference providers: catalog, connections and OAuth sign-in sessions. */
const inferenceRoutes: GatewayModule = async (app) => {
  const inference = new InferenceService(app.deps, loadCatalog(app.deps.config.inferenceCatalogPath));
  app.deps.jobs.register({ name: MAINTENANCE_JOB, intervalMs: 60_000, run: () => inference.maintenance() });

  app.get(
    '/api/inference/providers/catalog',
    {
      config: view,
      schema: { tags, summary: 'List the provider catalog', response: { 200: Type.Array(CatalogEntry) } },
    },
    async () => inference.catalog(),
  );

  app.get(
    '/api/inference/connections',
    {
      config: view,
      schema: {
        tags,
        summary: 'List connections',
        querystring: Type.Object({
          ...PaginationQueryFields,
          providerId: Type.Optional(ProviderId),
          authType: Type.Optional(StringEnum(AUTH_TYPES)),
          q: SearchText(),
        }),
        response: { 200: PageOf(Connection) },
      },
    },
    async (request) => inference.listConnections(request.query),
  );

  app.post(
    '/api/inference/connections',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Create an API-key or local connection (OAuth connections come from a session)',
        body: Type.Object({
          providerId: ProviderId,
          name: Name,
          authType: StringEnum(AUTH_TYPES),
          apiKey: Type.Optional(ApiKey),
          baseUrl: Type.Optional(BaseUrl),
        }),
        response: { 201: DataOf(Connection) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await inference.createConnection(request.actor, request.body) }),
  );

  app.get(
    '/api/inference/connections/:id',
    {
      config: view,
      schema: { tags, summary: 'Get a connection', params: IdParams, response: { 200: DataOf(Connection) } },
    },
    async (request) => ({ data: await inference.getConnection(request.params.id) }),
  );

  app.patch(
    '/api/inference/connections/:id',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Rename a connection, replace its API key or its base URL',
        params: IdParams,
        body: Type.Object({
          name: Type.Optional(Name),
          apiKey: Type.Optional(Type.Union([ApiKey, Type.Null()])),
          baseUrl: Type.Optional(Type.Union([BaseUrl, Type.Null()])),
        }),
        response: { 200: DataOf(Connection) },
      },
    },
    async (request) => ({
      data: await inference.updateConnection(request.actor, request.params.id, request.body),
    }),
  );

  app.delete(
    '/api/inference/connections/:id',
    {
      config: manage,
      schema: { tags, summary: 'Delete a connection', params: IdParams, response: { 200: Success } },
    },
    async (request) => {
      await inference.deleteConnection(request.actor, request.params.id);
      return { success: true };
    },
  );

  app.post(
    '/api/inference/connections/:id/test',
    {
      config: manage,
      schema: {
        tags,
        summary: "List the provider's models with this connection's credentials",
        params: IdParams,
        response: { 200: DataOf(TestResult) },
      },
    },
    async (request) => ({ data: await inference.testConnection(request.actor, request.params.id) }),
  );

  app.post(
    '/api/inference/connections/:id/refresh',
    {
      config: manage,
      schema: {
        tags,
        summary: "Renew an OAuth connection's access token now",
        params: IdParams,
        response: { 200: DataOf(Connection) },
      },
    },
    async (request) => ({ data: await inference.refreshNow(request.actor, request.params.id) }),
  );

  app.get(
    '/api/inference/providers/oauth',
    {
      config: view,
      schema: {
        tags,
        summary: 'List OAuth sessions, newest first',
        querystring: Type.Object({
          ...PaginationQueryFields,
          providerId: Type.Optional(ProviderId),
          status: Type.Optional(SessionStatus),
        }),
        response: { 200: PageOf(Session) },
      },
    },
    async (request) => inference.listSessions(request.actor, request.query),
  );

  app.post(
    '/api/inference/providers/oauth/start',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Start an OAuth sign-in (redirect + PKCE, or device flow)',
        body: Type.Object({
          providerId: ProviderId,
          name: Type.Optional({ ...Name, description: 'name of the connection the session creates' }),
        }),
        response: { 201: Session },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await inference.startSession(request.actor, request.body)),
  );

  app.get(
    '/api/inference/providers/oauth/:id',
    {
      config: view,
      schema: { tags, summary: 'Get an OAuth session', params: SessionParams, response: { 200: Session } },
    },
    async (request) => inference.getSession(request.actor, request.params.id),
  );

  app.post(
    '/api/inference/providers/oauth/:id/complete',
    {
      config: manage,
      // The body is optional: a device session is polled with none at all.
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: {
        tags,
        summary: 'Complete a session with its pasted callback, or poll a device session once',
        params: SessionParams,
        body: Type.Object({
          callback: Type.Optional(
            Type.String({ maxLength: 8192, description: 'full callback URL or code#state' }),
          ),
        }),
        response: { 200: Session },
      },
    },
    async (request) => inference.completeSession(request.actor, request.params.id, request.body.callback),
  );

  app.post(
    '/api/inference/providers/oauth/:id/cancel',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Cancel a pending session',
        params: SessionParams,
        response: { 200: Session },
      },
    },
    async (request) => inference.cancelSession(request.actor, request.params.id),
  );
};

export default inferenceRoutes;
