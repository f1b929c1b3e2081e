/** setTimeout's longest delay (2^31 − 1 ms, about 24.8 days); a later end is checked in steps. */
const LONGEST_DELAY_MS = 2 ** 31 - 1;
/** Asked just after the end, so the gateway's clock has passed it too. */
const MARGIN_MS = 1_000;
/** The soonest next check, for a browser clock ahead of the gateway's (it still accepts the session). */
const SOONEST_MS = 5_000;

/** How long an idle page waits, from `now` (its last answer), before asking the gateway whether its session has ended. */
export function expiryCheckDelay(sessionExpiresAt: string, now: number): number {
  const remaining = Date.parse(sessionExpiresAt) - now + MARGIN_MS;
  return Math.min(Math.max(remaining, SOONEST_MS), LONGEST_DELAY_MS);
}
