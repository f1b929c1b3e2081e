import { Badge, Code, Text } from '@mantine/core';
import { type Column, DataTable } from '../../components/DataTable';
import { formatDateTime } from '../../components/format';
import type { LogRecord } from './queries';

const LEVEL_COLOURS: Record<string, string> = {
  trace: 'gray',
  debug: 'gray',
  info: 'blue',
  warn: 'yellow',
  error: 'red',
  fatal: 'grape',
};

/** A record's fields (and schema violations), folded until someone opens them. */
function RecordDetails({ record }: { record: LogRecord }) {
  const names = Object.keys(record.fields);
  const extra = {
    ...record.fields,
    ...(record.traceId ? { traceId: record.traceId, spanId: record.spanId } : {}),
    ...(record.violations ? { violations: record.violations } : {}),
  };
  if (Object.keys(extra).length === 0) return null;
  return (
    <details>
      <summary>
        <Text span size="xs">
          {names.length} field{names.length === 1 ? '' : 's'}
          {record.violations ? ', breaks the schema' : ''}
        </Text>
      </summary>
      <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {JSON.stringify(extra, null, 2)}
      </Code>
    </details>
  );
}

const COLUMNS: Column<LogRecord>[] = [
  { header: 'Time', cell: (record) => formatDateTime(record.timestamp) },
  {
    header: 'Level',
    cell: (record) => (
      <Badge color={LEVEL_COLOURS[record.level] ?? 'gray'} variant="light">
        {record.level}
      </Badge>
    ),
  },
  { header: 'Service', cell: (record) => record.service ?? '—' },
  {
    header: 'Message',
    cell: (record) => (
      <div style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
        <Text size="sm">{record.message}</Text>
        <RecordDetails record={record} />
      </div>
    ),
  },
];

/** Log records, newest first, each with its fields folded under it. */
export function RecordList({ label, records }: { label: string; records: readonly LogRecord[] }) {
  return <DataTable label={label} columns={COLUMNS} rows={records} rowKey={(record) => record.id} />;
}
