const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const exactDateTime = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'full',
  timeStyle: 'long',
});

/** An ISO timestamp of the API in the reader's locale and time zone; `—` for none. */
export function formatDateTime(iso: string | null | undefined): string {
  return iso ? dateTime.format(new Date(iso)) : '—';
}

/** The exact time with its time zone, for the hover of a relative time. */
export function formatExactDateTime(iso: string): string {
  return exactDateTime.format(new Date(iso));
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The step a relative time counts in, the largest that keeps the number at least 1. */
const STEPS: [limit: number, size: number, unit: string][] = [
  [HOUR, MINUTE, 'min'],
  [DAY, HOUR, 'h'],
  [60 * DAY, DAY, 'day'],
];

/**
 * `just now`, `3 min ago`, `in 2 h`, `5 days ago`: how far a time lies from `now`, as peers show it in
 * lists; beyond two months, the date itself (a count of days stops meaning much).
 */
export function formatRelative(iso: string, now: number = Date.now()): string {
  const difference = new Date(iso).getTime() - now;
  const distance = Math.abs(difference);
  if (distance < MINUTE) return 'just now';
  const step = STEPS.find(([limit]) => distance < limit);
  if (!step) return formatDateTime(iso);
  const count = Math.floor(distance / step[1]);
  const unit = step[2] === 'day' && count !== 1 ? 'days' : step[2];
  return difference < 0 ? `${count} ${unit} ago` : `in ${count} ${unit}`;
}

const UNITS = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];

/** A size for people: `512 bytes`, `1.5 MiB`, `5 MiB` (powers of 1024, a decimal only when it is not whole). */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (unit === 0) return `${value} ${value === 1 ? 'byte' : 'bytes'}`;
  const rounded = Number(value.toFixed(1));
  return `${Number.isInteger(rounded) ? rounded.toFixed(0) : rounded.toFixed(1)} ${UNITS[unit]}`;
}
