import { Type } from 'typebox';
import type { GatewayModule } from '../../core/app.js';
import { DataOf, IdParams, Name, PageOf, SearchText, Timestamp, Uuid } from '../../core/http-schemas.js';
import { PaginationQueryFields } from '../../core/pagination.js';
import { UserService } from './service.js';

const User = Type.Object({
  id: Uuid(),
  email: Type.String(),
  name: Type.String(),
  groupId: Uuid(),
  groupName: Type.String(),
  scopes: Type.Array(Type.String()),
  disabled: Type.Boolean(),
  hasPassword: Type.Boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

const Group = Type.Object({
  id: Uuid(),
  name: Type.String(),
  scopes: Type.Array(Type.String()),
  userCount: Type.Integer(),
  createdAt: Timestamp,
});

const Password = Type.String({ minLength: 8, maxLength: 1024 });
const Scopes = Type.Array(Type.String({ maxLength: 100 }), {
  maxItems: 200,
  description: 'e.g. logging:view, databases:*, *',
});
const GroupRef = Type.String({ minLength: 1, maxLength: 255, description: 'group name or id' });

const access = { scope: 'admin:users' };
const tags = ['admin'];

/** Local user accounts and groups (`admin:users`). */
const userRoutes: GatewayModule = async (app) => {
  const users = new UserService(app.deps.db, app.deps.audit, app.deps.principals);

  app.get(
    '/api/admin/users',
    {
      config: access,
      schema: {
        tags,
        summary: 'List users',
        querystring: Type.Object({
          ...PaginationQueryFields,
          q: SearchText('the email or the name'),
          groupName: Type.Optional(Type.String({ maxLength: 255 })),
          disabled: Type.Optional(Type.Boolean()),
        }),
        response: { 200: PageOf(User) },
      },
    },
    async (request) => users.listUsers(request.query),
  );

  app.post(
    '/api/admin/users',
    {
      config: access,
      schema: {
        tags,
        summary: 'Create a user',
        body: Type.Object({
          // Local accounts such as admin@localhost are valid, so only the local@domain shape is required.
          email: Type.String({ pattern: '^[^\\s@]+@[^\\s@]+$', maxLength: 320 }),
          name: Name,
          group: GroupRef,
          password: Type.Optional(Password),
        }),
        response: { 201: DataOf(User) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await users.createUser(request.actor, request.body) }),
  );

  app.get(
    '/api/admin/users/:id',
    {
      config: access,
      schema: { tags, summary: 'Get a user', params: IdParams, response: { 200: DataOf(User) } },
    },
    async (request) => ({ data: await users.getUser(request.params.id) }),
  );

  app.patch(
    '/api/admin/users/:id/name',
    {
      config: access,
      schema: {
        tags,
        summary: "Rename a user's account",
        params: IdParams,
        body: Type.Object({ name: Name }),
        response: { 200: DataOf(User) },
      },
    },
    async (request) => ({
      data: await users.renameUser(request.actor, request.params.id, request.body.name),
    }),
  );

  app.patch(
    '/api/admin/users/:id/group',
    {
      config: access,
      schema: {
        tags,
        summary: 'Move a user to another group (its scopes apply at once)',
        params: IdParams,
        body: Type.Object({ group: GroupRef }),
        response: { 200: DataOf(User) },
      },
    },
    async (request) => ({
      data: await users.changeGroup(request.actor, request.params.id, request.body.group),
    }),
  );

  app.patch(
    '/api/admin/users/:id/disabled',
    {
      config: access,
      schema: {
        tags,
        summary: "Disable or enable a user (a disabled user's tokens stop working at once)",
        params: IdParams,
        body: Type.Object({ disabled: Type.Boolean() }),
        response: { 200: DataOf(User) },
      },
    },
    async (request) => ({
      data: await users.setDisabled(request.actor, request.params.id, request.body.disabled),
    }),
  );

  app.put(
    '/api/admin/users/:id/password',
    {
      config: access,
      schema: {
        tags,
        summary: "Set a user's password",
        params: IdParams,
        body: Type.Object({ password: Password }),
        response: { 200: DataOf(User) },
      },
    },
    async (request) => ({
      data: await users.setPassword(request.actor, request.params.id, request.body.password),
    }),
  );

  app.get(
    '/api/admin/groups',
    {
      config: access,
      schema: { tags, summary: 'List groups', response: { 200: Type.Object({ data: Type.Array(Group) }) } },
    },
    async () => ({ data: await users.listGroups() }),
  );

  app.post(
    '/api/admin/groups',
    {
      config: access,
      schema: {
        tags,
        summary: 'Create a group',
        body: Type.Object({ name: Name, scopes: Scopes }),
        response: { 201: DataOf(Group) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await users.createGroup(request.actor, request.body) }),
  );

  app.patch(
    '/api/admin/groups/:id/scopes',
    {
      config: access,
      schema: {
        tags,
        summary: "Replace a group's scopes",
        params: IdParams,
        body: Type.Object({ scopes: Scopes }),
        response: { 200: DataOf(Group) },
      },
    },
    async (request) => ({
      data: await users.setGroupScopes(request.actor, request.params.id, request.body.scopes),
    }),
  );
};

export default userRoutes;
