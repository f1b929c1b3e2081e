import { Type } from 'typebox';
import type { GatewayModule } from '../../../core/app.js';
import { areaAccess } from '../../../core/auth/area-access.js';
import { DataOf, PageOf, Success } from '../../../core/http-schemas.js';
import type { ModelRoutes } from '../model-routes.js';
import { ModelRoute, ModelRouteChange, NewModelRoute, RouteListQuery } from '../plane-schemas.js';

const { view, manage } = areaAccess('inference');
const tags = ['inference'];
const RouteParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

/** `/api/inference/routes`: public model names and the targets that serve them. */
export const modelRouteRoutes: GatewayModule<{ routes: ModelRoutes }> = async (app, { routes }) => {
  app.post(
    '',
    {
      config: { ...manage, errors: [409] },
      schema: {
        tags,
        summary: 'Create a model route: a public model name served by an ordered list of targets',
        description:
          'Targets are tried by `priority` (lower first; equal priorities in an order drawn by `weight`). ' +
          'Without a route, `<connection name>/<upstream model>` names a model too; a route of the same name wins.',
        body: NewModelRoute,
        response: { 201: DataOf(ModelRoute) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await routes.create(request.actor, request.body) }),
  );

  app.get(
    '',
    {
      config: view,
      schema: {
        tags,
        summary: 'List model routes',
        querystring: RouteListQuery,
        response: { 200: PageOf(ModelRoute) },
      },
    },
    async (request) => routes.list(request.query),
  );

  app.get(
    '/:id',
    {
      config: view,
      schema: {
        tags,
        summary: 'Get a model route',
        params: RouteParams,
        response: { 200: DataOf(ModelRoute) },
      },
    },
    async (request) => ({ data: await routes.get(request.params.id) }),
  );

  app.patch(
    '/:id',
    {
      config: { ...manage, errors: [409] },
      schema: {
        tags,
        summary: 'Rename a model route or replace its targets',
        params: RouteParams,
        body: ModelRouteChange,
        response: { 200: DataOf(ModelRoute) },
      },
    },
    async (request) => ({ data: await routes.update(request.actor, request.params.id, request.body) }),
  );

  app.delete(
    '/:id',
    {
      config: manage,
      schema: { tags, summary: 'Delete a model route', params: RouteParams, response: { 200: Success } },
    },
    async (request) => {
      await routes.remove(request.actor, request.params.id);
      return { success: true };
    },
  );
};
