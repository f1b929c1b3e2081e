import type { GatewayModule } from '../../../core/app.js';
import { MultiSearchQuery, RecordPage } from '../record-schemas.js';
import type { RecordSearch } from '../record-search.js';
import { view } from './access.js';
import { FILTERS } from './records.js';

/** `GET /api/logging/search`: one search over several environments, newest first. */
export const multiSearchRoutes: GatewayModule<{ search: RecordSearch }> = async (app, { search }) => {
  app.get(
    '/api/logging/search',
    {
      config: { ...view, errors: [404, 422] },
      schema: {
        tags: ['logging records'],
        summary: 'Search the records of several environments at once, newest first',
        description: `${FILTERS} Each record names its \`environmentId\`; an environment the caller may not view is answered 404, like one that does not exist.`,
        querystring: MultiSearchQuery,
        response: { 200: RecordPage },
      },
    },
    async (request) => search.searchMany(request.actor, request.query),
  );
};
