import type { Query } from '../../api/types';

export const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;

/** The time ranges the search offers, each a span back from now. */
export const RANGES = [
  { value: '15m', label: 'Last 15 minutes', ms: 15 * 60_000 },
  { value: '1h', label: 'Last hour', ms: 3_600_000 },
  { value: '24h', label: 'Last 24 hours', ms: 86_400_000 },
  { value: '7d', label: 'Last 7 days', ms: 7 * 86_400_000 },
] as const;

export type RangeKey = (typeof RANGES)[number]['value'];

/** What the search bar holds. */
export interface RecordFilters {
  q: string;
  levels: string[];
  service: string;
  range: RangeKey;
  /** `name=value`, each one `field.<name>=<value>` of the API. */
  fields: string[];
}

export const NO_FILTERS: RecordFilters = { q: '', levels: [], service: '', range: '24h', fields: [] };

/** `field.<name>` filters are not in the OpenAPI document (their names are the records' own). */
type FieldFilters = Partial<Record<`field.${string}`, string>>;
export type TailQuery = Omit<
  Query<'/api/logging/environments/{id}/records', 'get'>,
  'from' | 'to' | 'cursor' | 'limit'
> &
  FieldFilters;
export type SearchQuery = TailQuery & { from: string };

/** `route=/pay` → `['route', '/pay']`; undefined when it is not `name=value`. */
export function parseFieldFilter(text: string): [string, string] | undefined {
  const at = text.indexOf('=');
  if (at < 1) return undefined;
  const name = text.slice(0, at).trim();
  return name ? [name, text.slice(at + 1).trim()] : undefined;
}

/** The filters of search, facets and histogram as the tail takes them: everything but the time. */
export function tailQuery(filters: RecordFilters): TailQuery {
  const query: TailQuery = {};
  if (filters.q.trim()) query.q = filters.q.trim();
  if (filters.levels.length > 0) query.level = filters.levels.join(',');
  if (filters.service.trim()) query.service = filters.service.trim();
  for (const text of filters.fields) {
    const parsed = parseFieldFilter(text);
    if (parsed) query[`field.${parsed[0]}`] = parsed[1];
  }
  return query;
}

/** The filters with the chosen range as `from` (the API's `to` defaults to now). */
export function searchQuery(filters: RecordFilters, now: number): SearchQuery {
  const span = RANGES.find((range) => range.value === filters.range)?.ms ?? RANGES[2].ms;
  return { ...tailQuery(filters), from: new Date(now - span).toISOString() };
}

/** The tail's address with the same filters. */
export function tailUrl(environmentId: string, filters: RecordFilters): string {
  const params = new URLSearchParams(Object.entries(tailQuery(filters)) as [string, string][]);
  const search = params.toString();
  return `/api/logging/environments/${encodeURIComponent(environmentId)}/tail${search ? `?${search}` : ''}`;
}
