import type { GatewayModule } from '../../../core/app.js';
import { DataOf } from '../../../core/http-schemas.js';
import { openEventStream } from '../../../core/sse.js';
import {
  FacetQuery,
  Facets,
  Histogram,
  HistogramQuery,
  RecordPage,
  RecordSearchQuery,
  TailQuery,
} from '../record-schemas.js';
import type { RecordSearch } from '../record-search.js';
import type { RecordTail } from '../record-tail.js';
import { IdParams } from '../schemas.js';
import { view } from './access.js';

const tags = ['logging records'];
export const FILTERS =
  'Filters: `from`/`to` (date-time), `level` (comma-separated), `service` and `service!=` (not it), ' +
  '`q` (full text on the message; `-word` excludes), `match` with `mode=substring|regex` (on the message; ' +
  'only over at most INFRAGATE_LOG_MATCH_MAX_HOURS, and on PostgreSQL under a statement timeout: 422 MATCH_TIMED_OUT), ' +
  '`field.<name>=<value>` and `field.<name>!=<value>` (repeatable, different names).';

/** Search, facets, histogram and live tail of one environment's records, under `/api/logging/environments`. */
export const recordRoutes: GatewayModule<{ search: RecordSearch; tail: RecordTail }> = async (
  app,
  { search, tail },
) => {
  app.get(
    '/:id/records',
    {
      config: { ...view, errors: [422] },
      schema: {
        tags,
        summary: 'Search records, newest first, a page at a time (follow `nextCursor`)',
        description: FILTERS,
        params: IdParams,
        querystring: RecordSearchQuery,
        response: { 200: RecordPage },
      },
    },
    async (request) => search.search(request.params.id, request.query),
  );

  app.get(
    '/:id/facets',
    {
      config: { ...view, errors: [422] },
      schema: {
        tags,
        summary: 'Count records per value of level, service or a field',
        description: FILTERS,
        params: IdParams,
        querystring: FacetQuery,
        response: { 200: DataOf(Facets) },
      },
    },
    async (request) => ({ data: await search.facets(request.params.id, request.query) }),
  );

  app.get(
    '/:id/histogram',
    {
      config: { ...view, errors: [422] },
      schema: {
        tags,
        summary: 'Count records per time bucket (empty buckets included)',
        description: FILTERS,
        params: IdParams,
        querystring: HistogramQuery,
        response: { 200: DataOf(Histogram) },
      },
    },
    async (request) => ({ data: await search.histogram(request.params.id, request.query) }),
  );

  app.get(
    '/:id/tail',
    {
      config: { ...view, errors: [422] },
      // A HEAD request would hold a stream open with nothing to show for it.
      exposeHeadRoute: false,
      schema: {
        tags,
        summary: 'Stream new records as Server-Sent Events (`event: record`) until the client leaves',
        description: `${FILTERS.replace('`from`/`to` (date-time), ', '')} Records ingested through any gateway on the same database arrive.`,
        params: IdParams,
        querystring: TailQuery,
      },
    },
    async (request, reply) => {
      const filter = await search.tailFilter(request.params.id, request.query);
      await tail.follow(request.params.id, filter, openEventStream(request, reply));
    },
  );
};
