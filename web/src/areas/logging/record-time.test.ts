import { describe, expect, it } from 'vitest';
import { exactTime, fromLocalInput, recordTime, toLocalInput, zoneOffsetMinutes } from './record-time';

const AT = '2026-12-01T13:02:07.045Z';

describe('record times', () => {
  it('shows seconds and milliseconds on the wall clock of the zone', () => {
    expect(recordTime(AT, 'Europe/Berlin')).toEqual({ date: '2026-12-01', time: '14:02:07.045' });
    expect(recordTime(AT, 'UTC')).toEqual({ date: '2026-12-01', time: '13:02:07.045' });
  });

  it('shows the date of the zone, which may differ from the date in UTC', () => {
    expect(recordTime('2026-12-01T23:30:00.000Z', 'Asia/Tokyo').date).toBe('2026-12-02');
  });

  it('gives the exact time with the offset and the zone for the hover', () => {
    expect(exactTime(AT, 'Europe/Berlin')).toBe('2026-12-01 14:02:07.045 UTC+01:00 (Europe/Berlin)');
    expect(exactTime(AT, 'UTC')).toBe('2026-12-01 13:02:07.045 UTC+00:00 (UTC)');
  });

  it('reads the offset of a zone at an instant, summer time included', () => {
    expect(zoneOffsetMinutes(new Date(AT), 'Europe/Berlin')).toBe(60);
    expect(zoneOffsetMinutes(new Date('2026-07-01T00:00:00Z'), 'Europe/Berlin')).toBe(120);
    expect(zoneOffsetMinutes(new Date(AT), 'America/St_Johns')).toBe(-210);
  });

  it('turns an instant into a datetime-local value and back', () => {
    const local = toLocalInput('2026-12-01T13:02:07.000Z');
    expect(local).toMatch(/^2026-12-01T\d{2}:02:07$/);
    expect(fromLocalInput(local)).toBe('2026-12-01T13:02:07.000Z');
  });

  it('takes an incomplete datetime-local value as none', () => {
    expect(fromLocalInput('')).toBe('');
    expect(fromLocalInput('2026-12-01T')).toBe('');
  });
});
