import type { ValidationIssue } from '../../core/errors.js';
import { unstorableText } from '../../core/storable-text.js';
import type { LogLevel } from '../../db/schema/index.js';
import { LEVEL_INPUT_RULE, levelOf } from './levels.js';

/** A record as ingest stores it, whichever protocol brought it. */
export interface IncomingRecord {
  occurredAt: Date;
  level: LogLevel;
  message: string;
  service: string | null;
  traceId: string | null;
  spanId: string | null;
  fields: Record<string, unknown>;
}

/** One record of a request: ready to store, or what is wrong with it (paths inside the record). */
export type RecordParse = { record: IncomingRecord } | { issues: ValidationIssue[] };

export const MAX_MESSAGE_LENGTH = 65_536;
const MAX_SERVICE_LENGTH = 255;
export const MAX_FIELD_NAME_LENGTH = 200;
const MAX_FIELD_DEPTH = 32;
/** The record properties with a meaning of their own; every other property is a field. */
const CORE = new Set(['timestamp', 'level', 'message', 'service', 'traceId', 'spanId', 'fields']);
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
/** The largest instant a JavaScript Date holds (±8.64e15 ms). */
const MAX_EPOCH_MS = 8.64e15;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An RFC 3339 date-time or epoch milliseconds; undefined when it is neither. */
export function parseTimestamp(value: unknown): Date | undefined {
  const text = typeof value === 'string' && RFC3339.test(value) ? value : undefined;
  const ms =
    typeof value === 'number'
      ? value
      : text
        ? Date.parse(`${text.slice(0, 10)}T${text.slice(11).toUpperCase()}`)
        : NaN;
  if (!Number.isFinite(ms) || Math.abs(ms) > MAX_EPOCH_MS) return undefined;
  // Date.parse rolls 31 February over into March (only days past the 28th can roll over).
  if (text && text.slice(8, 10) > '28' && !sameCalendarDate(text.slice(0, 10), text.slice(11), ms))
    return undefined;
  // Stored with millisecond precision, which keeps the search cursor exact.
  return new Date(Math.floor(ms));
}

function sameCalendarDate(date: string, time: string, ms: number): boolean {
  const zone = /([+-])(\d{2}):(\d{2})$/.exec(time);
  const offsetMs = zone ? (zone[1] === '-' ? -1 : 1) * (Number(zone[2]) * 60 + Number(zone[3])) * 60_000 : 0;
  const local = new Date(ms + offsetMs);
  return Number.isFinite(local.getTime()) && local.toISOString().slice(0, 10) === date;
}

interface Frame {
  value: unknown;
  key: string | number | undefined;
  parent: Frame | undefined;
  depth: number;
}

const pathOf = (frame: Frame, base: (string | number)[]): (string | number)[] => {
  const keys: (string | number)[] = [];
  for (let at: Frame | undefined = frame; at?.key !== undefined; at = at.parent) keys.unshift(at.key);
  return [...base, ...keys];
};

/**
 * What PostgreSQL cannot store in text or jsonb (a NUL, an unpaired UTF-16 surrogate) and nesting
 * deeper than {@link MAX_FIELD_DEPTH}, found without recursion; the first problem, or undefined.
 * This runs on every value of every record ingested, so a path is built only for a problem.
 */
