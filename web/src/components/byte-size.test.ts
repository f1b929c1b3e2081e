import { describe, expect, it } from 'vitest';
import { formatBytes } from './byte-size';

describe('byte counts for people', () => {
  it('keeps small counts in bytes', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
  });

  it('uses binary units with one decimal below 100', () => {
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(300 * 1024)).toBe('300 KiB');
    expect(formatBytes(50 * 1024 * 1024)).toBe('50 MiB');
  });
});
