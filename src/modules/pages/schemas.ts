import { type Static, Type } from 'typebox';
import { HOSTNAME_PATTERN } from '../../core/hostnames.js';
import {
  Name,
  NamedObject,
  Nullable,
  NullableTimestamp,
  SearchText,
  Timestamp,
  Uuid,
} from '../../core/http-schemas.js';
import { PaginationQueryFields } from '../../core/pagination.js';
import { ARCHIVE_FORMATS, DEPLOYMENT_STATUSES, DOMAIN_STATUSES } from '../../db/schema/index.js';

/** The shapes of the pages area: route schemas, and through `Static` the services' types. */

export const SLUG_PATTERN = '^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$';

export const Slug = Type.String({
  minLength: 1,
  maxLength: 63,
  pattern: SLUG_PATTERN,
  description: 'lowercase letters, digits and hyphens, 1 to 63, starting and ending with a letter or digit',
});

/** A union of literals (not `StringEnum`): the published API document describes these lists so. */
const OneOf = <T extends string>(values: readonly T[]) =>
  Type.Unsafe<T>(Type.Union(values.map((value) => Type.Literal(value))));

export const Deployment = NamedObject('Deployment', {
  id: Uuid(),
  projectId: Uuid(),
  status: OneOf(DEPLOYMENT_STATUSES),
  fileCount: Type.Integer(),
  sizeBytes: Type.Integer({ description: 'total size of the files, extracted' }),
  pinned: Type.Boolean(),
  production: Type.Boolean(),
  archiveFormat: OneOf(ARCHIVE_FORMATS),
  archiveBytes: Type.Integer(),
  archiveSha256: Type.String(),
  createdBy: Type.Union([Type.String(), Type.Null()], { description: 'email of the uploader' }),
  deployTokenId: Type.Union([Uuid(), Type.Null()], { description: 'the deploy token that uploaded it' }),
  previewUrl: Type.String({
    description:
      'where this deployment is served, production or not (marked noindex); relative to the gateway unless a pages base domain is set',
  }),
  createdAt: Timestamp,
});

export const Project = NamedObject('Project', {
  id: Uuid(),
  name: Type.String(),
  slug: Type.String(),
  spaFallback: Type.Boolean(),
  productionDeploymentId: Type.Union([Uuid(), Type.Null()]),
  deploymentCount: Type.Integer(),
  lastDeployment: Type.Union([Deployment, Type.Null()]),
  url: Type.String({
    description:
      'where the production deployment is served: relative to the gateway, or on the pages base domain when one is set',
  }),
  createdAt: Timestamp,
  updatedAt: NullableTimestamp,
});

export const DeploymentFile = NamedObject('DeploymentFile', {
  path: Type.String(),
  sha256: Type.String(),
  sizeBytes: Type.Integer(),
  contentType: Type.String(),
});

export const ProjectParams = Type.Object({ projectId: Uuid() });
export const DeploymentParams = Type.Object({ projectId: Uuid(), deploymentId: Uuid() });
export const SlugParams = Type.Object({ slug: Slug });

export const ProjectListQuery = Type.Object({
  ...PaginationQueryFields,
  q: SearchText('the name or the slug'),
});

export const NewProject = Type.Object({
  name: Name,
  slug: Slug,
  spaFallback: Type.Optional(
    Type.Boolean({
      description: 'serve /index.html for paths that match no file (single-page apps)',
    }),
  ),
});

export const ProjectChanges = Type.Object({
  name: Type.Optional(Name),
  slug: Type.Optional(Slug),
  spaFallback: Type.Optional(Type.Boolean()),
});

export const DeploymentListQuery = Type.Object({
  ...PaginationQueryFields,
  pinned: Type.Optional(Type.Boolean()),
});

export const FileListQuery = Type.Object({ ...PaginationQueryFields });

export const DeploymentUploadQuery = Type.Object({
  promote: Type.Optional(
    Type.Boolean({ default: true, description: 'make it the production deployment at once' }),
  ),
  stripComponents: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 32,
      default: 0,
      description: 'leading path segments dropped from every entry, like tar --strip-components',
    }),
  ),
});

export const PinChange = Type.Object({ pinned: Type.Boolean() });

/** `/sites/<slug>/<path>`: any slug is looked up (an unknown one is a 404, not a validation error). */
export const SiteFileParams = Type.Object({ slug: Type.String(), '*': Type.String() });

