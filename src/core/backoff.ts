/**
 * Exponential backoff with jitter for retried deliveries: base·2^(attempt-1), capped at `maxMs`, then a
 * random 50–100 % of it so that many failed deliveries do not all come back at the same moment.
 */
export function backoffMs(attempt: number, baseMs: number, maxMs: number, random = Math.random()): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling * (0.5 + random * 0.5));
}
