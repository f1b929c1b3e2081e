import type { OAuthSession } from './queries';

/** The wait between polls when the provider named none (RFC 8628 §3.5's default). */
export const DEFAULT_POLL_SECONDS = 5;

/** How long to wait before the next poll, at the session's interval; none once it is not pending. */
export function nextPollDelayMs(
  session: Pick<OAuthSession, 'status' | 'pollIntervalSeconds'>,
): number | undefined {
  if (session.status !== 'pending') return undefined;
  return (session.pollIntervalSeconds ?? DEFAULT_POLL_SECONDS) * 1000;
}

/** A device sign-in being polled: the session as last answered, and why the last poll failed. */
export interface DevicePoll {
  session: OAuthSession;
  pollError: unknown;
}

export type PollOutcome = { answered: OAuthSession } | { failed: unknown };

/**
 * After one poll: the gateway's answer replaces the session; a failed poll (the provider
 * unreachable) is reported and keeps the session, as a new object so the next poll is scheduled.
 */
export function afterPoll(state: DevicePoll, outcome: PollOutcome): DevicePoll {
  if ('answered' in outcome) return { session: outcome.answered, pollError: undefined };
  return { session: { ...state.session }, pollError: outcome.failed };
}
