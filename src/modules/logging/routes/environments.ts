import type { GatewayModule } from '../../../core/app.js';
import { DataOf, PageOf, Success } from '../../../core/http-schemas.js';
import type { LogEnvironmentService } from '../environments.js';
import {
  IdParams,
  LogEnvironment,
  LogEnvironmentChanges,
  LogEnvironmentListQuery,
  NewLogEnvironment,
} from '../schemas.js';
import { manage, view } from './access.js';

const tags = ['logging environments'];

/** Logging environments, registered under `/api/logging/environments`. */
export const logEnvironmentRoutes: GatewayModule<{ environments: LogEnvironmentService }> = async (
  app,
  { environments },
) => {
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
    async (request) => environments.listEnvironments(request.actor, request.query),
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
      reply.status(201).send({ data: await environments.createEnvironment(request.actor, request.body) }),
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
    async (request) => ({ data: await environments.getEnvironment(request.params.id) }),
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
      data: await environments.updateEnvironment(request.actor, request.params.id, request.body),
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
      await environments.deleteEnvironment(request.actor, request.params.id);
      return { success: true };
    },
  );
};
