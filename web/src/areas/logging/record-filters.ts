import type { Query } from '../../api/types';

export const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;

/** The time ranges the search offers, each a span back from now. */
export const RANGES = [
  { value: '15m', label: 'Last 15 minutes', ms: 15 * 60_000 },
  { value: '1h', label: 'Last hour', ms: 3_600_000 },
  { value: '24h', label: 'Last 24 hours', ms: 86_400_000 },
  { value: '7d', label: 'Last 7 days', ms: 7 * 86_400_000 },
] as const;

export type PresetRange = (typeof RANGES)[number]['value'];
/** A preset, or `custom`: from `from` to `to`. */
export type RangeKey = PresetRange | 'custom';

const DEFAULT_RANGE: PresetRange = '24h';

/** What the search bar holds, and what the address says. */
export interface RecordFilters {
  q: string;
  levels: string[];
  service: string;
  range: RangeKey;
  /** ISO-8601 instants of a custom range; empty for a preset. */
  from: string;
  to: string;
  /** `name=value`, each one `field.<name>=<value>` of the API. */
  fields: string[];
  /** `name=value`, each one `field.<name>!=<value>`: the field is absent or holds another value. */
  excluded: string[];
}

export const NO_FILTERS: RecordFilters = {
  q: '',
  levels: [],
  service: '',
  range: DEFAULT_RANGE,
  from: '',
  to: '',
  fields: [],
  excluded: [],
};

/** `field.<name>` filters are not in the OpenAPI document (their names are the records' own). */
type FieldFilters = Partial<Record<`field.${string}`, string>>;
export type TailQuery = Omit<
  Query<'/api/logging/environments/{id}/records', 'get'>,
  'from' | 'to' | 'cursor' | 'limit'
> &
  FieldFilters;
export type SearchQuery = TailQuery & { from: string; to?: string };

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
  // `field.status!=500` excludes: the `!` ends the parameter's name (docs/api/logging.md).
  for (const [suffix, texts] of [
    ['', filters.fields],
    ['!', filters.excluded],
  ] as const) {
    for (const text of texts) {
      const parsed = parseFieldFilter(text);
      if (parsed) query[`field.${parsed[0]}${suffix}`] = parsed[1];
    }
  }
  return query;
}

/** Why a custom range cannot be searched, or undefined when it can (or the range is a preset). */
export function rangeProblem(filters: RecordFilters): string | undefined {
  if (filters.range !== 'custom') return undefined;
  const from = Date.parse(filters.from);
  const to = Date.parse(filters.to);
  if (Number.isNaN(from) || Number.isNaN(to)) return 'Give both From and To, with date and time.';
  return from < to ? undefined : 'From must be before To.';
}

/** The filters with their time range: a preset counts back from `now`, a custom range is as given. */
export function searchQuery(filters: RecordFilters, now: number): SearchQuery {
  if (filters.range === 'custom' && !rangeProblem(filters))
    return { ...tailQuery(filters), from: filters.from, to: filters.to };
  const span = RANGES.find((range) => range.value === filters.range)?.ms ?? RANGES[2].ms;
  return { ...tailQuery(filters), from: new Date(now - span).toISOString() };
}

/** The tail's address with the same filters. */
export function tailUrl(environmentId: string, filters: RecordFilters): string {
  const params = new URLSearchParams(Object.entries(tailQuery(filters)) as [string, string][]);
  const search = params.toString();
  return `/api/logging/environments/${encodeURIComponent(environmentId)}/tail${search ? `?${search}` : ''}`;
}

const isLevel = (name: string) => (LEVELS as readonly string[]).includes(name);
const isPreset = (name: string | null): name is PresetRange => RANGES.some((range) => range.value === name);
const isInstant = (text: string | null): text is string => text !== null && !Number.isNaN(Date.parse(text));

/**
 * The search an address holds (`?q=timeout&level=error&field=route%3D%2Fpay&from=…&to=…`), so a
 * reload or a shared link shows the same records; what the address gets wrong is no filter.
 */
export function recordFiltersFrom(params: URLSearchParams): RecordFilters {
  const from = params.get('from');
  const to = params.get('to');
  const custom = isInstant(from) && isInstant(to);
  const range = params.get('range');
  return {
    q: params.get('q') ?? '',
    levels: (params.get('level') ?? '').split(',').filter(isLevel),
    service: params.get('service') ?? '',
    range: custom ? 'custom' : isPreset(range) ? range : DEFAULT_RANGE,
    from: custom ? new Date(from).toISOString() : '',
    to: custom ? new Date(to).toISOString() : '',
    fields: params.getAll('field').filter((text) => parseFieldFilter(text)),
    excluded: params.getAll('not').filter((text) => parseFieldFilter(text)),
  };
}

/** The address's parameters with this search in place of the old one; defaults are left out. */
export function withRecordFilters(params: URLSearchParams, filters: RecordFilters): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const name of ['q', 'level', 'service', 'range', 'from', 'to', 'field', 'not']) next.delete(name);
  const set = (name: string, value: string) => value && next.set(name, value);
  set('q', filters.q.trim());
  set('level', filters.levels.join(','));
  set('service', filters.service.trim());
  if (filters.range === 'custom' && !rangeProblem(filters)) {
    set('from', filters.from);
    set('to', filters.to);
  } else if (filters.range !== DEFAULT_RANGE && filters.range !== 'custom') set('range', filters.range);
  for (const text of filters.fields) next.append('field', text);
  for (const text of filters.excluded) next.append('not', text);
  return next;
}

/** The filters with `name=value` required, in place of any earlier filter or exclusion of that field. */
export function withFieldValue(filters: RecordFilters, name: string, value: string, exclude = false) {
  const other = (text: string) => parseFieldFilter(text)?.[0] !== name;
  const pair = `${name}=${value}`;
  return {
    ...filters,
    fields: [...filters.fields.filter(other), ...(exclude ? [] : [pair])],
    excluded: [...filters.excluded.filter(other), ...(exclude ? [pair] : [])],
  };
}

/**
 * The filters without `level`: of the levels chosen (all when none are), every other one; undefined
 * when that leaves none (no levels chosen means any level, not no level).
 */
export function withoutLevel(filters: RecordFilters, level: string): RecordFilters | undefined {
  const chosen = filters.levels.length > 0 ? filters.levels : [...LEVELS];
  const levels = chosen.filter((each) => each !== level);
  return levels.length > 0 ? { ...filters, levels } : undefined;
}
