import { Type } from 'typebox';
import type { GatewayModule } from '../../core/app.js';
import {
  DataOf,
  IdParams,
  Name,
  Nullable,
  PageOf,
  SearchText,
  Success,
  Timestamp,
  Uuid,
} from '../../core/http-schemas.js';
import { PaginationQueryFields } from '../../core/pagination.js';
import { CAPABILITIES, RepohostService } from './service.js';

const Capabilities = Type.Object(
  Object.fromEntries(CAPABILITIES.map((name) => [name, Type.Boolean()])) as Record<
    (typeof CAPABILITIES)[number],
    ReturnType<typeof Type.Boolean>
  >,
);

const AllowlistEntry = Type.Object({
  entryType: Type.Union([Type.Literal('group'), Type.Literal('project')]),
  remoteId: Type.String(),
  fullPath: Type.String(),
  name: Nullable(Type.String()),
  webUrl: Nullable(Type.String()),
});

const RemoteUser = Type.Object({
  id: Type.String(),
  username: Type.String(),
  name: Type.String(),
  webUrl: Nullable(Type.String()),
});

const TestFailure = Type.Object({ reason: Type.String(), explanation: Type.String() });

const PreviewFields = {
  capabilities: Capabilities,
  allowlistEntries: Type.Array(AllowlistEntry),
  user: Nullable(RemoteUser),
  tokenExpiresAt: Nullable(Type.String({ description: 'YYYY-MM-DD as the host reports it' })),
  tokenScopes: Nullable(Type.Array(Type.String())),
  probedProject: Nullable(
    Type.Object({ remoteId: Type.String(), fullPath: Type.String(), accessLevel: Nullable(Type.Integer()) }),
  ),
  truncated: Type.Boolean({ description: 'More groups or projects exist than the listing cap allowed' }),
};

const TestReport = Type.Object({
  ok: Type.Boolean(),
  testedAt: Timestamp,
  error: Nullable(TestFailure),
  ...PreviewFields,
});

const Connector = Type.Object({
  id: Uuid(),
  name: Type.String(),
  baseUrl: Type.String(),
  allowlist: Type.Array(AllowlistEntry),
  capabilities: Type.Record(Type.String(), Type.Boolean()),
  tokenScopes: Nullable(Type.Array(Type.String())),
  tokenExpiresAt: Nullable(Type.String()),
  remoteUser: Nullable(RemoteUser),
  lastTestedAt: Timestamp,
  lastTestOk: Type.Boolean(),
  lastTestError: Nullable(TestFailure),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

const BaseUrl = Type.String({
  format: 'uri',
  maxLength: 2048,
  description: 'GitLab root, e.g. https://gitlab.example.com',
});
const Token = Type.String({
  minLength: 1,
  maxLength: 1024,
  pattern: '^[\\x21-\\x7E]+$',
  description: 'Personal access token (printable ASCII, no spaces); write-only',
});
const AllowlistRequest = Type.Array(
  Type.Object({
    entryType: Type.Union([Type.Literal('group'), Type.Literal('project')]),
    remoteId: Type.String({ pattern: '^[0-9]+$', maxLength: 20 }),
    fullPath: Type.String({ minLength: 1, maxLength: 1024 }),
  }),
  { maxItems: 200 },
);

const view = { scope: 'integrations:view' };
const manage = { scope: 'integrations:manage' };
const tags = ['integrations'];
const BASE = '/api/integrations/repohost/connectors';

/** Repository host (GitLab API v4) connectors (`integrations:view` / `integrations:manage`). */
const repohostRoutes: GatewayModule = async (app) => {
  const { config } = app.deps;
  const service = new RepohostService(app.deps.db, app.deps.audit, app.deps.secrets, app.deps.egress, {
    timeoutMs: config.repohostTimeoutMs,
    maxItems: config.repohostPreviewMaxItems,
  });

  app.post(
    `${BASE}/preview-test`,
    {
      config: manage,
      schema: {
        tags,
        summary: 'Test a URL and token once and preview what the token can see (nothing is stored)',
        body: Type.Object({ baseUrl: BaseUrl, token: Token }),
        response: { 200: DataOf(Type.Object(PreviewFields)) },
      },
    },
    async (request) => ({ data: await service.preview(request.body) }),
  );

  app.get(
    BASE,
    {
      config: view,
      schema: {
        tags,
        summary: 'List connectors',
        querystring: Type.Object({
          ...PaginationQueryFields,
          q: SearchText(),
        }),
        response: { 200: PageOf(Connector) },
      },
    },
    async (request) => service.list(request.query),
  );

  app.post(
    BASE,
    {
      config: manage,
      schema: {
        tags,
        summary: 'Create a connector (tested first; a failing test refuses it)',
        body: Type.Object({
          name: Name,
          baseUrl: BaseUrl,
          token: Token,
          allowlist: Type.Optional(AllowlistRequest),
        }),
        response: { 201: DataOf(Connector) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await service.create(request.actor, request.body) }),
  );

  app.get(
    `${BASE}/:id`,
    {
      config: view,
      schema: { tags, summary: 'Get a connector', params: IdParams, response: { 200: DataOf(Connector) } },
    },
    async (request) => ({ data: await service.get(request.params.id) }),
  );

  app.patch(
    `${BASE}/:id`,
    {
      config: manage,
      schema: {
        tags,
        summary: 'Change a connector (a new URL, token or allowlist is tested first)',
        params: IdParams,
        body: Type.Object({
          name: Type.Optional(Name),
          baseUrl: Type.Optional(BaseUrl),
          token: Type.Optional(Token),
          allowlist: Type.Optional(AllowlistRequest),
        }),
        response: { 200: DataOf(Connector) },
      },
    },
    async (request) => ({ data: await service.update(request.actor, request.params.id, request.body) }),
  );

  app.delete(
    `${BASE}/:id`,
    {
      config: manage,
      schema: {
        tags,
        summary: 'Delete a connector and its token',
        params: IdParams,
        response: { 200: Success },
      },
    },
    async (request) => {
      await service.remove(request.actor, request.params.id);
      return { success: true };
    },
  );

  app.post(
    `${BASE}/:id/test`,
    {
      config: manage,
      schema: {
        tags,
        summary: 'Re-test a saved connector with its stored token and record the outcome',
        params: IdParams,
        response: { 200: DataOf(TestReport) },
      },
    },
    async (request) => ({ data: await service.test(request.actor, request.params.id) }),
  );
};

export default repohostRoutes;
