import { Type } from 'typebox';
import type { GatewayModule } from '../../core/app.js';
import { areaAccess } from '../../core/auth/area-access.js';
import { DataOf, IdParams, PageOf } from '../../core/http-schemas.js';
import { PaginationQueryFields } from '../../core/pagination.js';
import type { DeliveryService } from './deliveries.js';
import type { NotificationEventService } from './events.js';
import { Alert, Delivery, DeliveryDetail, DeliveryListQuery, EventKind } from './schemas.js';

const { view, manage } = areaAccess('notifications');
const tags = ['notifications'];

/** The outbox (deliveries and their attempts), the event catalog and the open alerts. */
export const deliveryRoutes: GatewayModule<{
  deliveries: DeliveryService;
  events: NotificationEventService;
}> = async (app, { deliveries, events }) => {
  app.get(
    '/deliveries',
    {
      config: view,
      schema: {
        tags,
        summary: 'List notification deliveries, newest first',
        querystring: DeliveryListQuery,
        response: { 200: PageOf(Delivery) },
      },
    },
    async (request) => deliveries.list(request.query),
  );

  app.get(
    '/deliveries/:id',
    {
      config: view,
      schema: {
        tags,
        summary: 'Get a delivery with its payload and every attempt',
        params: IdParams,
        response: { 200: DataOf(DeliveryDetail) },
      },
    },
    async (request) => ({ data: await deliveries.get(request.params.id) }),
  );

  app.post(
    '/deliveries/:id/requeue',
    {
      config: { ...manage, errors: [409] },
      schema: {
        tags,
        summary: 'Send a failed delivery again',
        description: 'Only a `failed` delivery qualifies; any other status → 409 `DELIVERY_NOT_REQUEUEABLE`.',
        params: IdParams,
        response: { 200: DataOf(DeliveryDetail) },
      },
    },
    async (request) => ({ data: await deliveries.requeue(request.actor, request.params.id) }),
  );

  app.get(
    '/events',
    {
      config: view,
      schema: {
        tags,
        summary: 'The events rules can subscribe to',
        response: { 200: DataOf(Type.Array(EventKind)) },
      },
    },
    async () => ({ data: events.catalog() }),
  );

  app.get(
    '/alerts',
    {
      config: view,
      schema: {
        tags,
        summary: 'Open alerts: watched conditions in a bad state now, oldest first',
        querystring: Type.Object(PaginationQueryFields),
        response: { 200: PageOf(Alert) },
      },
    },
    async (request) => events.alerts(request.query),
  );
};
