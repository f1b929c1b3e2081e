import type { GatewayModule } from '../../../core/app.js';
import { areaAccess } from '../../../core/auth/area-access.js';
import { PageOf } from '../../../core/http-schemas.js';
import type { OAuthSessionService } from '../oauth-sessions.js';
import { Session, SessionCompletion, SessionListQuery, SessionParams, SessionStart } from '../schemas.js';

const { view, manage } = areaAccess('inference');

const tags = ['inference'];

/** `/api/inference/providers/oauth`: OAuth sign-in sessions that end in a new connection. */
export const oauthSessionRoutes: GatewayModule<{ sessions: OAuthSessionService }> = async (
  app,
  { sessions },
) => {
  app.get(
    '',
    {
      config: view,
      schema: {
        tags,
        summary: 'List OAuth sessions, newest first',
        querystring: SessionListQuery,
        response: { 200: PageOf(Session) },
      },
    },
    async (request) => sessions.list(request.actor, request.query),
  );

  app.post(
    '/start',
    {
      config: { ...manage, errors: [409, 422] },
      schema: {
        tags,
        summary: 'Start an OAuth sign-in (redirect + PKCE, or device flow)',
        body: SessionStart,
        response: { 201: Session },
      },
    },
    async (request, reply) => reply.status(201).send(await sessions.start(request.actor, request.body)),
  );

  app.get(
    '/:id',
    {
      config: view,
      schema: { tags, summary: 'Get an OAuth session', params: SessionParams, response: { 200: Session } },
    },
    async (request) => sessions.get(request.actor, request.params.id),
  );

  app.post(
    '/:id/complete',
    {
      config: { ...manage, errors: [422] },
      // The body is optional: a device session is polled with none at all.
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: {
        tags,
        summary: 'Complete a session with its pasted callback, or poll a device session once',
        params: SessionParams,
        body: SessionCompletion,
        response: { 200: Session },
      },
    },
    async (request) => sessions.complete(request.actor, request.params.id, request.body.callback),
  );

  app.post(
    '/:id/cancel',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Cancel a pending session',
        params: SessionParams,
        response: { 200: Session },
      },
    },
    async (request) => sessions.cancel(request.actor, request.params.id),
  );
};
