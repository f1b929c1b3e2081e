import { invalidField, type ValidationIssue } from '../../core/errors.js';
import type { LogLevel } from '../../db/schema/index.js';
import { levelOf, levelOfSeverityNumber } from './levels.js';
import { type IncomingRecord, MAX_MESSAGE_LENGTH, type RecordParse, unstorable } from './record-input.js';

/**
 * OTLP log exports (JSON encoding, or protobuf decoded into it by otlp-protobuf.ts) as records:
 *   timestamp  timeUnixNano, else observedTimeUnixNano, else arrival (to the millisecond)
 *   level      severityNumber (4 steps per level), else severityText, else info
 *   message    body: a string as is, any other value as JSON text
 *   service    the resource attribute `service.name`
 *   traceId, spanId   the trace context (hex); all-zero ids count as absent
 *   fields     log record attributes under their own keys, resource attributes as `resource.<key>`,
 *              the scope as `scope.name`, `scope.version`, `scope.<key>`, and `severityText`,
 *              `eventName` when present
 */

type Json = Record<string, unknown>;
const MAX_VALUE_DEPTH = 32;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A repeated field: absent is empty; anything but an array of objects refuses the request. */
function list(owner: Json, name: string, path: (string | number)[]): Json[] {
  const value = owner[name];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every(isObject))
    throw invalidField([...path, name], 'must be an array of objects');
  return value;
}

class ValueError extends Error {}

/** An OTLP AnyValue as plain JSON. */
function plain(value: unknown, depth = 0): unknown {
  if (depth > MAX_VALUE_DEPTH) throw new ValueError(`nests deeper than ${MAX_VALUE_DEPTH} levels`);
  if (!isObject(value)) return null;
  if (typeof value.stringValue === 'string') return value.stringValue;
  if (typeof value.boolValue === 'boolean') return value.boolValue;
  if (value.intValue !== undefined) {
    const number = Number(value.intValue);
    return Number.isSafeInteger(number) ? number : String(value.intValue);
  }
  if (value.doubleValue !== undefined) {
    const number = Number(value.doubleValue);
    return Number.isFinite(number) ? number : null;
  }
  if (isObject(value.arrayValue)) {
    const values = value.arrayValue.values;
    return Array.isArray(values) ? values.map((item) => plain(item, depth + 1)) : [];
  }
  if (isObject(value.kvlistValue)) return attributeMap(value.kvlistValue.values, '', depth + 1);
  if (typeof value.bytesValue === 'string') return value.bytesValue;
  return null;
}

/** KeyValue list → object, keys prefixed; own properties only, so `__proto__` stays a key. */
function attributeMap(attributes: unknown, prefix: string, depth = 0): Json {
  if (!Array.isArray(attributes)) return {};
  return Object.fromEntries(
    attributes
      .filter((pair): pair is Json => isObject(pair) && typeof pair.key === 'string')
      .map((pair) => [`${prefix}${pair.key as string}`, plain(pair.value, depth)]),
  );
}

/** Nanoseconds since the epoch (decimal string or number) as a Date; undefined when absent or 0. */
function fromNanos(value: unknown): Date | undefined | 'invalid' {
  if (value === undefined || value === null || value === 0 || value === '0') return undefined;
  const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
  if (typeof text !== 'string' || !/^\d{1,20}$/.test(text)) return 'invalid';
  const ms = Number(BigInt(text) / 1_000_000n);
  return ms > 8.64e15 ? 'invalid' : new Date(ms);
}

const SEVERITY_NAME = /^SEVERITY_NUMBER_(TRACE|DEBUG|INFO|WARN|ERROR|FATAL)\d?$/;

function levelOfRecord(log: Json): LogLevel {
  const severity = log.severityNumber;
  if (typeof severity === 'number') {
    const level = levelOfSeverityNumber(severity);
    if (level) return level;
  }
  if (typeof severity === 'string') {
    const named = SEVERITY_NAME.exec(severity)?.[1];
    if (named) return named.toLowerCase() as LogLevel;
  }
  return levelOf(log.severityText) ?? 'info';
}

