import { Type } from 'typebox';
import type { GatewayModule } from '../../core/app.js';
import { DataOf, IdParams, PageOf } from '../../core/http-schemas.js';
import {
  Group,
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
import type { UserService } from './service.js';

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
