import path from 'node:path';
import { Readable } from 'node:stream';
import { Type } from 'typebox';
import { systemActor } from '../../core/actor.js';
import type { GatewayModule } from '../../core/app.js';
import { notFound, validationError } from '../../core/errors.js';
import {
  DataOf,
  Name,
  NullableTimestamp,
  PageOf,
  SearchText,
  Success,
  Timestamp,
  Uuid,
} from '../../core/http-schemas.js';
import { PaginationQueryFields } from '../../core/pagination.js';
import { BlobStore } from './blob-store.js';
import { PagesService, SLUG_PATTERN } from './service.js';
import { SiteServer } from './site-server.js';

/** Content types a deployment archive may be sent with (the format is detected from the bytes). */
const ARCHIVE_CONTENT_TYPES = [
  'application/gzip',
  'application/x-gzip',
  'application/x-tar',
  'application/zip',
  'application/octet-stream',
];

const MAINTENANCE_INTERVAL_MS = 60 * 60 * 1000;

const Slug = Type.String({
  minLength: 1,
  maxLength: 63,
  pattern: SLUG_PATTERN,
  description: 'lowercase letters, digits and hyphens, 1 to 63, starting and ending with a letter or digit',
});

const Deployment = Type.Object({
  id: Uuid(),
  projectId: Uuid(),
  status: Type.Union([Type.Literal('ready')]),
  fileCount: Type.Integer(),
  sizeBytes: Type.Integer({ description: 'total size of the files, extracted' }),
  pinned: Type.Boolean(),
  production: Type.Boolean(),
  archiveFormat: Type.Union([Type.Literal('tar.gz'), Type.Literal('tar'), Type.Literal('zip')]),
  archiveBytes: Type.Integer(),
  archiveSha256: Type.String(),
  createdBy: Type.Union([Type.String(), Type.Null()], { description: 'email of the uploader' }),
  createdAt: Timestamp,
});