/** Hex trace context; a wrong length is an issue, all zeros (W3C "invalid") is absent. */
function contextId(log: Json, name: string, bytes: number, issues: ValidationIssue[]): string | null {
  const value = log[name];
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string' || !new RegExp(`^[0-9a-fA-F]{${bytes * 2}}$`).test(value)) {
    issues.push({ path: [name], message: `must be ${bytes} bytes (${bytes * 2} hexadecimal characters)` });
    return null;
  }
  return /^0+$/.test(value) ? null : value.toLowerCase();
}

function messageOf(body: unknown): string {
  const value = plain(body);
  if (value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function toRecord(log: Json, context: Json, service: string | null, receivedAt: Date): RecordParse {
  const issues: ValidationIssue[] = [];
  const time = fromNanos(log.timeUnixNano);
  const observed = fromNanos(log.observedTimeUnixNano);
  if (time === 'invalid')
    issues.push({ path: ['timeUnixNano'], message: 'must be nanoseconds since the epoch' });
  if (observed === 'invalid')
    issues.push({ path: ['observedTimeUnixNano'], message: 'must be nanoseconds since the epoch' });
  const traceId = contextId(log, 'traceId', 16, issues);
  const spanId = contextId(log, 'spanId', 8, issues);
  let message = '';
  let fields: Json = {};
  try {
    message = messageOf(log.body);
    fields = {
      ...context,
      ...(typeof log.severityText === 'string' && log.severityText ? { severityText: log.severityText } : {}),
      ...(typeof log.eventName === 'string' && log.eventName ? { eventName: log.eventName } : {}),
      ...attributeMap(log.attributes, ''),
    };
  } catch (error) {
    if (!(error instanceof ValueError)) throw error;
    issues.push({ path: ['attributes'], message: error.message });
  }
  if (message.length > MAX_MESSAGE_LENGTH)
    issues.push({ path: ['body'], message: `must be at most ${MAX_MESSAGE_LENGTH} characters` });
  const problem = unstorable(message, ['body']) ?? unstorable(fields, ['attributes']);
  if (problem) issues.push(problem);
  if (issues.length > 0) return { issues };
  const occurredAt = (time as Date | undefined) ?? (observed as Date | undefined) ?? receivedAt;
  const record: IncomingRecord = {
    occurredAt,
    level: levelOfRecord(log),
    message,
    service,
    traceId,
    spanId,
    fields,
  };
  return { record };
}

/** Attributes shared by many records (resource, scope): a bad value refuses the whole request. */
function shared(map: () => Json, path: (string | number)[]): Json {
  try {
    return map();
  } catch (error) {
    if (error instanceof ValueError) throw invalidField([...path, 'attributes'], error.message);
    throw error;
  }
}

/** Every log record of an export request (OTLP/JSON shape), in order. */
export function otlpRecords(request: unknown, receivedAt: Date): RecordParse[] {
  if (!isObject(request)) throw invalidField([], 'must be an ExportLogsServiceRequest object');
  const parsed: RecordParse[] = [];
  list(request, 'resourceLogs', []).forEach((resourceLogs, r) => {
    const resourcePath = ['resourceLogs', r];
    const resource = isObject(resourceLogs.resource) ? resourceLogs.resource : {};
    const resourceFields = shared(
      () => attributeMap(resource.attributes, 'resource.'),
      [...resourcePath, 'resource'],
    );
    const serviceName = resourceFields['resource.service.name'];
    const service = typeof serviceName === 'string' && serviceName.length <= 255 ? serviceName : null;
    list(resourceLogs, 'scopeLogs', resourcePath).forEach((scopeLogs, s) => {
      const scopePath = [...resourcePath, 'scopeLogs', s];
      const scope = isObject(scopeLogs.scope) ? scopeLogs.scope : {};
      const context: Json = {
        ...resourceFields,
        ...shared(() => attributeMap(scope.attributes, 'scope.'), [...scopePath, 'scope']),
        ...(typeof scope.name === 'string' && scope.name ? { 'scope.name': scope.name } : {}),
        ...(typeof scope.version === 'string' && scope.version ? { 'scope.version': scope.version } : {}),
      };
      for (const log of list(scopeLogs, 'logRecords', scopePath))
        parsed.push(toRecord(log, context, service, receivedAt));
    });
  });
  return parsed;
}
