import { describe, expect, it } from 'vitest';
import { expiryCheckDelay } from './session-expiry';

const now = Date.parse('2026-11-25T12:00:00.000Z');

describe('the check of an idle session at its end', () => {
  it('comes just after the session ends', () => {
    expect(expiryCheckDelay('2026-11-25T12:10:00.000Z', now)).toBe(10 * 60_000 + 1_000);
  });

  it('comes again a few seconds later when the gateway still accepted a session this clock thinks ended', () => {
    expect(expiryCheckDelay('2026-11-25T11:59:00.000Z', now)).toBe(5_000);
  });

  it('waits at most what a timer can, for sessions ending months ahead', () => {
    expect(expiryCheckDelay('2027-11-25T12:00:00.000Z', now)).toBe(2 ** 31 - 1);
  });
});