const Project = Type.Object({
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

const DeploymentFile = Type.Object({
  path: Type.String(),
  sha256: Type.String(),
  sizeBytes: Type.Integer(),
  contentType: Type.String(),
});

const ProjectParams = Type.Object({ projectId: Uuid() });
const DeploymentParams = Type.Object({ projectId: Uuid(), deploymentId: Uuid() });

const view = { scope: 'pages:view' };
const manage = { scope: 'pages:manage' };
const tags = ['pages'];

/** Static site projects and deployments (`pages:view` / `pages:manage`), and public serving under /sites/. */
const pagesRoutes: GatewayModule = async (app) => {
  const { config, db, audit, jobs } = app.deps;
  const blobs = new BlobStore(path.join(config.dataDir, 'pages'));
  await blobs.ensureDirs();
  const sites = new SiteServer(db, blobs);
  const pages = new PagesService(db, audit, blobs, config.pages, sites);
  jobs.register({
    name: 'pages.maintenance',
    intervalMs: MAINTENANCE_INTERVAL_MS,
    run: async () => {
      await pages.maintain(systemActor());
    },
  });

  // Archives arrive as raw bodies and are streamed to disk by the service (these parsers exist only
  // inside this plugin, so no other route accepts them).
  app.addContentTypeParser(ARCHIVE_CONTENT_TYPES, (_request, payload, done) => done(null, payload));

  app.get(
    '/api/pages',
    {
      config: view,
      schema: {
        tags,
        summary: 'List pages projects',
        querystring: Type.Object({
          ...PaginationQueryFields,
          q: SearchText('the name or the slug'),
        }),
        response: { 200: PageOf(Project) },
      },
    },
    async (request) => pages.listProjects(request.query),
  );

  app.post(
    '/api/pages',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Create a pages project',
        body: Type.Object({
          name: Name,
          slug: Slug,
          spaFallback: Type.Optional(
            Type.Boolean({
              description: 'serve /index.html for paths that match no file (single-page apps)',
            }),
          ),
        }),
        response: { 201: DataOf(Project) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await pages.createProject(request.actor, request.body) }),
  );

  app.get(
    '/api/pages/by-slug/:slug',
    {
      config: view,
      schema: {
        tags,
        summary: 'Get a pages project by its slug',
        params: Type.Object({ slug: Slug }),
        response: { 200: DataOf(Project) },
      },
    },
    async (request) => ({ data: await pages.getProjectBySlug(request.params.slug) }),
  );

  app.get(
    '/api/pages/:projectId',
    {
      config: view,
      schema: {
        tags,
        summary: 'Get a pages project',
        params: ProjectParams,
        response: { 200: DataOf(Project) },
      },
    },
    async (request) => ({ data: await pages.getProject(request.params.projectId) }),
  );

  app.patch(
    '/api/pages/:projectId',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Rename a project, change its slug or its SPA fallback',
        params: ProjectParams,
        body: Type.Object({
          name: Type.Optional(Name),
          slug: Type.Optional(Slug),
          spaFallback: Type.Optional(Type.Boolean()),
        }),
        response: { 200: DataOf(Project) },
      },
    },
    async (request) => ({
      data: await pages.updateProject(request.actor, request.params.projectId, request.body),
    }),
  );

  app.delete(
    '/api/pages/:projectId',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Delete a project with all its deployments',
        params: ProjectParams,
        response: { 200: Success },
      },
    },
    async (request) => {
      await pages.deleteProject(request.actor, request.params.projectId);
      return { success: true };
    },
  );

  app.post(
    '/api/pages/:projectId/deployments',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Upload a deployment (.tar.gz, .tar or .zip as the raw request body)',
        description:
          'Send the archive as the body with Content-Type application/gzip, application/x-gzip, application/x-tar, ' +
          'application/zip or application/octet-stream. The format is detected from the bytes.',
        params: ProjectParams,
        querystring: Type.Object({
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
        }),
        response: { 201: DataOf(Deployment) },
      },
    },
    async (request, reply) => {
      const body = request.body as unknown;
      if (!(body instanceof Readable)) {
        throw validationError(
          [
            {
              path: [],
              message: `send the archive as the raw body with Content-Type ${ARCHIVE_CONTENT_TYPES.join(', ')}`,
            },
          ],
          body === undefined || body === null ? 400 : 415,
        );
      }
      const declared = Number(request.headers['content-length']);
      const deployment = await pages.createDeployment(request.actor, request.params.projectId, {
        body,
        contentLength: Number.isFinite(declared) ? declared : undefined,
        promote: request.query.promote,
        stripComponents: request.query.stripComponents,
      });
      return reply.status(201).send({ data: deployment });
    },
  );

  app.get(
    '/api/pages/:projectId/deployments',
    {
      config: view,
      schema: {
        tags,
        summary: "List a project's deployments, newest first",
        params: ProjectParams,
        querystring: Type.Object({ ...PaginationQueryFields, pinned: Type.Optional(Type.Boolean()) }),
        response: { 200: PageOf(Deployment) },
      },
    },
    async (request) => pages.listDeployments(request.params.projectId, request.query),
  );

  app.get(
    '/api/pages/:projectId/deployments/:deploymentId',
    {
      config: view,
      schema: {
        tags,
        summary: 'Get a deployment',
        params: DeploymentParams,
        response: { 200: DataOf(Deployment) },
      },
    },
    async (request) => ({
      data: await pages.getDeployment(request.params.projectId, request.params.deploymentId),
    }),
  );

  app.get(
    '/api/pages/:projectId/deployments/:deploymentId/files',
    {
      config: view,
      schema: {
        tags,
        summary: 'List the files of a deployment',
        params: DeploymentParams,
        querystring: Type.Object({ ...PaginationQueryFields }),
        response: { 200: PageOf(DeploymentFile) },
      },
    },
    async (request) => pages.listFiles(request.params.projectId, request.params.deploymentId, request.query),
  );

  app.post(
    '/api/pages/:projectId/deployments/:deploymentId/promote',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Make a deployment production (promoting an older one is a rollback)',
        params: DeploymentParams,
        response: { 200: DataOf(Deployment) },
      },
    },
    async (request) => ({
      data: await pages.promote(request.actor, request.params.projectId, request.params.deploymentId),
    }),
  );

  app.patch(
    '/api/pages/:projectId/deployments/:deploymentId/pin',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Pin or unpin a deployment (pinned deployments are never removed by retention)',
        params: DeploymentParams,
        body: Type.Object({ pinned: Type.Boolean() }),
        response: { 200: DataOf(Deployment) },
      },
    },
    async (request) => ({
      data: await pages.setPinned(
        request.actor,
        request.params.projectId,
        request.params.deploymentId,
        request.body.pinned,
      ),
    }),
  );

  app.delete(
    '/api/pages/:projectId/deployments/:deploymentId',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Delete a deployment (refused for the production deployment and pinned ones)',
        params: DeploymentParams,
        response: { 200: Success },
      },
    },
    async (request) => {
      await pages.deleteDeployment(request.actor, request.params.projectId, request.params.deploymentId);
      return { success: true };
    },
  );

  // ── public serving ──────────────────────────────────────────────────────────────────────────

  const sandboxPolicy = config.pages.sandbox
    ? 'sandbox allow-scripts allow-forms allow-popups allow-modals allow-downloads'
    : undefined;

  app.get(
    '/sites/:slug',
    {
      config: { public: true },
      schema: { tags, summary: 'A site root (redirects to the trailing slash)', hide: true },
    },
    async (request, reply) => {
      const [pathname, query = ''] = request.url.split('?', 2) as [string, string?];
      if (pathname.endsWith('/')) return serveSite(request, reply, '');
      return reply.redirect(`${pathname}/${query ? `?${query}` : ''}`, 301);
    },
  );

  app.get(
    '/sites/:slug/*',
    {
      config: { public: true },
      schema: {
        tags,
        summary: "Serve a file of a project's production deployment (no authentication)",
        params: Type.Object({ slug: Type.String(), '*': Type.String() }),
      },
    },
    async (request, reply) => serveSite(request, reply, (request.params as { '*': string })['*']),
  );

  async function serveSite(
    request: import('fastify').FastifyRequest,
    reply: import('fastify').FastifyReply,
    filePath: string,
  ) {
    const { slug } = request.params as { slug: string };
    const [pathname, query] = request.url.split('?', 2) as [string, string?];
    // The router ignores trailing slashes, so whether a directory was asked for is read from the URL.
    const directory = pathname.endsWith('/') && !filePath.endsWith('/');
    const answer = await sites.serve({
      slug,
      path: directory ? `${filePath}/` : filePath,
      requestPath: pathname.replace(/\/+$/, ''),
      query: query ? `?${query}` : '',
      ifNoneMatch: request.headers['if-none-match'],
      head: request.method === 'HEAD',
    });
    if (answer.kind === 'missing') throw notFound({ reason: answer.reason, slug });
    if (answer.kind === 'redirect') return reply.redirect(answer.location, 301);
    const { file } = answer;
    reply.header('etag', `"${file.sha256}"`);
    reply.header('cache-control', 'public, max-age=0, must-revalidate');
    reply.header('x-content-type-options', 'nosniff');
    if (sandboxPolicy) reply.header('content-security-policy', sandboxPolicy);
    if (answer.notModified) return reply.status(304).send();
    reply.status(answer.status);
    reply.type(file.contentType);
    reply.header('content-length', file.sizeBytes);
    if (answer.body === undefined) return reply.send();
    return reply.send(answer.body);
  }
};

export default pagesRoutes;
