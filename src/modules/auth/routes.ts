import { Type } from 'typebox';
import type { GatewayModule } from '../../core/app.js';
import { SESSION_COOKIE, sessionCookie } from '../../core/auth/authenticate.js';
import { clientInfoOf } from '../../core/auth/client-info.js';
import { AUTHENTICATED } from '../../core/auth/scopes.js';
import { DataOf, IdParams, Success } from '../../core/http-schemas.js';
import type { AccountService } from './account.js';
import { IssuedApiToken, Me, NewApiToken, PasswordChange, Session, TokenList } from './schemas.js';

const tags = ['auth'];
const signedIn = { scope: AUTHENTICATED } as const;

/** The caller's identity, sessions, password and API tokens. */
export const authRoutes: GatewayModule<{ account: AccountService }> = async (app, { account }) => {
  app.post(
    '/logout',
    {
      config: signedIn,
      schema: {
        tags,
        summary: 'End the current session (or revoke the API token in use)',
        response: { 200: Success },
      },
    },
    async (request, reply) => {
      await account.logout(request.actor);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return { success: true };
    },
  );

  app.get(
    '/me',
    {
      config: signedIn,
      schema: { tags, summary: 'The authenticated user', response: { 200: DataOf(Me) } },
    },
    async (request) => {
      // The cookie's own session (not a bearer one) gets its CSRF token again, for a reloaded page.
      const cookie = request.headers.authorization ? undefined : sessionCookie(request);
      return { data: account.currentUser(request.actor, cookie) };
    },
  );

  app.get(
    '/me/sessions',
    {
      config: signedIn,
      schema: {
        tags,
        summary: "The caller's active browser sessions",
        response: { 200: Type.Object({ data: Type.Array(Session) }) },
      },
    },
    async (request) => ({ data: await account.listSessions(request.actor) }),
  );

  app.post(
    '/me/sessions/revoke-others',
    {
      config: signedIn,
      schema: {
        tags,
        summary: "Revoke the caller's other browser sessions",
        description: 'The current session survives; with an API token, every browser session is revoked.',
        response: { 200: Type.Object({ revoked: Type.Integer() }) },
      },
    },
    async (request) => ({ revoked: await account.revokeOtherSessions(request.actor) }),
  );

  app.put(
    '/me/password',
    {
      config: { ...signedIn, errors: [422] },
      schema: {
        tags,
        summary: 'Change my password; my other browser sessions are revoked',
        description:
          'A wrong `currentPassword` is a 400 on that field and counts as a failed login. 422 `PASSWORD_NOT_SET` ' +
          'for an account without a password (single sign-on).',
        body: PasswordChange,
        response: { 200: Type.Object({ revoked: Type.Integer({ description: 'Other sessions revoked' }) }) },
      },
    },
    async (request) => ({
      revoked: await account.changePassword(request.actor, request.body, clientInfoOf(request)),
    }),
  );

  app.get(
    '/tokens',
    {
      config: signedIn,
      schema: {
        tags,
        summary: "The caller's API tokens (never their secrets), with prefix and last use",
        response: { 200: TokenList },
      },
    },
    async (request) => ({
      data: await account.listApiTokens(request.actor),
      maxLifetimeDays: account.maxTokenLifetimeDays,
    }),
  );

  app.post(
    '/tokens',
    {
      config: signedIn,
      schema: {
        tags,
        summary: 'Create an API token for the caller; the secret is shown once',
        description:
          'With `INFRAGATE_TOKEN_MAX_DAYS` set, `expiresInDays` may not exceed it and defaults to it.',
        body: NewApiToken,
        response: { 201: DataOf(IssuedApiToken) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await account.createApiToken(request.actor, request.body) }),
  );

  app.delete(
    '/tokens/:id',
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
      await account.revokeApiToken(request.actor, request.params.id);
      return { success: true };
    },
  );
};
