import { loggingEnvironments } from '../../db/schema/index.js';
import type { IngestLimits, LogEnvironment, LogEnvironmentChanges } from './schemas.js';

/** Each ingest limit of the API and the column that keeps it. */
const INGEST_COLUMNS = {
  maxBodyBytes: 'ingestMaxBodyBytes',
  maxRecords: 'ingestMaxRecords',
  recordsPerSecond: 'ingestRecordsPerSecond',
  bytesPerSecond: 'ingestBytesPerSecond',
  burstSeconds: 'ingestBurstSeconds',
} as const satisfies Record<keyof IngestLimits, keyof typeof loggingEnvironments.$inferSelect>;

export const environmentColumns = {
  id: loggingEnvironments.id,
  name: loggingEnvironments.name,
  folderId: loggingEnvironments.folderId,
  description: loggingEnvironments.description,
  schemaId: loggingEnvironments.schemaId,
  retentionDays: loggingEnvironments.retentionDays,
  onSchemaViolation: loggingEnvironments.onSchemaViolation,
  ingestMaxBodyBytes: loggingEnvironments.ingestMaxBodyBytes,
  ingestMaxRecords: loggingEnvironments.ingestMaxRecords,
  ingestRecordsPerSecond: loggingEnvironments.ingestRecordsPerSecond,
  ingestBytesPerSecond: loggingEnvironments.ingestBytesPerSecond,
  ingestBurstSeconds: loggingEnvironments.ingestBurstSeconds,
  createdAt: loggingEnvironments.createdAt,
  updatedAt: loggingEnvironments.updatedAt,
};

type EnvironmentRow = Pick<typeof loggingEnvironments.$inferSelect, keyof typeof environmentColumns>;
type EnvironmentColumns = Partial<typeof loggingEnvironments.$inferInsert>;

/** A row as the API shows it: the ingest limits grouped under `ingest`. */
export function environmentView(row: EnvironmentRow): LogEnvironment {
  const {
    ingestMaxBodyBytes,
    ingestMaxRecords,
    ingestRecordsPerSecond,
    ingestBytesPerSecond,
    ingestBurstSeconds,
    ...rest
  } = row;
  return {
    ...rest,
    ingest: {
      maxBodyBytes: ingestMaxBodyBytes,
      maxRecords: ingestMaxRecords,
      recordsPerSecond: ingestRecordsPerSecond,
      bytesPerSecond: ingestBytesPerSecond,
      burstSeconds: ingestBurstSeconds,
    },
  };
}

/** The columns of the ingest settings sent (limits not sent keep their value or default). */
export function settingColumns(
  input: Pick<LogEnvironmentChanges, 'onSchemaViolation' | 'ingest'>,
): EnvironmentColumns {
  const columns: EnvironmentColumns = {};
  if (input.onSchemaViolation !== undefined) columns.onSchemaViolation = input.onSchemaViolation;
  for (const [limit, column] of Object.entries(INGEST_COLUMNS) as [keyof IngestLimits, string][]) {
    const value = input.ingest?.[limit];
    if (value !== undefined) (columns as Record<string, unknown>)[column] = value;
  }
  return columns;
}

/** `{from, to}` of each changed setting, for the audit event of an update. */
export function changedSettings(
  before: LogEnvironment,
  changes: EnvironmentColumns,
): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  for (const key of ['name', 'folderId', 'schemaId', 'retentionDays', 'onSchemaViolation'] as const)
    if (changes[key] !== undefined) changed[key] = { from: before[key], to: changes[key] };
  for (const [limit, column] of Object.entries(INGEST_COLUMNS) as [
    keyof IngestLimits,
    keyof EnvironmentColumns,
  ][])
    if (changes[column] !== undefined)
      changed[`ingest.${limit}`] = { from: before.ingest[limit], to: changes[column] };
  return changed;
}
