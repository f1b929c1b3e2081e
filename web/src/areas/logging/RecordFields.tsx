import { Button, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import type { LogRecord } from './queries';
import classes from './RecordFields.module.css';
import { type RecordFilters, withFieldValue, withoutLevel } from './record-filters';

/** What a value's "filter on this" and "exclude this" do; absent where the API cannot do it. */
interface ValueActions {
  filter?: RecordFilters;
  exclude?: RecordFilters;
}

interface Row {
  /** Unique in the record: a field may be named like the record's own `level`. */
  key: string;
  name: string;
  value: string;
  actions: ValueActions;
}

/** A field's value as text: strings as they are, everything else as JSON. */
const valueText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * The rows of a record: its level, service, fields, trace and time. A field filter matches text,
 * numbers and booleans (`field.<name>=<value>` of the API), so only those offer the actions; the
 * API has no negated service filter, so the service offers "filter on this" alone.
 */
function rows(record: LogRecord, exact: string, filters: RecordFilters): Row[] {
  const shown: Row[] = [
    { key: 'time', name: 'time', value: exact, actions: {} },
    {
      key: 'level',
      name: 'level',
      value: record.level,
      actions: {
        filter: { ...filters, levels: [record.level] },
        exclude: withoutLevel(filters, record.level),
      },
    },
  ];
  if (record.service)
    shown.push({
      key: 'service',
      name: 'service',
      value: record.service,
      actions: { filter: { ...filters, service: record.service } },
    });
  for (const [name, value] of Object.entries(record.fields)) {
    const scalar = ['string', 'number', 'boolean'].includes(typeof value);
    const text = valueText(value);
    shown.push({
      key: `fields.${name}`,
      name,
      value: text,
      actions: scalar
        ? { filter: withFieldValue(filters, name, text), exclude: withFieldValue(filters, name, text, true) }
        : {},
    });
  }
  if (record.traceId) shown.push({ key: 'traceId', name: 'trace id', value: record.traceId, actions: {} });
  if (record.spanId) shown.push({ key: 'spanId', name: 'span id', value: record.spanId, actions: {} });
  for (const [index, violation] of (record.violations ?? []).entries())
    shown.push({
      key: `violation.${index}`,
      name: 'breaks the schema',
      value: `${violation.path.join('.')} ${violation.message}`,
      actions: {},
    });
  return shown;
}

/** A record's values as a name/value table, each value with "filter on this" and "exclude this". */
export function RecordFields({
  record,
  exact,
  filters,
  onApply,
}: {
  record: LogRecord;
  exact: string;
  filters: RecordFilters;
  onApply: (filters: RecordFilters) => void;
}) {
  const action = (label: string, row: Row, next: RecordFilters | undefined): ReactNode =>
    next && (
      <Button
        size="compact-xs"
        variant="subtle"
        aria-label={`${label}: ${row.name} = ${row.value}`}
        onClick={() => onApply(next)}
      >
        {label}
      </Button>
    );
  return (
    <table className={classes.fields} aria-label="Fields of the record">
      <tbody>
        {rows(record, exact, filters).map((row) => (
          <tr key={row.key}>
            <th scope="row">{row.name}</th>
            <td>{row.value}</td>
            <td className={classes.actions}>
              <Group gap={4} wrap="nowrap">
                {action('Filter on this', row, row.actions.filter)}
                {action('Exclude this', row, row.actions.exclude)}
              </Group>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
