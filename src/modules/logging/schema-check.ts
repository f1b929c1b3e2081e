import type { LogFieldDefinition, LogFieldType, LogViolation } from '../../db/schema/index.js';
import { type IncomingRecord, parseTimestamp } from './record-input.js';

/** The record properties a schema may name besides fields (e.g. a required `service`). */
const CORE_NAMES = ['timestamp', 'level', 'message', 'service', 'traceId', 'spanId'] as const;
type CoreName = (typeof CORE_NAMES)[number];
const isCoreName = (name: string): name is CoreName => (CORE_NAMES as readonly string[]).includes(name);

function coreValue(record: IncomingRecord, name: CoreName): unknown {
  return name === 'timestamp' ? record.occurredAt.toISOString() : record[name];
}

const TYPE_CHECKS: Record<Exclude<LogFieldType, 'timestamp'>, (value: unknown) => boolean> = {
  string: (value) => typeof value === 'string',
  number: (value) => typeof value === 'number' && Number.isFinite(value),
  boolean: (value) => typeof value === 'boolean',
  object: (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
};

export interface SchemaCheck {
  violations: LogViolation[];
  /** The record's fields with `timestamp`-typed ones normalised to ISO-8601 UTC. */
  fields: Record<string, unknown>;
}

/**
 * Checks one record against its environment's schema: required fields present (null counts as
 * absent), values of the declared type, `timestamp` fields parsed (RFC 3339 or epoch ms) and
 * stored as ISO-8601 UTC. A schema field may name a core property (`message`, `service`, …) or a
 * field; paths are `[name]` for the former and `["fields", name]` for the latter.
 */
export function checkAgainstSchema(
  record: IncomingRecord,
  schema: readonly LogFieldDefinition[],
): SchemaCheck {
  if (schema.length === 0) return { violations: [], fields: record.fields };
  const violations: LogViolation[] = [];
  const fields = { ...record.fields };
  for (const field of schema) {
    const core = isCoreName(field.name);
    const path = core ? [field.name] : ['fields', field.name];
    const value = core ? coreValue(record, field.name as CoreName) : fields[field.name];
    if (value === undefined || value === null) {
      if (field.required) violations.push({ path, message: 'is required by the schema' });
      continue;
    }
    if (field.type === 'timestamp') {
      const parsed = parseTimestamp(value);
      if (!parsed) violations.push({ path, message: 'must be a timestamp (RFC 3339 or epoch milliseconds)' });
      else if (!core)
        Object.defineProperty(fields, field.name, {
          value: parsed.toISOString(),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      continue;
    }
    if (!TYPE_CHECKS[field.type](value)) violations.push({ path, message: `must be of type ${field.type}` });
  }
  return { violations, fields };
}
