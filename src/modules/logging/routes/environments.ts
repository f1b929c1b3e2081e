import type { GatewayModule } from '../../../core/app.js';
import { DataOf, PageOf, Success } from '../../../core/http-schemas.js';
import {
  IdParams,
  LogEnvironment,
  LogEnvironmentChanges,
  LogEnvironmentListQuery,
  NewLogEnvironment,
} from '../schemas.js';
import type { LoggingService } from '../service.js';
import { manage, view } from './access.js';

const tags = ['logging environments'];

/** Logging environments, registered under `/api/logging/environments`. */
export const logEnvironmentRoutes: GatewayModule<{ logging: LoggingService }> = async (app, { logging }) => {
  app.get(
    '',
    {
      config: view,
      schema: {
        tags,
        summary: 'List logging environments',
        querystring: LogEnvironmentListQuery,
        response: { 200: PageOf(LogEnvironment) },
      },
    },
    async (request) => logging.listEnvironments(request.actor, request.query),
  );

  app.post(
    '',
    {
      config: { ...manage, errors: [404, 409] },
      schema: {
        tags,
        summary: 'Create a logging environment',
        body: NewLogEnvironment,
        response: { 201: DataOf(LogEnvironment) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await logging.createEnvironment(request.actor, request.body) }),
  );

  app.get(
    '/:id',
    {
      config: view,
      schema: {
        tags,
        summary: 'Get a logging environment',
        params: IdParams,
        response: { 200: DataOf(LogEnvironment) },
      },
    },
    async (request) => ({ data: await logging.getEnvironment(request.params.id) }),
  );

  app.put(
    '/:id',
    {
      config: { ...manage, errors: [409] },
      schema: {
        tags,
        summary: 'Change a logging environment (only the fields sent change)',
        params: IdParams,
        body: LogEnvironmentChanges,
        response: { 200: DataOf(LogEnvironment) },
      },
    },
    async (request) => ({
      data: await logging.updateEnvironment(request.actor, request.params.id, request.body),
    }),
  );

  app.delete(
    '/:id',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Delete a logging environment',
        params: IdParams,
        response: { 200: Success },
      },
    },
    async (request) => {
      await logging.deleteEnvironment(request.actor, request.params.id);
      return { success: true };
    },
  );
};
