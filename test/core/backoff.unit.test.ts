import { describe, expect, it } from 'vitest';
import { backoffMs } from '../../src/core/backoff.js';

describe('the delay before a retried delivery', () => {
  it('doubles from the base with every attempt', () => {
    expect([1, 2, 3, 4].map((attempt) => backoffMs(attempt, 1_000, 60_000, 1))).toEqual([
      1_000, 2_000, 4_000, 8_000,
    ]);
  });

  it('is the cap once the doubling passes it, and stays there', () => {
    expect(backoffMs(6, 1_000, 32_001, 1)).toBe(32_000);
    expect(backoffMs(6, 1_000, 31_999, 1)).toBe(31_999);
    expect(backoffMs(1_000, 1_000, 60_000, 1)).toBe(60_000);
  });

  it('is a random 50 to 100 % of that, so failed deliveries do not all come back at once', () => {
    expect(backoffMs(3, 1_000, 60_000, 0)).toBe(2_000);
    expect(backoffMs(3, 1_000, 60_000, 0.5)).toBe(3_000);
    expect(backoffMs(3, 1_000, 60_000, 0.999)).toBe(3_998);
  });

  it('rounds to whole milliseconds', () => {
    expect(backoffMs(1, 3, 60_000, 0)).toBe(2);
    expect(backoffMs(1, 5, 60_000, 0.3)).toBe(3);
  });

  it('treats an attempt below the first as the first', () => {
    expect(backoffMs(0, 1_000, 60_000, 1)).toBe(1_000);
    expect(backoffMs(-3, 1_000, 60_000, 1)).toBe(1_000);
  });
});
