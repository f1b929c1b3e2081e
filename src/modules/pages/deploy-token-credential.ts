import type { FastifyRequest } from 'fastify';
import type { Actor } from '../../core/actor.js';
import type { RouteCredential } from '../../core/auth/route-credential.js';
import { forbidden } from '../../core/errors.js';
import { type DeployTokenService, deployScope, looksLikeDeployToken } from './deploy-tokens.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a route lets a deploy token do: upload to its project, or read a deployment it uploaded. */
export type DeployTokenUse = 'upload' | 'read-own-deployment';

/**
 * The deploy token as a route credential (`config.credential`), accepted only by the routes that
 * declare it. Checks run before the request is validated, so they read the raw parameters: anything
 * but the token's own project (or a deployment it did not upload) is 403, malformed ids included.
 */
export function deployTokenCredential(tokens: DeployTokenService, use: DeployTokenUse): RouteCredential {
  return {
    scheme: 'deployToken',
    recognises: looksLikeDeployToken,
    authenticate: (secret, request) => tokens.authenticate(secret, request),
    async authorize(actor: Actor, request: FastifyRequest) {
      const { projectId, deploymentId } = request.params as { projectId?: string; deploymentId?: string };
      if (!projectId || !actor.scopes.includes(deployScope(projectId)))
        throw forbidden({
          reason: 'DEPLOY_TOKEN_OTHER_PROJECT',
          explanation: 'a deploy token deploys only the project it was created for',
        });
      if (use === 'upload') return;
      const uploader =
        deploymentId && UUID.test(deploymentId) ? await tokens.uploaderOf(deploymentId) : undefined;
      if (uploader !== actor.tokenId)
        throw forbidden({
          reason: 'DEPLOY_TOKEN_OTHER_DEPLOYMENT',
          explanation: 'a deploy token reads only the deployments it uploaded',
        });
    },
  };
}
