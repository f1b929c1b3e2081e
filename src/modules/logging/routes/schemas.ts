import type { GatewayModule } from '../../../core/app.js';
import { DataOf, PageOf, Success } from '../../../core/http-schemas.js';
import type { LogSchemaService } from '../log-schemas.js';
import { IdParams, LogSchema, LogSchemaChanges, LogSchemaListQuery, NewLogSchema } from '../schemas.js';
import { manage, view } from './access.js';

const tags = ['logging schemas'];

/** Logging schemas, registered under `/api/logging/schemas`. */
export const logSchemaRoutes: GatewayModule<{ schemas: LogSchemaService }> = async (app, { schemas }) => {
  app.get(
    '',
    {
      config: view,
      schema: {
        tags,
        summary: 'List logging schemas',
        querystring: LogSchemaListQuery,
        response: { 200: PageOf(LogSchema) },
      },
    },
    async (request) => schemas.listSchemas(request.query),
  );

  app.post(
    '',
    {
      config: { ...manage, errors: [404, 409] },
      schema: {
        tags,
        summary: 'Create a logging schema',
        body: NewLogSchema,
        response: { 201: DataOf(LogSchema) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await schemas.createSchema(request.actor, request.body) }),
  );

  app.get(
    '/:id',
    {
      config: view,
      schema: {
        tags,
        summary: 'Get a logging schema',
        params: IdParams,
        response: { 200: DataOf(LogSchema) },
      },
    },
    async (request) => ({ data: await schemas.getSchema(request.params.id) }),
  );

  app.put(
    '/:id',
    {
      config: { ...manage, errors: [409] },
      schema: {
        tags,
        summary: 'Change a logging schema (only the fields sent change)',
        params: IdParams,
        body: LogSchemaChanges,
        response: { 200: DataOf(LogSchema) },
      },
    },
    async (request) => ({
      data: await schemas.updateSchema(request.actor, request.params.id, request.body),
    }),
  );

  app.delete(
    '/:id',
    {
      config: { ...manage, errors: [409] },
      schema: {
        tags,
        summary: 'Delete a logging schema (409 while environments use it)',
        params: IdParams,
        response: { 200: Success },
      },
    },
    async (request) => {
      await schemas.deleteSchema(request.actor, request.params.id);
      return { success: true };
    },
  );
};
