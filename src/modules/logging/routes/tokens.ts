import type { GatewayModule } from '../../../core/app.js';
import { DataOf, PageOf, Success } from '../../../core/http-schemas.js';
import type { IngestTokens } from '../ingest-tokens.js';
import {
  IngestToken,
  IssuedIngestToken,
  NewIngestToken,
  TokenListQuery,
  TokenParams,
} from '../record-schemas.js';
import { IdParams } from '../schemas.js';
import { manage } from './access.js';

const tags = ['logging ingest'];

/** Ingest tokens of one environment, registered under `/api/logging/environments`; all `logging:manage`. */
export const ingestTokenRoutes: GatewayModule<{ tokens: IngestTokens }> = async (app, { tokens }) => {
  app.post(
    '/:id/tokens',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Create an ingest token for the environment; the secret (igl_…) is shown once',
        params: IdParams,
        body: NewIngestToken,
        response: { 201: DataOf(IssuedIngestToken) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await tokens.create(request.actor, request.params.id, request.body) }),
  );

  app.get(
    '/:id/tokens',
    {
      config: manage,
      schema: {
        tags,
        summary: "The environment's ingest tokens, newest first (never their secrets)",
        params: IdParams,
        querystring: TokenListQuery,
        response: { 200: PageOf(IngestToken) },
      },
    },
    async (request) => tokens.list(request.params.id, request.query),
  );

  app.delete(
    '/:id/tokens/:tokenId',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Revoke an ingest token (it is refused from the next request on, on every gateway)',
        params: TokenParams,
        response: { 200: Success },
      },
    },
    async (request) => {
      await tokens.revoke(request.actor, request.params.id, request.params.tokenId);
      return { success: true };
    },
  );
};
