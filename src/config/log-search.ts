import { integer, section } from './settings.js';

/** Logging: what bounds a message match, and how often the alert rules on logs are evaluated. */
export const logSearchSettings = section('Log search and alerts', {
  matchMaxHours: integer('INFRAGATE_LOG_MATCH_MAX_HOURS', {
    default: 24,
    min: 1,
    max: 24 * 31,
    doc: 'Longest time range a substring or regular-expression `match` on the message may search (no index serves it: every record of the range is read)',
  }),
  matchTimeoutMs: integer('INFRAGATE_LOG_MATCH_TIMEOUT_MS', {
    default: 10_000,
    min: 10,
    max: 300_000,
    doc: 'Statement timeout of a search with `match` on PostgreSQL (422 `MATCH_TIMED_OUT` when reached; the embedded PGlite has no statement timeout, only the range bound)',
  }),
  rulesIntervalSeconds: integer('INFRAGATE_LOG_RULES_INTERVAL_SECONDS', {
    default: 60,
    min: 1,
    max: 3600,
    doc: 'How often the `logging.query.threshold` alert rules are evaluated (by one gateway at a time)',
  }),
});
