import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('INFRAGATE_TOKEN_MAX_DAYS', () => {
  it('is unset by default: API tokens may never expire', () => {
    expect(loadConfig({}).tokenMaxDays).toBeUndefined();
  });

  it('reads a number of days from 1 to 3650', () => {
    expect(loadConfig({ INFRAGATE_TOKEN_MAX_DAYS: '90' }).tokenMaxDays).toBe(90);
  });

  it('refuses 0, a fraction and words', () => {
    for (const value of ['0', '1.5', 'ninety', '3651'])
      expect(() => loadConfig({ INFRAGATE_TOKEN_MAX_DAYS: value })).toThrow(ConfigError);
  });
});
