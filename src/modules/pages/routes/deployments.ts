import { Readable } from 'node:stream';
import type { GatewayModule } from '../../../core/app.js';
import { areaAccess } from '../../../core/auth/area-access.js';
import { validationError } from '../../../core/errors.js';
import { DataOf, PageOf, Success } from '../../../core/http-schemas.js';
import { deployTokenCredential } from '../deploy-token-credential.js';
import type { DeployTokenService } from '../deploy-tokens.js';
import type { DeploymentService } from '../deployments.js';
import {
  Deployment,
  DeploymentFile,
  DeploymentListQuery,
  DeploymentParams,
  DeploymentUploadQuery,
  FileListQuery,
  PinChange,
  ProjectParams,
} from '../schemas.js';

const { view, manage } = areaAccess('pages');

/** Content types a deployment archive may be sent with (the format is detected from the bytes). */
const ARCHIVE_CONTENT_TYPES = [
  'application/gzip',
  'application/x-gzip',
  'application/x-tar',
  'application/zip',
  'application/octet-stream',
];

const tags = ['pages'];

/**
 * A project's deployments under `/api/pages/:projectId/deployments` (`pages:view` / `pages:manage`).
 * The upload also accepts the project's deploy token, and reading one deployment accepts the deploy
 * token that uploaded it (so CI can wait for it); no other route does.
 */
export const deploymentRoutes: GatewayModule<{
  deployments: DeploymentService;
  tokens: DeployTokenService;
}> = async (app, { deployments, tokens }) => {
  // Archives arrive as raw bodies and are streamed to disk by the service (these parsers exist only
  // inside this plugin, so no other route accepts them).
  app.addContentTypeParser(ARCHIVE_CONTENT_TYPES, (_request, payload, done) => done(null, payload));

  app.post(
    '',
    {
      config: { ...manage, credential: deployTokenCredential(tokens, 'upload'), errors: [413, 415, 422] },
      schema: {
        tags,
        summary: 'Upload a deployment (.tar.gz, .tar or .zip as the raw request body)',
        description:
          'Send the archive as the body with Content-Type application/gzip, application/x-gzip, application/x-tar, ' +
          'application/zip or application/octet-stream. The format is detected from the bytes. ' +
          'A deploy token of this project (igp_…) may upload too.',
        params: ProjectParams,
        querystring: DeploymentUploadQuery,
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
      const deployment = await deployments.create(request.actor, request.params.projectId, {
        ...request.query,
        body,
        contentLength: Number.isFinite(declared) ? declared : undefined,
        deployTokenId: request.actor.tokenKind === 'deploy' ? request.actor.tokenId : null,
      });
      return reply.status(201).send({ data: deployment });
    },
  );

  app.get(
    '',
    {
      config: view,
      schema: {
        tags,
        summary: "List a project's deployments, newest first",
        params: ProjectParams,
        querystring: DeploymentListQuery,
        response: { 200: PageOf(Deployment) },
      },
    },
    async (request) => deployments.list(request.params.projectId, request.query),
  );

  app.get(
    '/:deploymentId',
    {
      config: { ...view, credential: deployTokenCredential(tokens, 'read-own-deployment') },
      schema: {
        tags,
        summary: 'Get a deployment (also with the deploy token that uploaded it)',
        params: DeploymentParams,
        response: { 200: DataOf(Deployment) },
      },
    },
    async (request) => ({
      data: await deployments.get(request.params.projectId, request.params.deploymentId),
    }),
  );

  app.get(
    '/:deploymentId/files',
    {
      config: view,
      schema: {
        tags,
        summary: 'List the files of a deployment',
        params: DeploymentParams,
        querystring: FileListQuery,
        response: { 200: PageOf(DeploymentFile) },
      },
    },
    async (request) =>
      deployments.listFiles(request.params.projectId, request.params.deploymentId, request.query),
  );

  app.post(
    '/:deploymentId/promote',
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
      data: await deployments.promote(request.actor, request.params.projectId, request.params.deploymentId),
    }),
  );

  app.patch(
    '/:deploymentId/pin',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Pin or unpin a deployment (pinned deployments are never removed by retention)',
        params: DeploymentParams,
        body: PinChange,
        response: { 200: DataOf(Deployment) },
      },
    },
    async (request) => ({
      data: await deployments.setPinned(
        request.actor,
        request.params.projectId,
        request.params.deploymentId,
        request.body.pinned,
      ),
    }),
  );

  app.delete(
    '/:deploymentId',
    {
      config: { ...manage, errors: [409] },
      schema: {
        tags,
        summary: 'Delete a deployment (refused for the production deployment and pinned ones)',
        params: DeploymentParams,
        response: { 200: Success },
      },
    },
    async (request) => {
      await deployments.remove(request.actor, request.params.projectId, request.params.deploymentId);
      return { success: true };
    },
  );
};