export const Hostname = Type.String({
  minLength: 1,
  maxLength: 253,
  pattern: HOSTNAME_PATTERN,
  description:
    'a DNS name in lowercase, at least two labels (docs.example.com); no wildcards, no IP addresses',
});

export const Domain = NamedObject('PagesDomain', {
  id: Uuid(),
  projectId: Uuid(),
  hostname: Type.String(),
  status: OneOf(DOMAIN_STATUSES),
  lastError: Nullable(Type.String()),
  lastCheckedAt: NullableTimestamp,
  verifiedAt: NullableTimestamp,
  certificateId: Nullable(Uuid('the stored certificate that serves this name over HTTPS')),
  certificateOrdered: Type.Boolean({
    description:
      'the gateway ordered certificateId for this domain: it is deleted when the domain no longer uses it',
  }),
  url: Type.String({ description: 'where the site answers once the domain is verified' }),
  verification: Type.Object(
    {
      dnsName: Type.String({ description: 'create a TXT record at this name…' }),
      dnsValue: Type.String({ description: '…with this value' }),
      httpUrl: Type.String({ description: 'or answer a GET of this URL (the gateway does so itself)…' }),
      httpBody: Type.String({ description: '…with exactly this body' }),
    },
    { description: 'how to prove ownership; either proof is enough' },
  ),
  createdAt: Timestamp,
  updatedAt: NullableTimestamp,
});

export const DomainParams = Type.Object({ projectId: Uuid(), domainId: Uuid() });

export const DomainListQuery = Type.Object({ ...PaginationQueryFields });

export const NewDomain = Type.Object({
  hostname: Hostname,
  certificateId: Type.Optional(Nullable(Uuid('an uploaded certificate that covers the host name'))),
});

export const DomainChanges = Type.Object({
  certificateId: Nullable(Uuid('an uploaded certificate that covers the host name, or null for none')),
});

export const DomainCheck = Type.Object({
  method: Type.Optional(
    Type.Union([Type.Literal('dns'), Type.Literal('http')], {
      description: 'try only this proof; by default the TXT record, then the HTTP token',
    }),
  ),
});

export const DeployToken = NamedObject('DeployToken', {
  id: Uuid(),
  projectId: Uuid(),
  name: Type.String(),
  createdBy: Nullable(Type.String({ description: 'email of the user the token acts for' })),
  createdAt: Timestamp,
  lastUsedAt: NullableTimestamp,
  expiresAt: NullableTimestamp,
  revokedAt: NullableTimestamp,
});

export const IssuedDeployToken = NamedObject('IssuedDeployToken', {
  ...DeployToken.properties,
  token: Type.String({ description: 'the secret (igp_…), shown only in this answer' }),
});

export const NewDeployToken = Type.Object({
  name: Name,
  expiresAt: Type.Optional(
    Nullable(
      Type.String({ format: 'date-time', description: 'a moment in the future; unset or null: never' }),
    ),
  ),
});

export const DeployTokenParams = Type.Object({ projectId: Uuid(), tokenId: Uuid() });

export const DeployTokenListQuery = Type.Object({
  ...PaginationQueryFields,
  revoked: Type.Optional(Type.Boolean({ description: 'only revoked (true) or only live (false) tokens' })),
});

/** `/.well-known/infragate-domain/<token>`: any string is looked up (an unknown one is a 404). */
export const DomainTokenParams = Type.Object({ token: Type.String({ maxLength: 128 }) });

export type Deployment = Static<typeof Deployment>;
export type Project = Static<typeof Project>;
export type DeploymentFile = Static<typeof DeploymentFile>;
export type ProjectListQuery = Static<typeof ProjectListQuery>;
export type NewProject = Static<typeof NewProject>;
export type ProjectChanges = Static<typeof ProjectChanges>;
export type DeploymentListQuery = Static<typeof DeploymentListQuery>;
export type FileListQuery = Static<typeof FileListQuery>;
export type DeploymentUploadQuery = Static<typeof DeploymentUploadQuery>;
export type Domain = Static<typeof Domain>;
export type NewDomain = Static<typeof NewDomain>;
export type DomainChanges = Static<typeof DomainChanges>;
export type DomainCheck = Static<typeof DomainCheck>;
export type DeployToken = Static<typeof DeployToken>;
export type IssuedDeployToken = Static<typeof IssuedDeployToken>;
export type NewDeployToken = Static<typeof NewDeployToken>;
export type DeployTokenListQuery = Static<typeof DeployTokenListQuery>;
