import { and, eq, gte, inArray, lt, not, notInArray, or, type SQL, sql } from 'drizzle-orm';
import { invalidField, type ValidationIssue, validationError } from '../../core/errors.js';
import { LOG_LEVELS, type LogLevel, logRecords } from '../../db/schema/index.js';
import { MAX_FIELD_NAME_LENGTH } from './record-input.js';

export const MATCH_MODES = ['substring', 'regex'] as const;
export type MatchMode = (typeof MATCH_MODES)[number];

/** What search, facets, histogram, tail, export and alert rules filter on; all given conditions must hold. */
export interface RecordFilter {
  from?: Date;
  to?: Date;
  levels?: LogLevel[];
  /** Any of these services. */
  services?: string[];
  /** None of these services. */
  excludedServices?: string[];
  q?: string;
  /** A substring (case-insensitive) or a regular expression (PostgreSQL's) the message must match. */
  match?: { text: string; mode: MatchMode };
  /** `field.<name>=<value>` pairs. */
  fields: [string, string][];
  /** `field.<name>!=<value>` pairs: the field is absent or holds another value. */
  excludedFields: [string, string][];
}

const FIELD_PREFIX = 'field.';
/** `field.status!=500` reaches the server as the parameter `field.status!` with the value `500`. */
const NEGATED = '!';
const MAX_FIELD_FILTERS = 20;
const isLevel = (name: string): name is LogLevel => (LOG_LEVELS as readonly string[]).includes(name);

function timeOf(value: unknown, name: string): Date | undefined {
  if (value === undefined) return undefined;
  const time = new Date(String(value));
  if (Number.isNaN(time.getTime())) throw invalidField([name], 'must be a date-time');
  return time;
}

/**
 * The filter of a validated query string: `from`, `to`, `level` (comma-separated), `service`,
 * `service!`, `q`, `match` with `mode`, and every `field.<name>` and `field.<name>!` parameter
 * (their names and lengths were checked by the route schema).
 */
export function readFilter(query: Record<string, unknown>): RecordFilter {
  const issues: ValidationIssue[] = [];
  const filter: RecordFilter = { fields: [], excludedFields: [] };
  const from = timeOf(query.from, 'from');
  const to = timeOf(query.to, 'to');
  if (from) filter.from = from;
  if (to) filter.to = to;
  if (from && to && from >= to) issues.push({ path: ['from'], message: 'must be before `to`' });
  if (typeof query.level === 'string') {
    const names = query.level.split(',').map((name) => name.trim().toLowerCase());
    const unknown = names.filter((name) => !isLevel(name));
    if (unknown.length > 0)
      issues.push({ path: ['level'], message: `must be levels from: ${LOG_LEVELS.join(', ')}` });
    else filter.levels = [...new Set(names as LogLevel[])];
  }
  if (typeof query.service === 'string') filter.services = [query.service];
  if (typeof query[`service${NEGATED}`] === 'string')
    filter.excludedServices = [query[`service${NEGATED}`] as string];
  if (typeof query.q === 'string') filter.q = query.q;
  if (typeof query.match === 'string')
    filter.match = { text: query.match, mode: query.mode === 'regex' ? 'regex' : 'substring' };
  else if (query.mode !== undefined) issues.push({ path: ['mode'], message: 'applies to `match` only' });
  for (const [key, value] of Object.entries(query)) {
    if (!key.startsWith(FIELD_PREFIX) || typeof value !== 'string') continue;
    const negated = key.endsWith(NEGATED);
    const name = key.slice(FIELD_PREFIX.length, negated ? -NEGATED.length : undefined);
    if (name.length === 0 || name.length > MAX_FIELD_NAME_LENGTH)
      issues.push({ path: [key], message: `field names are 1–${MAX_FIELD_NAME_LENGTH} characters` });
    else (negated ? filter.excludedFields : filter.fields).push([name, value]);
  }
  if (filter.fields.length + filter.excludedFields.length > MAX_FIELD_FILTERS)
    issues.push({ path: [], message: `at most ${MAX_FIELD_FILTERS} field.<name> filters` });
  if (issues.length > 0) throw validationError(issues);
  return filter;
}

/**
 * The JSON values a query-string value may stand for: always the text, and the number or boolean
 * it spells, since the parameter cannot say which type the record used.
 */
function candidates(text: string): unknown[] {
  const values: unknown[] = [text];
  const number = Number(text);
  if (text.trim() !== '' && Number.isFinite(number)) values.push(number);
  if (text === 'true' || text === 'false') values.push(text === 'true');
  return values;
}

/** One field condition as containment, which the GIN index on `fields` answers. */
function fieldCondition(name: string, text: string): SQL {
  const matches = candidates(text).map(
    (value) => sql`${logRecords.fields} @> ${JSON.stringify({ [name]: value })}::jsonb`,
  );
  return or(...matches)!;
}

/**
 * Full text on the message: `websearch_to_tsquery` reads what people type into search boxes
 * (words, "phrases", or, -not) and never fails on odd input. The configuration is written into the
 * statement, not sent as a parameter, so the expression matches the GIN index's.
 */
export const messageMatches = (q: string): SQL =>
  sql`to_tsvector('simple', ${logRecords.message}) @@ websearch_to_tsquery('simple', ${q})`;

/**
 * A substring (case-insensitive, no wildcards to escape) or a regular expression on the message. No
 * index serves either: the caller bounds the range they read (see RecordSearch).
 */
function messageMatchesPattern({ text, mode }: NonNullable<RecordFilter['match']>): SQL {
  return mode === 'regex'
    ? sql`${logRecords.message} ~ ${text}`
    : sql`strpos(lower(${logRecords.message}), lower(${text})) > 0`;
}

/** The SQL conditions of a filter within one environment, or within any of several. */
export function filterConditions(environmentIds: string | string[], filter: RecordFilter): SQL {
  return and(
    typeof environmentIds === 'string'
      ? eq(logRecords.environmentId, environmentIds)
      : inArray(logRecords.environmentId, environmentIds),
    filter.from ? gte(logRecords.occurredAt, filter.from) : undefined,
    filter.to ? lt(logRecords.occurredAt, filter.to) : undefined,
    filter.levels ? inArray(logRecords.level, filter.levels) : undefined,
    filter.services ? inArray(logRecords.service, filter.services) : undefined,
    // A record without a service is not one of the excluded services.
    filter.excludedServices
      ? or(sql`${logRecords.service} is null`, notInArray(logRecords.service, filter.excludedServices))
      : undefined,
    filter.q !== undefined ? messageMatches(filter.q) : undefined,
    filter.match ? messageMatchesPattern(filter.match) : undefined,
    ...filter.fields.map(([name, value]) => fieldCondition(name, value)),
    ...filter.excludedFields.map(([name, value]) => not(fieldCondition(name, value))),
  )!;
}
