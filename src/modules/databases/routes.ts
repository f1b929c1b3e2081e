import { Type } from 'typebox';
import type { GatewayModule } from '../../core/app.js';
import {
  DataOf,
  IdParams,
  Name,
  Nullable,
  PageOf,
  SearchText,
  Success,
  Timestamp,
  Uuid,
} from '../../core/http-schemas.js';
import { PaginationQueryFields } from '../../core/pagination.js';
import { HISTORY_SIZE } from './command-log.js';
import { DatabaseService } from './service.js';

const TlsView = Type.Object({
  rejectUnauthorized: Type.Boolean(),
  caPem: Type.Optional(Type.String()),
  serverName: Type.Optional(Type.String()),
});

const Database = Type.Object({
  id: Uuid(),
  name: Type.String(),
  type: Type.Literal('keyvalue'),
  url: Type.String({ description: 'redis:// or rediss:// without credentials' }),
  username: Nullable(Type.String()),
  hasPassword: Type.Boolean({ description: 'the password itself is write-only' }),
  tls: Nullable(TlsView),
  dbIndex: Type.Integer(),
  allowDangerous: Type.Boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

const DatabaseWithStatus = Type.Object({
  ...Database.properties,
  status: Type.Object({
    reachable: Type.Boolean(),
    serverVersion: Nullable(Type.String()),
    latencyMs: Nullable(Type.Number()),
    reason: Nullable(Type.String({ description: 'why it is unreachable, e.g. AUTH_FAILED, UNREACHABLE' })),
    error: Nullable(Type.String()),
    checkedAt: Timestamp,
  }),
});

const TlsInput = Type.Object({
  rejectUnauthorized: Type.Optional(
    Type.Boolean({ description: 'verify the server certificate (default true)' }),
  ),
  caPem: Type.Optional(Nullable(Type.String({ maxLength: 65_536, description: 'PEM CA bundle to trust' }))),
  serverName: Type.Optional(
    Nullable(Type.String({ minLength: 1, maxLength: 253, description: 'name to verify and send as SNI' })),
  ),
});

const fields = {
  name: Name,
  url: Type.String({ minLength: 1, maxLength: 2048, description: 'redis://host:port[/db] or rediss://…' }),
  username: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  password: Type.Optional(
    Nullable(Type.String({ maxLength: 1024, description: 'write-only; null removes it' })),
  ),
  tls: Type.Optional(Nullable(TlsInput)),
  dbIndex: Type.Optional(Type.Integer({ minimum: 0, maximum: 1023 })),
  allowDangerous: Type.Optional(
    Type.Boolean({ description: 'allow admin/dangerous commands (callers also need databases:admin)' }),
  ),
};

const CommandResult = Type.Object({
  command: Type.String({ description: 'the command name as the server knows it, e.g. GET or CONFIG SET' }),
  class: Type.Union([Type.Literal('read'), Type.Literal('write'), Type.Literal('admin')]),
  result: Type.Unknown({ description: 'the reply as JSON; bytes that are not UTF-8 as {"base64": "…"}' }),
  type: Type.String({ description: 'string, binary, integer, double, boolean, array, map, null' }),
  durationMs: Type.Number(),
  truncated: Type.Boolean(),
});

const HistoryEntry = Type.Object({
  id: Uuid(),
  command: Type.String({ description: 'the command line, credentials masked' }),
  commandName: Type.String(),
  status: Type.Union([Type.Literal('ok'), Type.Literal('error'), Type.Literal('refused')]),
  error: Nullable(Type.String()),
  durationMs: Nullable(Type.Number()),
  createdAt: Timestamp,
});

const view = { scope: 'databases:view' };
const manage = { scope: 'databases:manage' };
const tags = ['databases'];

/** Registered key-value databases and the command console (contract endpoint 5). */
const databaseRoutes: GatewayModule = async (app) => {
  const service = new DatabaseService(app.deps);

  app.get(
    '/api/databases',
    {
      config: view,
      schema: {
        tags,
        summary: 'List registered databases',
        querystring: Type.Object({
          ...PaginationQueryFields,
          q: SearchText(),
        }),
        response: { 200: PageOf(Database) },
      },
    },
    async (request) => service.list(request.query),
  );

  app.post(
    '/api/databases',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Register a key-value database',
        body: Type.Object({ ...fields, type: Type.Literal('keyvalue') }),
        response: { 201: DataOf(Database) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await service.create(request.actor, request.body) }),
  );

  app.get(
    '/api/databases/:id',
    {
      config: view,
      schema: {
        tags,
        summary: 'Get a database with a live check of its server (reachability, version)',
        params: IdParams,
        response: { 200: DataOf(DatabaseWithStatus) },
      },
    },
    async (request) => ({ data: await service.get(request.params.id) }),
  );

  app.patch(
    '/api/databases/:id',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Change a database (its open connections are closed)',
        params: IdParams,
        body: Type.Partial(Type.Object(fields)),
        response: { 200: DataOf(Database) },
      },
    },
    async (request) => ({ data: await service.update(request.actor, request.params.id, request.body) }),
  );

  app.delete(
    '/api/databases/:id',
    {
      config: manage,
      schema: { tags, summary: 'Remove a database', params: IdParams, response: { 200: Success } },
    },
    async (request) => {
      await service.remove(request.actor, request.params.id);
      return { success: true };
    },
  );

  app.post(
    '/api/databases/:id/keyvalue/command',
    {
      // The minimum; the service then requires databases:write or databases:admin by the
      // command's class as the server describes it.
      config: { scope: 'databases:read' },
      schema: {
        tags,
        summary: 'Run one key-value command (parsed like redis-cli)',
        params: IdParams,
        body: Type.Object({ command: Type.String({ minLength: 1, maxLength: 524_288 }) }),
        response: { 200: DataOf(CommandResult) },
      },
    },
    async (request) => ({
      data: await service.runCommand(request.actor, request.params.id, request.body.command),
    }),
  );

  app.get(
    '/api/databases/:id/keyvalue/history',
    {
      config: { scope: 'databases:read' },
      schema: {
        tags,
        summary: "The caller's last commands on this database, newest first",
        params: IdParams,
        querystring: Type.Object({
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: HISTORY_SIZE, default: HISTORY_SIZE })),
        }),
        response: { 200: Type.Object({ data: Type.Array(HistoryEntry) }) },
      },
    },
    async (request) => ({
      data: await service.history(request.actor, request.params.id, request.query.limit),
    }),
  );
};

export default databaseRoutes;
