import { describe, expect, it } from 'vitest';
import { afterPoll, type DevicePoll, nextPollDelayMs } from './device-poll';
import type { OAuthSession } from './queries';

const pending: OAuthSession = {
  id: '00000000-0000-4000-8000-000000000001',
  providerId: 'github-copilot',
  status: 'pending',
  authorizationUrl: 'https://github.com/login/device',
  completionMode: 'device',
  userCode: 'ABCD-EFGH',
  pollIntervalSeconds: 5,
  connectionId: null,
  errorCode: null,
  errorMessage: null,
  expiresAt: '2026-11-25T12:15:00.000Z',
};

describe('polling a device sign-in', () => {
  it("waits the session's interval between polls", () => {
    expect(nextPollDelayMs(pending)).toBe(5_000);
  });

  it('waits longer once the provider said slow_down (the gateway answers the grown interval)', () => {
    expect(nextPollDelayMs({ ...pending, pollIntervalSeconds: 10 })).toBe(10_000);
  });

  it('waits five seconds when the provider named no interval', () => {
    expect(nextPollDelayMs({ ...pending, pollIntervalSeconds: null })).toBe(5_000);
  });

  it('stops once the session is no longer pending', () => {
    for (const status of ['complete', 'error', 'expired', 'cancelled'] as const)
      expect(nextPollDelayMs({ ...pending, status })).toBeUndefined();
  });

  it("takes the gateway's answer and forgets an earlier failed poll", () => {
    const state: DevicePoll = { session: pending, pollError: new Error('unreachable') };
    const complete = { ...pending, status: 'complete' as const, connectionId: 'c1' };
    expect(afterPoll(state, { answered: complete })).toEqual({ session: complete, pollError: undefined });
  });

  it('reports a failed poll and keeps polling: the same session as a new object', () => {
    const failure = new Error('unreachable');
    const next = afterPoll({ session: pending, pollError: undefined }, { failed: failure });
    expect(next.pollError).toBe(failure);
    expect(next.session).toEqual(pending);
    expect(next.session).not.toBe(pending);
    expect(nextPollDelayMs(next.session)).toBe(5_000);
  });
});
