import type { GatewayModule } from '../../../core/app.js';
import { DataOf, PageOf } from '../../../core/http-schemas.js';
import type { DestinationService } from '../destinations.js';
import {
  Destination,
  DestinationChange,
  DestinationChanges,
  DestinationListQuery,
  DestinationRemoval,
  DestinationTestResult,
  IdParam,
  NewDestination,
} from '../schemas.js';
import { manage, view } from './access.js';

const tags = ['audit'];

/** SIEM destinations, registered under `/api/audit/siem/destinations`. */
export const destinationRoutes: GatewayModule<{ destinations: DestinationService }> = async (
  app,
  { destinations },
) => {
  app.get(
    '',
    {
      config: view,
      schema: {
        tags,
        summary: 'List SIEM destinations with their health',
        querystring: DestinationListQuery,
        response: { 200: PageOf(Destination) },
      },
    },
    async (request) => destinations.list(request.query),
  );

  app.post(
    '',
    {
      config: { ...manage, errors: [409, 422] },
      schema: {
        tags,
        summary: 'Create a SIEM destination',
        body: NewDestination,
        response: { 201: DataOf(Destination) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await destinations.create(request.actor, request.body) }),
  );

  app.get(
    '/:id',
    {
      config: view,
      schema: {
        tags,
        summary: 'Get a SIEM destination',
        params: IdParam,
        response: { 200: DataOf(Destination) },
      },
    },
    async (request) => ({ data: await destinations.get(request.params.id) }),
  );

  app.patch(
    '/:id',
    {
      config: { ...manage, errors: [409, 422] },
      schema: {
        tags,
        summary: 'Change a SIEM destination (disable pauses its deliveries, enable resumes them)',
        description:
          'A new `url` (scheme, host, port or path) drops the stored `secret`/`token` unless the same ' +
          'request gives it again; `droppedSecrets` names it.',
        params: IdParam,
        body: DestinationChanges,
        response: { 200: DestinationChange },
      },
    },
    async (request) => destinations.update(request.actor, request.params.id, request.body),
  );

  app.delete(
    '/:id',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Delete a SIEM destination; its open deliveries become discarded',
        params: IdParam,
        response: { 200: DataOf(DestinationRemoval) },
      },
    },
    async (request) => ({ data: await destinations.remove(request.actor, request.params.id) }),
  );

  app.post(
    '/:id/test',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Send one test event now and report the outcome',
        params: IdParam,
        response: { 200: DataOf(DestinationTestResult) },
      },
    },
    async (request) => ({ data: await destinations.test(request.actor, request.params.id) }),
  );
};
