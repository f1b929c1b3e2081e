import type { GatewayModule } from '../../../core/app.js';
import { areaAccess } from '../../../core/auth/area-access.js';
import { DataOf, PageOf, Success } from '../../../core/http-schemas.js';
import { deployTokenCredential } from '../deploy-token-credential.js';
import type { DeployTokenService } from '../deploy-tokens.js';
import type { ProjectService } from '../projects.js';
import {
  DeployTarget,
  NewProject,
  Project,
  ProjectChanges,
  ProjectListQuery,
  ProjectParams,
  SlugParams,
} from '../schemas.js';

const { view, manage } = areaAccess('pages');

const tags = ['pages'];

/**
 * Static site projects under `/api/pages` (`pages:view` / `pages:manage`), and what a deploy token
 * may learn of its own project (`/deploy-token`, the one route here that accepts it).
 */
export const projectRoutes: GatewayModule<{ projects: ProjectService; tokens: DeployTokenService }> = async (
  app,
  { projects, tokens },
) => {
  app.get(
    '',
    {
      config: view,
      schema: {
        tags,
        summary: 'List pages projects',
        querystring: ProjectListQuery,
        response: { 200: PageOf(Project) },
      },
    },
    async (request) => projects.list(request.actor, request.query),
  );

  app.post(
    '',
    {
      config: { ...manage, errors: [409] },
      schema: {
        tags,
        summary: 'Create a pages project',
        body: NewProject,
        response: { 201: DataOf(Project) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await projects.create(request.actor, request.body) }),
  );

  app.get(
    '/by-slug/:slug',
    {
      config: view,
      schema: {
        tags,
        summary: 'Get a pages project by its slug',
        params: SlugParams,
        response: { 200: DataOf(Project) },
      },
    },
    async (request) => ({ data: await projects.getBySlug(request.actor, request.params.slug) }),
  );

  app.get(
    '/deploy-token',
    {
      config: { ...view, credential: deployTokenCredential(tokens, 'describe-itself'), errors: [422] },
      schema: {
        tags,
        operationId: 'describeDeployToken',
        summary: 'The calling deploy token and the project it deploys',
        description:
          'Only for a deploy token (igp_…): its record and its project (id, name, slug, site URL), so CI can ' +
          'name the project by slug. Any other caller with pages:view gets 422 `NOT_A_DEPLOY_TOKEN`.',
        response: { 200: DataOf(DeployTarget) },
      },
    },
    async (request) => ({ data: await tokens.describe(request.actor) }),
  );

  app.get(
    '/:projectId',
    {
      config: view,
      schema: {
        tags,
        summary: 'Get a pages project',
        params: ProjectParams,
        response: { 200: DataOf(Project) },
      },
    },
    async (request) => ({ data: await projects.get(request.params.projectId) }),
  );

  app.patch(
    '/:projectId',
    {
      config: { ...manage, errors: [409] },
      schema: {
        tags,
        summary: 'Rename a project, change its slug or its SPA fallback',
        params: ProjectParams,
        body: ProjectChanges,
        response: { 200: DataOf(Project) },
      },
    },
    async (request) => ({
      data: await projects.update(request.actor, request.params.projectId, request.body),
    }),
  );

  app.delete(
    '/:projectId',
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
      await projects.remove(request.actor, request.params.projectId);
      return { success: true };
    },
  );
};
