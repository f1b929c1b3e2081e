import type { GatewayModule } from '../../../core/app.js';
import { areaAccess } from '../../../core/auth/area-access.js';
import { DataOf, PageOf, Success } from '../../../core/http-schemas.js';
import type { DeployTokenService } from '../deploy-tokens.js';
import {
  DeployToken,
  DeployTokenListQuery,
  DeployTokenParams,
  IssuedDeployToken,
  NewDeployToken,
  ProjectParams,
} from '../schemas.js';

const { view, manage } = areaAccess('pages');

const tags = ['pages'];

/** A project's deploy tokens under `/api/pages/:projectId/deploy-tokens` (`pages:view` / `pages:manage`). */
export const deployTokenRoutes: GatewayModule<{ tokens: DeployTokenService }> = async (app, { tokens }) => {
  app.get(
    '',
    {
      config: view,
      schema: {
        tags,
        summary: "List a project's deploy tokens (never their secrets), newest first",
        params: ProjectParams,
        querystring: DeployTokenListQuery,
        response: { 200: PageOf(DeployToken) },
      },
    },
    async (request) => tokens.list(request.params.projectId, request.query),
  );

  app.post(
    '',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Create a deploy token for CI: it may only upload deployments of this project; shown once',
        params: ProjectParams,
        body: NewDeployToken,
        response: { 201: DataOf(IssuedDeployToken) },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send({ data: await tokens.create(request.actor, request.params.projectId, request.body) }),
  );

  app.delete(
    '/:tokenId',
    {
      config: { ...manage, errors: [409] },
      schema: {
        tags,
        summary: 'Revoke a deploy token',
        params: DeployTokenParams,
        response: { 200: Success },
      },
    },
    async (request) => {
      await tokens.revoke(request.actor, request.params.projectId, request.params.tokenId);
      return { success: true };
    },
  );
};