export function unstorable(value: unknown, path: (string | number)[]): ValidationIssue | undefined {
  if (typeof value === 'string') {
    const problem = unstorableText(value);
    return problem ? { path, message: problem } : undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const pending: Frame[] = [{ value, key: undefined, parent: undefined, depth: 0 }];
  for (let frame = pending.pop(); frame; frame = pending.pop()) {
    if (frame.depth === MAX_FIELD_DEPTH)
      return { path: pathOf(frame, path), message: `nests deeper than ${MAX_FIELD_DEPTH} levels` };
    const container = frame.value as Record<string, unknown>;
    const isArray = Array.isArray(container);
    for (const key of Object.keys(container)) {
      const item = container[key];
      const at: Frame = {
        value: item,
        key: isArray ? Number(key) : key,
        parent: frame,
        depth: frame.depth + 1,
      };
      const keyProblem = isArray ? undefined : unstorableText(key);
      if (keyProblem) return { path: pathOf(at, path), message: `has a key that ${keyProblem}` };
      if (typeof item === 'string') {
        const problem = unstorableText(item);
        if (problem) return { path: pathOf(at, path), message: problem };
      } else if (typeof item === 'object' && item !== null) pending.push(at);
    }
  }
  return undefined;
}

/** A trace or span id as lowercase hex of `length` characters, null when absent. */
function hexId(value: unknown, length: number, name: string, issues: ValidationIssue[]): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'string' && value.length === length && /^[0-9a-fA-F]+$/.test(value))
    return value.toLowerCase();
  issues.push({ path: [name], message: `must be ${length} hexadecimal characters` });
  return null;
}

/**
 * The fields of a JSON record: the properties of its `fields` object and every property that is not
 * a core one. The same name in both places is an error, not a silent choice.
 */
function fieldsOf(input: Record<string, unknown>, issues: ValidationIssue[]): Record<string, unknown> {
  const entries: [string, unknown][] = [];
  const nested = input.fields;
  if (nested !== undefined && nested !== null && !isObject(nested))
    issues.push({ path: ['fields'], message: 'must be an object' });
  const names = new Set<string>();
  const add = (name: string, value: unknown, path: (string | number)[]) => {
    if (names.has(name)) return issues.push({ path, message: 'is given both inside and outside `fields`' });
    if (name.length === 0 || name.length > MAX_FIELD_NAME_LENGTH)
      return issues.push({ path, message: `field names are 1–${MAX_FIELD_NAME_LENGTH} characters` });
    const problem = unstorable(value, path) ?? unstorable(name, path);
    if (problem) return issues.push(problem);
    names.add(name);
    entries.push([name, value]);
  };
  if (isObject(nested))
    for (const [name, value] of Object.entries(nested)) add(name, value, ['fields', name]);
  for (const [name, value] of Object.entries(input)) if (!CORE.has(name)) add(name, value, [name]);
  // fromEntries defines own properties: a field named __proto__ stays a field.
  return Object.fromEntries(entries);
}

function optionalText(value: unknown, name: string, max: number, issues: ValidationIssue[]): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') {
    issues.push({ path: [name], message: 'must be a string' });
    return null;
  }
  const problem = value.length > max ? `must be at most ${max} characters` : unstorableText(value);
  if (problem) issues.push({ path: [name], message: problem });
  return value;
}

/**
 * One record of `POST /api/logging/ingest` (a parsed JSON value): `timestamp` (RFC 3339 or epoch ms,
 * default `receivedAt`), `level` (default info), `message` (required), `service`, `traceId`,
 * `spanId`, and fields.
 */
export function parseJsonRecord(input: unknown, receivedAt: Date): RecordParse {
  if (!isObject(input)) return { issues: [{ path: [], message: 'must be a JSON object' }] };
  const issues: ValidationIssue[] = [];
  const occurredAt = input.timestamp === undefined ? receivedAt : parseTimestamp(input.timestamp);
  if (!occurredAt)
    issues.push({ path: ['timestamp'], message: 'must be an RFC 3339 date-time or epoch milliseconds' });
  const level = input.level === undefined ? 'info' : levelOf(input.level);
  if (!level) issues.push({ path: ['level'], message: `must be ${LEVEL_INPUT_RULE}` });
  if (input.message === undefined || input.message === null)
    issues.push({ path: ['message'], message: 'is required' });
  const message = optionalText(input.message, 'message', MAX_MESSAGE_LENGTH, issues) ?? '';
  const service = optionalText(input.service, 'service', MAX_SERVICE_LENGTH, issues);
  const traceId = hexId(input.traceId, 32, 'traceId', issues);
  const spanId = hexId(input.spanId, 16, 'spanId', issues);
  const fields = fieldsOf(input, issues);
  if (issues.length > 0 || !occurredAt || !level) return { issues };
  return { record: { occurredAt, level, message, service, traceId, spanId, fields } };
}
