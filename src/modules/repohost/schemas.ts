import { type Static, Type } from 'typebox';
import {
  Name,
  NamedObject,
  Nullable,
  SearchText,
  Timestamp,
  Uuid,
  WriteOnly,
} from '../../core/http-schemas.js';
import { PaginationQueryFields } from '../../core/pagination.js';
import { AllowlistEntry, AllowlistEntryType, RemoteUser, TestFailure } from '../../db/schema/index.js';

/**
 * The shapes of the repository host area: route schemas, and through `Static` the service's types. The
 * stored shapes (allowlist entries, remote user, test failure) are declared beside their table.
 */

/** The capability names the clients of this API expect, in this order. */
export const CAPABILITIES = [
  'apiReachable',
  'tokenSelf',
  'projectsView',
  'groupsView',
  'repoRead',
  'repoWrite',
  'ciView',
  'pipelineRead',
  'registryView',
  'webhooksManage',
] as const;

export const Capabilities = Type.Object(
  Object.fromEntries(CAPABILITIES.map((name) => [name, Type.Boolean()])) as Record<
    (typeof CAPABILITIES)[number],
    ReturnType<typeof Type.Boolean>
  >,
  { title: 'ConnectorCapabilities' },
);

const PreviewFields = {
  capabilities: Capabilities,
  allowlistEntries: Type.Array(AllowlistEntry),
  user: Nullable(RemoteUser),
  tokenExpiresAt: Nullable(Type.String({ description: 'YYYY-MM-DD as the host reports it' })),
  /** The token's scopes as the host reports them; null when it does not say. */
  tokenScopes: Nullable(Type.Array(Type.String())),
  /** The project the read-only probes ran against; null when the token sees none. */
  probedProject: Nullable(
    Type.Object({ remoteId: Type.String(), fullPath: Type.String(), accessLevel: Nullable(Type.Integer()) }),
  ),
  truncated: Type.Boolean({ description: 'More groups or projects exist than the listing cap allowed' }),
};

/** What a token can do and see on the host. */
export const PreviewResult = Type.Object(PreviewFields, { title: 'ConnectorPreview' });

/** A saved connector's re-test: a failure is a report, not an error. */
export const TestReport = NamedObject('ConnectorTestReport', {
  ok: Type.Boolean(),
  testedAt: Timestamp,
  error: Nullable(TestFailure),
  ...PreviewFields,
});

export const Connector = NamedObject('Connector', {
  id: Uuid(),
  name: Type.String(),
  baseUrl: Type.String(),
  hasToken: Type.Boolean({
    description:
      'false once a new baseUrl dropped the token (it is write-only): send one to use the connector',
  }),
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
const Token = WriteOnly(
  Type.String({
    minLength: 1,
    maxLength: 1024,
    pattern: '^[\\x21-\\x7E]+$',
    description: 'Personal access token (printable ASCII, no spaces); write-only',
  }),
);

/** A group or project the connector may use, as the caller names it (checked against the host). */
export const AllowlistRequest = NamedObject('AllowlistEntryRequest', {
  entryType: AllowlistEntryType,
  remoteId: Type.String({ pattern: '^[0-9]+$', maxLength: 20 }),
  fullPath: Type.String({ minLength: 1, maxLength: 1024 }),
});
const Allowlist = Type.Array(AllowlistRequest, { maxItems: 200 });

export const PreviewRequest = Type.Object({ baseUrl: BaseUrl, token: Token });

export const ConnectorListQuery = Type.Object({ ...PaginationQueryFields, q: SearchText() });

export const NewConnector = Type.Object({
  name: Name,
  baseUrl: BaseUrl,
  token: Token,
  allowlist: Type.Optional(Allowlist),
});

export const ConnectorChanges = Type.Object({
  name: Type.Optional(Name),
  baseUrl: Type.Optional(BaseUrl),
  token: Type.Optional(Token),
  allowlist: Type.Optional(Allowlist),
});

export type Capabilities = Static<typeof Capabilities>;
export type PreviewResult = Static<typeof PreviewResult>;
export type TestReport = Static<typeof TestReport>;
export type Connector = Static<typeof Connector>;
export type AllowlistRequest = Static<typeof AllowlistRequest>;
export type PreviewRequest = Static<typeof PreviewRequest>;
export type ConnectorListQuery = Static<typeof ConnectorListQuery>;
export type NewConnector = Static<typeof NewConnector>;
export type ConnectorChanges = Static<typeof ConnectorChanges>;
