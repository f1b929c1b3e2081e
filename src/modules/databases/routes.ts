import { Type } from 'typebox';
import type { GatewayModule } from '../../core/app.js';
import { areaAccess } from '../../core/auth/area-access.js';
import { DataOf, IdParams, PageOf, Success } from '../../core/http-schemas.js';
import { DataWithDroppedSecrets } from '../../core/trust-boundary.js';
import type { KeyValueConsole } from './console.js';
import type { DatabaseRegistry } from './registry.js';
import {
  CommandLine,
  CommandResult,
  Database,
  DatabaseChanges,
  DatabaseListQuery,
  DatabaseWithStatus,
  HistoryEntry,
  HistoryQuery,
  NewDatabase,
} from './schemas.js';

const { view, manage } = areaAccess('databases');

// The console's minimum; the service then requires databases:write or databases:admin by the
// command's class as the server describes it.
const read = { scope: 'databases:read' } as const;
const tags = ['databases'];

/**
 * Registered key-value databases and the command console (`POST /api/databases/{id}/keyvalue/command`),
 * registered under `/api/databases`.
 */
export const databaseRoutes: GatewayModule<{
  registry: DatabaseRegistry;
  keyvalue: KeyValueConsole;
}> = async (app, { registry, keyvalue }) => {
  app.get(
    '',
    {
      config: view,
      schema: {
        tags,
        summary: 'List registered databases',
        querystring: DatabaseListQuery,
        response: { 200: PageOf(Database) },
      },
    },
    async (request) => registry.list(request.actor, request.query),
  );

  app.post(
    '',
    {
      config: { ...manage, errors: [409] },
      schema: {
        tags,
        summary: 'Register a key-value database',
        body: NewDatabase,
        response: { 201: DataOf(Database) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await registry.create(request.actor, request.body) }),
  );

  app.get(
    '/:id',
    {
      config: view,
      schema: {
        tags,
        summary: 'Get a database with a live check of its server (reachability, version)',
        params: IdParams,
        response: { 200: DataOf(DatabaseWithStatus) },
      },
    },
    async (request) => ({ data: await registry.get(request.params.id) }),
  );

  app.patch(
    '/:id',
    {
      config: { ...manage, errors: [409] },
      schema: {
        tags,
        summary: 'Change a database (its open connections are closed)',
        description:
          'A new host, port or scheme in `url` needs the area-wide `databases:manage` (403 ' +
          '`BOUNDARY_CHANGE_NEEDS_AREA_SCOPE` for a scope naming this database) and drops the stored ' +
          'password unless `password` is sent in the same request (`droppedSecrets` names it).',
        params: IdParams,
        body: DatabaseChanges,
        response: { 200: DataWithDroppedSecrets(Database) },
      },
    },
    async (request) => registry.update(request.actor, request.params.id, request.body),
  );

  app.delete(
    '/:id',
    {
      config: manage,
      schema: { tags, summary: 'Remove a database', params: IdParams, response: { 200: Success } },
    },
    async (request) => {
      await registry.remove(request.actor, request.params.id);
      return { success: true };
    },
  );

  app.post(
    '/:id/keyvalue/command',
    {
      config: { ...read, errors: [422] },
      schema: {
        tags,
        summary: 'Run one key-value command (parsed like redis-cli)',
        params: IdParams,
        body: CommandLine,
        response: { 200: DataOf(CommandResult) },
      },
    },
    async (request) => ({
      data: await keyvalue.runCommand(request.actor, request.params.id, request.body.command),
    }),
  );

  app.get(
    '/:id/keyvalue/history',
    {
      config: read,
      schema: {
        tags,
        summary: "The caller's last commands on this database, newest first",
        params: IdParams,
        querystring: HistoryQuery,
        response: { 200: Type.Object({ data: Type.Array(HistoryEntry) }) },
      },
    },
    async (request) => ({
      data: await keyvalue.history(request.actor, request.params.id, request.query.limit),
    }),
  );
};
