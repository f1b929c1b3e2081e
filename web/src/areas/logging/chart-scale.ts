/** The arithmetic of the records histogram: its axes and the time range a stretch of bars covers. */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Tick spacings a time axis picks from, the smallest that keeps the ticks few enough. */
const TIME_STEPS = [
  SECOND,
  5 * SECOND,
  10 * SECOND,
  30 * SECOND,
  MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  7 * DAY,
];

export interface TimeTick {
  at: number;
  /** `14:05`, `14:05:30` under a minute's spacing, `12-01` from a day's. */
  label: string;
}

const pad = (value: number) => String(value).padStart(2, '0');

/**
 * At most `most` ticks between `from` and `to` (epoch ms), on round times of the wall clock whose
 * offset from UTC is `offsetMinutes` (so hours fall on the hour and days on midnight there).
 */
export function timeTicks(from: number, to: number, most: number, offsetMinutes = 0): TimeTick[] {
  const span = Math.max(1, to - from);
  const step = TIME_STEPS.find((each) => span / each <= most) ?? Math.ceil(span / most / DAY) * DAY;
  const shift = offsetMinutes * MINUTE;
  const ticks: TimeTick[] = [];
  for (let wall = Math.ceil((from + shift) / step) * step; wall - shift <= to; wall += step) {
    const clock = new Date(wall);
    let label = `${pad(clock.getUTCHours())}:${pad(clock.getUTCMinutes())}`;
    if (step < MINUTE) label += `:${pad(clock.getUTCSeconds())}`;
    if (step >= DAY) label = `${pad(clock.getUTCMonth() + 1)}-${pad(clock.getUTCDate())}`;
    ticks.push({ at: wall - shift, label });
  }
  return ticks;
}

/** The counts axis: a round top at or above `largest` and the ticks up to it (0, 5, 10 …), at most about four. */
export function countTicks(largest: number): { top: number; ticks: number[] } {
  if (largest <= 0) return { top: 1, ticks: [0, 1] };
  const rough = largest / 3;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(1, [1, 2, 5, 10].map((each) => each * power).find((each) => each >= rough) ?? power);
  const top = Math.ceil(largest / step) * step;
  const ticks = [];
  for (let value = 0; value <= top; value += step) ticks.push(value);
  return { top, ticks };
}

/** The bar under `x` pixels of a plot `width` wide holding `count` bars. */
export function bucketAt(x: number, width: number, count: number): number {
  if (count === 0 || width <= 0) return 0;
  return Math.min(count - 1, Math.max(0, Math.floor((x / width) * count)));
}

/** The time range of bars `first` to `last` (either order) of buckets `intervalSeconds` wide. */
export function bucketsRange(
  starts: readonly string[],
  intervalSeconds: number,
  first: number,
  last: number,
): { from: string; to: string } {
  const low = Math.max(0, Math.min(first, last));
  const high = Math.min(starts.length - 1, Math.max(first, last));
  const end = Date.parse(starts[high]!) + intervalSeconds * 1000;
  return { from: new Date(starts[low]!).toISOString(), to: new Date(end).toISOString() };
}
