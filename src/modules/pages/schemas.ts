import { type Static, Type } from 'typebox';
import { Name, NullableTimestamp, SearchText, Timestamp, Uuid } from '../../core/http-schemas.js';
import { PaginationQueryFields } from '../../core/pagination.js';
import { ARCHIVE_FORMATS, DEPLOYMENT_STATUSES } from '../../db/schema/index.js';

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

export const Deployment = Type.Object({
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
  createdAt: Timestamp,
});

export const Project = Type.Object({
  id: Uuid(),
  name: Type.String(),
  slug: Type.String(),
  spaFallback: Type.Boolean(),
  productionDeploymentId: Type.Union([Uuid(), Type.Null()]),
  deploymentCount: Type.Integer(),
  lastDeployment: Type.Union([Deployment, Type.Null()]),
  url: Type.String({ description: 'where the production deployment is served, relative to the gateway' }),
  createdAt: Timestamp,
  updatedAt: NullableTimestamp,
});

export const DeploymentFile = Type.Object({
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

export type Deployment = Static<typeof Deployment>;
export type Project = Static<typeof Project>;
export type DeploymentFile = Static<typeof DeploymentFile>;
export type ProjectListQuery = Static<typeof ProjectListQuery>;
export type NewProject = Static<typeof NewProject>;
export type ProjectChanges = Static<typeof ProjectChanges>;
export type DeploymentListQuery = Static<typeof DeploymentListQuery>;
export type FileListQuery = Static<typeof FileListQuery>;
export type DeploymentUploadQuery = Static<typeof DeploymentUploadQuery>;
