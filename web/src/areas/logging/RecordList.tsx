import { type CSSProperties, useState } from 'react';
import { levelColour } from './level-colours';
import type { LogRecord } from './queries';
import { RecordFields } from './RecordFields';
import classes from './RecordList.module.css';
import type { RecordFilters } from './record-filters';
import { exactTime, recordTime } from './record-time';

/** A level as a fixed-width coloured word. */
export function LevelBadge({ level }: { level: string }) {
  const colour = levelColour(level);
  return (
    <span
      className={classes.badge}
      style={
        {
          '--badge-text': `var(--mantine-color-${colour}-light-color)`,
          '--badge-back': `var(--mantine-color-${colour}-light)`,
        } as CSSProperties
      }
    >
      {level}
    </span>
  );
}

/** One record's line and, once opened, its message in full and its fields below it. */
function RecordLine({
  record,
  filters,
  onApply,
}: {
  record: LogRecord;
  filters: RecordFilters;
  onApply: (filters: RecordFilters) => void;
}) {
  const [open, setOpen] = useState(false);
  const { date, time } = recordTime(record.timestamp);
  const exact = exactTime(record.timestamp);
  return (
    <>
      <tr className={classes.line}>
        <td>
          <button
            type="button"
            className={classes.toggle}
            aria-expanded={open}
            aria-label={`Details of the record at ${time}`}
            onClick={() => setOpen(!open)}
          >
            {open ? '▾' : '▸'}
          </button>
          <time dateTime={record.timestamp} title={exact}>
            <span className={classes.date}>{date} </span>
            {time}
          </time>
        </td>
        <td>
          <LevelBadge level={record.level} />
        </td>
        <td className={classes.service} title={record.service ?? undefined}>
          {record.service ?? '—'}
        </td>
        <td className={classes.message} title={record.message}>
          {record.message}
          {record.violations ? ' ⚠' : ''}
        </td>
      </tr>
      {open && (
        <tr className={classes.details}>
          <td colSpan={4}>
            <pre className={classes.fullMessage}>{record.message}</pre>
            <RecordFields record={record} exact={exact} filters={filters} onApply={onApply} />
          </td>
        </tr>
      )}
    </>
  );
}

/** Log records, newest first, one line each; a line opens into the record's fields. */
export function RecordList({
  label,
  records,
  filters,
  onApply,
}: {
  label: string;
  records: readonly LogRecord[];
  /** The search shown, which "filter on this" and "exclude this" change. */
  filters: RecordFilters;
  onApply: (filters: RecordFilters) => void;
}) {
  return (
    <table className={classes.list} aria-label={label}>
      <thead>
        <tr>
          <th className={classes.time}>Time</th>
          <th className={classes.level}>Level</th>
          <th className={classes.service}>Service</th>
          <th>Message</th>
        </tr>
      </thead>
      <tbody>
        {records.map((record) => (
          <RecordLine key={record.id} record={record} filters={filters} onApply={onApply} />
        ))}
      </tbody>
    </table>
  );
}
