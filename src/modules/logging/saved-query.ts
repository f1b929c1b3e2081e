import { type Static, Type } from 'typebox';
import { type ValidationIssue, validationError } from '../../core/errors.js';
import { StringEnum } from '../../core/http-schemas.js';
import { LOG_LEVELS, type SavedQuery as StoredQuery } from '../../db/schema/index.js';
import { MATCH_MODES, type RecordFilter } from './record-filters.js';
import { MAX_FIELD_NAME_LENGTH } from './record-input.js';

const MAX_FIELD_FILTERS = 20;
const Service = Type.String({ minLength: 1, maxLength: 255 });
const FieldValues = (description: string) =>
  Type.Record(Type.String(), Type.String({ maxLength: 1000 }), {
    maxProperties: MAX_FIELD_FILTERS,
    description,
  });

/**
 * A search without its time range, as saved searches and alert rules on logs keep it: the same
 * filters as the query string of a record search, as JSON.
 */
export const SavedQuery = Type.Object(
  {
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'full text, as `q`' })),
    levels: Type.Optional(
      Type.Array(StringEnum(LOG_LEVELS), { minItems: 1, maxItems: LOG_LEVELS.length, uniqueItems: true }),
    ),
    services: Type.Optional(
      Type.Array(Service, { minItems: 1, maxItems: 20, uniqueItems: true, description: 'any of these' }),
    ),
    excludedServices: Type.Optional(
      Type.Array(Service, { minItems: 1, maxItems: 20, uniqueItems: true, description: 'none of these' }),
    ),
    fields: Type.Optional(FieldValues('`field.<name>=<value>` filters')),
    excludedFields: Type.Optional(FieldValues('`field.<name>!=<value>` filters')),
    match: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'as `match`' })),
    mode: Type.Optional(StringEnum(MATCH_MODES, 'as `mode` (default substring)')),
  },
  { additionalProperties: false, title: 'SavedLogQuery' },
);
export type SavedQuery = Static<typeof SavedQuery>;

/** What a schema cannot say: field names' lengths, how many field filters, `mode` only with `match`. */
export function checkSavedQuery(query: SavedQuery, path: string[]): void {
  const issues: ValidationIssue[] = [];
  const fields = [...Object.keys(query.fields ?? {}), ...Object.keys(query.excludedFields ?? {})];
  if (fields.some((name) => name.length === 0 || name.length > MAX_FIELD_NAME_LENGTH))
    issues.push({
      path: [...path, 'fields'],
      message: `field names are 1–${MAX_FIELD_NAME_LENGTH} characters`,
    });
  if (fields.length > MAX_FIELD_FILTERS)
    issues.push({ path: [...path, 'fields'], message: `at most ${MAX_FIELD_FILTERS} field filters` });
  if (query.mode !== undefined && query.match === undefined)
    issues.push({ path: [...path, 'mode'], message: 'applies to `match` only' });
  if (issues.length > 0) throw validationError(issues);
}

/** The record filter of a saved query over a time range. */
export function filterOfQuery(query: StoredQuery, range: { from?: Date; to?: Date } = {}): RecordFilter {
  return {
    ...range,
    ...(query.levels ? { levels: query.levels } : {}),
    ...(query.services ? { services: query.services } : {}),
    ...(query.excludedServices ? { excludedServices: query.excludedServices } : {}),
    ...(query.q !== undefined ? { q: query.q } : {}),
    ...(query.match !== undefined ? { match: { text: query.match, mode: query.mode ?? 'substring' } } : {}),
    fields: Object.entries(query.fields ?? {}),
    excludedFields: Object.entries(query.excludedFields ?? {}),
  };
}

/**
 * The query string of a record search with the saved query's filters (a link to the search); a
 * query with several services links to the first of each, since `service` takes one.
 */
export function searchParamsOf(query: StoredQuery, range: { from?: Date; to?: Date } = {}): URLSearchParams {
  const params = new URLSearchParams();
  if (range.from) params.set('from', range.from.toISOString());
  if (range.to) params.set('to', range.to.toISOString());
  if (query.levels) params.set('level', query.levels.join(','));
  if (query.services?.[0]) params.set('service', query.services[0]);
  if (query.excludedServices?.[0]) params.set('service!', query.excludedServices[0]);
  if (query.q !== undefined) params.set('q', query.q);
  if (query.match !== undefined) params.set('match', query.match);
  if (query.mode !== undefined) params.set('mode', query.mode);
  for (const [name, value] of Object.entries(query.fields ?? {})) params.set(`field.${name}`, value);
  for (const [name, value] of Object.entries(query.excludedFields ?? {})) params.set(`field.${name}!`, value);
  return params;
}
