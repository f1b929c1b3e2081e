import type { GatewayModule } from '../../../core/app.js';
import { DataOf, PageOf, Success } from '../../../core/http-schemas.js';
import {
  NewSavedSearch,
  SavedSearch,
  SavedSearchChanges,
  SavedSearchListQuery,
  SavedSearchParams,
} from '../saved-search-schemas.js';
import type { SavedSearches } from '../saved-searches.js';
import { IdParams } from '../schemas.js';
import { manage, view } from './access.js';

const tags = ['logging saved searches'];

/**
 * Saved searches of one environment, under `/api/logging/environments`: read with `logging:view`,
 * kept and changed with `logging:manage` (on the environment, as its other settings).
 */
export const savedSearchRoutes: GatewayModule<{ saved: SavedSearches }> = async (app, { saved }) => {
  app.get(
    '/:id/saved-searches',
    {
      config: view,
      schema: {
        tags,
        summary: "The environment's saved searches, by name",
        params: IdParams,
        querystring: SavedSearchListQuery,
        response: { 200: PageOf(SavedSearch) },
      },
    },
    async (request) => saved.list(request.params.id, request.query),
  );

  app.post(
    '/:id/saved-searches',
    {
      config: { ...manage, errors: [409] },
      schema: {
        tags,
        summary: 'Save a search of the environment under a name (unique in the environment)',
        params: IdParams,
        body: NewSavedSearch,
        response: { 201: DataOf(SavedSearch) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await saved.create(request.actor, request.params.id, request.body) }),
  );

  app.get(
    '/:id/saved-searches/:searchId',
    {
      config: view,
      schema: {
        tags,
        summary: 'Get a saved search',
        params: SavedSearchParams,
        response: { 200: DataOf(SavedSearch) },
      },
    },
    async (request) => ({ data: await saved.get(request.params.id, request.params.searchId) }),
  );

  app.patch(
    '/:id/saved-searches/:searchId',
    {
      config: { ...manage, errors: [409] },
      schema: {
        tags,
        summary: 'Rename a saved search or replace its query',
        params: SavedSearchParams,
        body: SavedSearchChanges,
        response: { 200: DataOf(SavedSearch) },
      },
    },
    async (request) => ({
      data: await saved.update(request.actor, request.params.id, request.params.searchId, request.body),
    }),
  );

  app.delete(
    '/:id/saved-searches/:searchId',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Delete a saved search',
        params: SavedSearchParams,
        response: { 200: Success },
      },
    },
    async (request) => {
      await saved.remove(request.actor, request.params.id, request.params.searchId);
      return { success: true };
    },
  );
};
