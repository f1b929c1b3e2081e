/** Times of log records: to the millisecond, in the reader's time zone unless one is given. */

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** The parts of `at` as the wall clock of `timeZone` shows them (numbers, 24-hour). */
function wallClock(at: Date, timeZone?: string) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    timeZoneName: 'longOffset',
  }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((each) => each.type === type)?.value ?? '';
  return {
    date: `${part('year')}-${part('month')}-${part('day')}`,
    time: `${part('hour')}:${part('minute')}:${part('second')}.${pad(at.getUTCMilliseconds(), 3)}`,
    // `GMT+01:00`, or `GMT` itself for UTC.
    offset: part('timeZoneName').replace(/^GMT$/, 'GMT+00:00').replace('GMT', 'UTC'),
  };
}

/** A record's time in its list: `2026-12-01` and `14:02:07.123`, apart so a phone may drop the date. */
export function recordTime(iso: string, timeZone?: string): { date: string; time: string } {
  const { date, time } = wallClock(new Date(iso), timeZone);
  return { date, time };
}

/** The exact time with its zone, for the hover: `2026-12-01 14:02:07.123 UTC+01:00 (Europe/Berlin)`. */
export function exactTime(iso: string, timeZone?: string): string {
  const zone = timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const { date, time, offset } = wallClock(new Date(iso), zone);
  return `${date} ${time} ${offset} (${zone})`;
}

/** The offset of `timeZone` from UTC at `at`, in minutes (`+60` for Central European winter time). */
export function zoneOffsetMinutes(at: Date, timeZone?: string): number {
  const match = /UTC([+-])(\d{2}):(\d{2})/.exec(wallClock(at, timeZone).offset);
  if (!match) return 0;
  return (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
}

/** `2026-12-01T14:02:07` for a `datetime-local` input, in the reader's time zone. */
export function toLocalInput(iso: string): string {
  if (!iso) return '';
  const { date, time } = wallClock(new Date(iso));
  return `${date}T${time.slice(0, 8)}`;
}

/** The instant a `datetime-local` value names in the reader's time zone, as ISO; empty when incomplete. */
export function fromLocalInput(local: string): string {
  const at = new Date(local);
  return local && !Number.isNaN(at.getTime()) ? at.toISOString() : '';
}
