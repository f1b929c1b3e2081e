import { describe, expect, it } from 'vitest';
import { formatBytes, formatRelative } from './format';

describe('a size for people', () => {
  it('counts small sizes in bytes', () => {
    expect([formatBytes(0), formatBytes(1), formatBytes(1023)]).toEqual(['0 bytes', '1 byte', '1023 bytes']);
  });

  it('uses the largest binary unit that keeps the number at least 1, a decimal only when not whole', () => {
    expect([
      formatBytes(1024),
      formatBytes(1536 * 1024),
      formatBytes(5 * 1024 ** 2),
      formatBytes(5 * 1024 ** 3),
    ]).toEqual(['1 KiB', '1.5 MiB', '5 MiB', '5 GiB']);
  });
});

describe('a relative time', () => {
  const now = Date.parse('2026-12-02T12:00:00Z');
  const at = (offset: number) => new Date(now + offset).toISOString();

  it('says a time within the minute as just now', () => {
    expect(formatRelative(at(-20_000), now)).toBe('just now');
  });

  it('counts minutes, hours and days ago', () => {
    expect(
      [at(-3 * 60_000), at(-2 * 3_600_000), at(-86_400_000), at(-5 * 86_400_000)].map((iso) =>
        formatRelative(iso, now),
      ),
    ).toEqual(['3 min ago', '2 h ago', '1 day ago', '5 days ago']);
  });

  it('says a time to come with "in"', () => {
    expect(formatRelative(at(30 * 86_400_000), now)).toBe('in 30 days');
  });

  it('gives the date beyond two months', () => {
    expect(formatRelative(at(-90 * 86_400_000), now)).not.toMatch(/ago/);
  });
});
