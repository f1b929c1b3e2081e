import { describe, expect, it } from 'vitest';
import { bucketAt, bucketsRange, countTicks, timeTicks } from './chart-scale';

const at = (iso: string) => Date.parse(iso);

describe('the time axis', () => {
  it('puts ticks on round times, as few as asked for at most', () => {
    const ticks = timeTicks(at('2026-12-01T14:02:00Z'), at('2026-12-01T14:07:30Z'), 6);
    expect(ticks.map((tick) => tick.label)).toEqual(['14:02', '14:03', '14:04', '14:05', '14:06', '14:07']);
  });

  it('shows seconds when the ticks are less than a minute apart', () => {
    const ticks = timeTicks(at('2026-12-01T14:02:00Z'), at('2026-12-01T14:03:00Z'), 3);
    expect(ticks.map((tick) => tick.label)).toEqual(['14:02:00', '14:02:30', '14:03:00']);
  });

  it('falls on the hours of the reader’s wall clock, not of UTC', () => {
    const ticks = timeTicks(at('2026-12-01T00:00:00Z'), at('2026-12-01T02:00:00Z'), 3, 330);
    expect(ticks.map((tick) => [new Date(tick.at).toISOString(), tick.label])).toEqual([
      ['2026-12-01T00:30:00.000Z', '06:00'],
      ['2026-12-01T01:30:00.000Z', '07:00'],
    ]);
  });

  it('labels days by month and day over a week', () => {
    const ticks = timeTicks(at('2026-11-24T12:00:00Z'), at('2026-12-01T12:00:00Z'), 8);
    expect(ticks.map((tick) => tick.label)).toEqual([
      '11-25',
      '11-26',
      '11-27',
      '11-28',
      '11-29',
      '11-30',
      '12-01',
    ]);
  });
});

describe('the counts axis', () => {
  it('rounds its top up to a round step', () => {
    expect(countTicks(42)).toEqual({ top: 60, ticks: [0, 20, 40, 60] });
    expect(countTicks(7)).toEqual({ top: 10, ticks: [0, 5, 10] });
  });

  it('counts in whole records', () => {
    expect(countTicks(1)).toEqual({ top: 1, ticks: [0, 1] });
    expect(countTicks(0)).toEqual({ top: 1, ticks: [0, 1] });
  });
});

describe('bars and time ranges', () => {
  const starts = ['2026-12-01T14:00:00.000Z', '2026-12-01T14:01:00.000Z', '2026-12-01T14:02:00.000Z'];

  it('finds the bar under a point of the plot, clamped to the plot', () => {
    expect(bucketAt(0, 300, 3)).toBe(0);
    expect(bucketAt(150, 300, 3)).toBe(1);
    expect(bucketAt(299.9, 300, 3)).toBe(2);
    expect(bucketAt(-20, 300, 3)).toBe(0);
    expect(bucketAt(400, 300, 3)).toBe(2);
  });

  it('covers from the first bar’s start to the end of the last, whichever way the drag went', () => {
    const range = { from: '2026-12-01T14:01:00.000Z', to: '2026-12-01T14:03:00.000Z' };
    expect(bucketsRange(starts, 60, 1, 2)).toEqual(range);
    expect(bucketsRange(starts, 60, 2, 1)).toEqual(range);
  });

  it('covers one bar when the drag stays on it', () => {
    expect(bucketsRange(starts, 60, 0, 0)).toEqual({
      from: '2026-12-01T14:00:00.000Z',
      to: '2026-12-01T14:01:00.000Z',
    });
  });
});
