import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/core/duration.js';

describe('parseDuration', () => {
  it.each([
    ['90s', 90],
    ['15m', 900],
    ['12h', 43_200],
    ['30d', 2_592_000],
    ['2w', 1_209_600],
    ['9999999s', 9_999_999],
  ])('reads %s as %i seconds', (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds);
  });

  it('ignores surrounding whitespace', () => {
    expect(parseDuration(' 5m\n')).toBe(300);
  });

  it.each(['0s', '0w', '000d'])('refuses the zero duration %j', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });

  it.each(['', '5', 'm', '5 m', '5M', '5y', '5ms', '1.5h', '-5m', '+5m', '1h30m', '10000000s'])(
    'refuses %j, which is not a number of 1 to 7 digits and one unit of s, m, h, d, w',
    (text) => {
      expect(parseDuration(text)).toBeUndefined();
    },
  );
});
