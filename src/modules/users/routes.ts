import { Type } from 'typebox';
import type { GatewayModule } from '../../core/app.js';
import { DataOf, IdParams, PageOf, Success } from '../../core/http-schemas.js';
import {
  Group,
  GroupChange,
  GroupScopes,
  NewGroup,
  NewUser,
  User,
  UserDisabled,
  UserGroup,
  UserListQuery,
  UserName,
  UserPassword,
} from './schemas.js';
import type { UserService } from './users.js';

const access = { scope: 'admin:users' } as const;
const tags = ['admin'];

/** Local user accounts and groups (`admin:users`), registered under `/api/admin`. */
export const userRoutes: GatewayModule<{ users: UserService }> = async (app, { users }) => {
  app.get(
    '/users',
    {
      config: access,
      schema: { tags, summary: 'List users', querystring: UserListQuery, response: { 200: PageOf(User) } },
    },
    async (request) => users.listUsers(request.query),
  );

  app.post(
    '/users',
    {
      config: { ...access, errors: [409] },
      schema: { tags, summary: 'Create a user', body: NewUser, response: { 201: DataOf(User) } },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await users.createUser(request.actor, request.body) }),
  );

  app.get(
    '/users/:id',
    {
      config: access,
      schema: { tags, summary: 'Get a user', params: IdParams, response: { 200: DataOf(User) } },
    },
    async (request) => ({ data: await users.getUser(request.params.id) }),
  );

  app.patch(
    '/users/:id/name',
    {
      config: access,
      schema: {
        tags,
        summary: "Rename a user's account",
        params: IdParams,
        body: UserName,
        response: { 200: DataOf(User) },
      },
    },
    async (request) => ({
      data: await users.renameUser(request.actor, request.params.id, request.body.name),
    }),
  );

  app.patch(
    '/users/:id/group',
    {
      config: access,
      schema: {
        tags,
        summary: 'Move a user to another group (its scopes apply at once)',
        params: IdParams,
        body: UserGroup,
        response: { 200: DataOf(User) },
      },
    },
    async (request) => ({
      data: await users.changeGroup(request.actor, request.params.id, request.body.group),
    }),
  );

  app.patch(
    '/users/:id/disabled',
    {
      config: access,
      schema: {
        tags,
        summary: "Disable or enable a user (a disabled user's tokens stop working at once)",
        params: IdParams,
        body: UserDisabled,
        response: { 200: DataOf(User) },
      },
    },
    async (request) => ({
      data: await users.setDisabled(request.actor, request.params.id, request.body.disabled),
    }),
  );

  app.put(
    '/users/:id/password',
    {
      config: access,
      schema: {
        tags,
        summary: "Set a user's password",
        params: IdParams,
        body: UserPassword,
        response: { 200: DataOf(User) },
      },
    },
    async (request) => ({
      data: await users.setPassword(request.actor, request.params.id, request.body.password),
    }),
  );

  app.delete(
    '/users/:id',
    {
      config: access,
      schema: {
        tags,
        summary: 'Delete a user; their sessions and API tokens stop working at once',
        description:
          'The audit trail keeps their history under the email they had. You cannot delete yourself (400).',
        params: IdParams,
        response: { 200: Success },
      },
    },
    async (request) => {
      await users.deleteUser(request.actor, request.params.id);
      return { success: true };
    },
  );

  app.delete(
    '/users/:id/totp',
    {
      config: { ...access, errors: [409] },
      schema: {
        tags,
        summary: "Reset a user's two-factor enrolment (a lost authenticator)",
        description: '409 `TOTP_NOT_ENABLED` when the user has none.',
        params: IdParams,
        response: { 200: DataOf(User) },
      },
    },
    async (request) => ({ data: await users.resetTotp(request.actor, request.params.id) }),
  );

  app.get(
    '/groups',
    {
      config: access,
      schema: { tags, summary: 'List groups', response: { 200: Type.Object({ data: Type.Array(Group) }) } },
    },
    async () => ({ data: await users.listGroups() }),
  );

  app.post(
    '/groups',
    {
      config: { ...access, errors: [409] },
      schema: { tags, summary: 'Create a group', body: NewGroup, response: { 201: DataOf(Group) } },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await users.createGroup(request.actor, request.body) }),
  );

  app.patch(
    '/groups/:id',
    {
      config: { ...access, errors: [409] },
      schema: {
        tags,
        summary: 'Rename a group, or require a second factor (TOTP) of its members',
        description: 'Duplicate name → 409 `GROUP_NAME_TAKEN`.',
        params: IdParams,
        body: GroupChange,
        response: { 200: DataOf(Group) },
      },
    },
    async (request) => ({ data: await users.updateGroup(request.actor, request.params.id, request.body) }),
  );

  app.delete(
    '/groups/:id',
    {
      config: { ...access, errors: [409] },
      schema: {
        tags,
        summary: 'Delete a group',
        description:
          '409 `GROUP_HAS_MEMBERS` while users are in it, `GROUP_IN_USE` while an identity provider maps to it.',
        params: IdParams,
        response: { 200: Success },
      },
    },
    async (request) => {
      await users.deleteGroup(request.actor, request.params.id);
      return { success: true };
    },
  );

  app.patch(
    '/groups/:id/scopes',
    {
      config: access,
      schema: {
        tags,
        summary: "Replace a group's scopes",
        params: IdParams,
        body: GroupScopes,
        response: { 200: DataOf(Group) },
      },
    },
    async (request) => ({
      data: await users.setGroupScopes(request.actor, request.params.id, request.body.scopes),
    }),
  );
};
