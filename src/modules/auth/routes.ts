import { Type } from 'typebox';
import type { GatewayModule } from '../../core/app.js';
import { AUTHENTICATED, SESSION_COOKIE } from '../../core/auth/authenticate.js';
import { setSessionCookie } from '../../core/auth/session-cookie.js';
import { csrfTokenFor } from '../../core/auth/token-secrets.js';
import { DataOf, IdParams, NullableTimestamp, Success, Timestamp, Uuid } from '../../core/http-schemas.js';
import { UserService } from '../users/service.js';
import { LoginThrottle } from './login-throttle.js';
import { AuthService } from './service.js';

const CurrentUser = Type.Object({
  id: Uuid(),
  email: Type.String(),
  name: Type.String(),
  groupName: Type.String(),
  scopes: Type.Array(Type.String()),
});

const TokenRecord = Type.Object({
  id: Uuid(),
  name: Type.String(),
  createdAt: Timestamp,
  lastUsedAt: NullableTimestamp,
  expiresAt: NullableTimestamp,
});

const Session = Type.Object({
  ...TokenRecord.properties,
  userAgent: Type.Union([Type.String(), Type.Null()]),
  clientIp: Type.Union([Type.String(), Type.Null()]),
  current: Type.Boolean(),
});

const tags = ['auth'];
const signedIn = { scope: AUTHENTICATED };

/** The caller's identity, login, sessions and API tokens. */
const authRoutes: GatewayModule = async (app) => {
  const { db, audit, principals, config } = app.deps;
  const auth = new AuthService(
    db,
    audit,
    principals,
    new UserService(db, audit, principals),
    config.sessionTtlSeconds,
    new LoginThrottle(db, config),
  );

  app.post(
    '/auth/login',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Log in with email and password; starts a browser session',
        description:
          'Answers the session token (usable as Bearer) and sets it as an HttpOnly cookie. Cookie-authenticated ' +
          'changes must send `csrfToken` in the `X-CSRF-Token` header.',
        security: [],
        body: Type.Object({
          email: Type.String({ minLength: 1, maxLength: 320 }),
          password: Type.String({ minLength: 1, maxLength: 1024 }),
        }),
        response: {
          200: DataOf(
            Type.Object({
              token: Type.String(),
              csrfToken: Type.String(),
              expiresAt: Timestamp,
              user: CurrentUser,
            }),
          ),
        },
      },
    },
    async (request, reply) => {
      const { session, user } = await auth.login(request.body.email, request.body.password, {
        userAgent: request.headers['user-agent'] ?? null,
        clientIp: request.ip,
        requestId: request.id,
      });
      setSessionCookie(reply, session, config.cookieSecure);
      return {
        data: { token: session.token, csrfToken: session.csrfToken!, expiresAt: session.expiresAt!, user },
      };
    },
  );

  app.post(
    '/auth/logout',
    {
      config: signedIn,
      schema: {
        tags,
        summary: 'End the current session (or revoke the API token in use)',
        response: { 200: Success },
      },
    },
    async (request, reply) => {
      await auth.logout(request.actor);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return { success: true };
    },
  );

  app.get(
    '/auth/me',
    {
      config: signedIn,
      schema: {
        tags,
        summary: 'The authenticated user',
        response: {
          200: DataOf(
            Type.Object({
              ...CurrentUser.properties,
              csrfToken: Type.Optional(
                Type.String({
                  description:
                    'Only to a session cookie: the token its changes send in `X-CSRF-Token` (for a reloaded page)',
                }),
              ),
            }),
          ),
        },
      },
    },
    async (request) => {
      const { userId, email, name, groupName, scopes, tokenKind } = request.actor;
      const cookie = request.headers.authorization ? undefined : request.cookies[SESSION_COOKIE];
      const csrf = tokenKind === 'session' && cookie ? { csrfToken: csrfTokenFor(cookie) } : {};
      return { data: { id: userId, email, name, groupName, scopes: [...scopes], ...csrf } };
    },
  );

  app.get(
    '/auth/me/sessions',
    {
      config: signedIn,
      schema: {
        tags,
        summary: "The caller's active browser sessions",
        response: { 200: Type.Object({ data: Type.Array(Session) }) },
      },
    },
    async (request) => ({ data: await auth.listSessions(request.actor) }),
  );

  app.post(
    '/auth/me/sessions/revoke-others',
    {
      config: signedIn,
      schema: {
        tags,
        summary: "Revoke the caller's other browser sessions",
        description: 'The current session survives; with an API token, every browser session is revoked.',
        response: { 200: Type.Object({ revoked: Type.Integer() }) },
      },
    },
    async (request) => ({ revoked: await auth.revokeOtherSessions(request.actor) }),
  );

  app.get(
    '/auth/tokens',
    {
      config: signedIn,
      schema: {
        tags,
        summary: "The caller's API tokens (never their secrets)",
        response: { 200: Type.Object({ data: Type.Array(TokenRecord) }) },
      },
    },
    async (request) => ({ data: await auth.listApiTokens(request.actor) }),
  );

  app.post(
    '/auth/tokens',
    {
      config: signedIn,
      schema: {
        tags,
        summary: 'Create an API token for the caller; the secret is shown once',
        body: Type.Object({
          name: Type.String({ minLength: 1, maxLength: 255 }),
          expiresInDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650 })),
        }),
        response: { 201: DataOf(Type.Object({ ...TokenRecord.properties, token: Type.String() })) },
      },
    },
    async (request, reply) => {
      const issued = await auth.createApiToken(
        request.actor,
        request.body.name.trim() || 'api token',
        request.body.expiresInDays,
      );
      return reply.status(201).send({ data: { ...issued, lastUsedAt: null } });
    },
  );

  app.delete(
    '/auth/tokens/:id',
    {
      config: signedIn,
      schema: {
        tags,
        summary: 'Revoke one of the caller’s API tokens',
        params: IdParams,
        response: { 200: Success },
      },
    },
    async (request) => {
      await auth.revokeApiToken(request.actor, request.params.id);
      return { success: true };
    },
  );
};

export default authRoutes;
