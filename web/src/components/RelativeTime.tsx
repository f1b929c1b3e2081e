import { formatExactDateTime, formatRelative } from './format';

/**
 * A time as every list of the console shows it: relative ("3 min ago", "in 12 days"), the exact
 * time with its time zone on hover and to assistive technology (`<time dateTime>`); `—` for none.
 */
export function RelativeTime({ value }: { value: string | null | undefined }) {
  if (!value) return '—';
  return (
    <time dateTime={value} title={formatExactDateTime(value)}>
      {formatRelative(value)}
    </time>
  );
}
