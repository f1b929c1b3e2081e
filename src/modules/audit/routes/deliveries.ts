import type { GatewayModule } from '../../../core/app.js';
import { invalidField } from '../../../core/errors.js';
import { DataOf, PageOf } from '../../../core/http-schemas.js';
import type { DeliveryService } from '../deliveries.js';
import { Delivery, DeliveryListQuery, IdParam, RequeueParams } from '../schemas.js';
import { manage, view } from './access.js';

const tags = ['audit'];

/** SIEM delivery records, registered under `/api/audit/siem/deliveries`. */
export const deliveryRoutes: GatewayModule<{ deliveries: DeliveryService }> = async (app, { deliveries }) => {
  app.get(
    '',
    {
      config: view,
      schema: {
        tags,
        summary: 'List SIEM delivery records, newest first',
        querystring: DeliveryListQuery,
        response: { 200: PageOf(Delivery) },
      },
    },
    async (request) => deliveries.list(request.query),
  );

  app.get(
    '/:id',
    {
      config: view,
      schema: {
        tags,
        summary: 'Get a SIEM delivery record',
        params: IdParam,
        response: { 200: DataOf(Delivery) },
      },
    },
    async (request) => ({ data: await deliveries.get(request.params.id) }),
  );

  app.post(
    '/:id/requeue',
    {
      config: { ...manage, errors: [409] },
      schema: {
        tags,
        summary: 'Requeue a failed delivery (fresh attempts, status queued)',
        params: RequeueParams,
        response: { 200: DataOf(Delivery) },
      },
      // The body is optional; when one is sent it must be a JSON object (its fields are ignored).
      preValidation: async (request) => {
        const { body } = request;
        if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) {
          throw invalidField([], 'must be a JSON object when given');
        }
      },
    },
    async (request) => ({ data: await deliveries.requeue(request.actor, request.params.id) }),
  );
};
