import { integer, section } from './settings.js';

/** Notifications: the delivery worker and the periodic sweep (src/modules/notifications). */
export const notifySettings = section('Notifications', {
  sweepSeconds: integer('INFRAGATE_NOTIFY_SWEEP_SECONDS', {
    default: 300,
    min: 1,
    max: 86_400,
    doc: 'How often certificate/token expiry and alert reminders are evaluated',
  }),
  chainVerifySeconds: integer('INFRAGATE_NOTIFY_CHAIN_VERIFY_SECONDS', {
    default: 3600,
    min: 1,
    max: 7 * 86_400,
    doc: 'How often the audit hash chain is verified in the background (`audit.chain.broken`)',
  }),
  chainFullWalkSeconds: integer('INFRAGATE_NOTIFY_CHAIN_FULL_WALK_SECONDS', {
    default: 86_400,
    min: 0,
    max: 30 * 86_400,
    doc: 'How often that verification walks the whole chain rather than the events added since its last run (`0`: every run; docs/SECURITY.md)',
  }),
  pollIntervalMs: integer('INFRAGATE_NOTIFY_POLL_INTERVAL_MS', {
    default: 1000,
    min: 10,
    max: 60_000,
    doc: 'How often the delivery worker looks for due notifications when nothing wakes it',
  }),
  maxAttempts: integer('INFRAGATE_NOTIFY_MAX_ATTEMPTS', {
    default: 10,
    min: 1,
    max: 100,
    doc: 'Attempts before a delivery is `failed`',
  }),
  retryBaseMs: integer('INFRAGATE_NOTIFY_RETRY_BASE_MS', {
    default: 10_000,
    min: 1,
    max: 3_600_000,
    doc: 'First retry delay; doubles per attempt (with jitter) up to `INFRAGATE_NOTIFY_RETRY_MAX_MS`',
  }),
  retryMaxMs: integer('INFRAGATE_NOTIFY_RETRY_MAX_MS', {
    default: 3_600_000,
    min: 1,
    max: 24 * 3_600_000,
    doc: 'Longest retry delay',
  }),
  leaseSeconds: integer('INFRAGATE_NOTIFY_LEASE_SECONDS', {
    default: 60,
    min: 1,
    max: 3600,
    doc: 'How long a claimed delivery belongs to its worker before another may take it over',
  }),
  concurrency: integer('INFRAGATE_NOTIFY_CONCURRENCY', {
    default: 4,
    min: 1,
    max: 64,
    doc: 'Deliveries sent in parallel per process',
  }),
  sendTimeoutMs: integer('INFRAGATE_NOTIFY_TIMEOUT_MS', {
    default: 10_000,
    min: 100,
    max: 120_000,
    doc: 'Deadline of one send (HTTP request or SMTP session)',
  }),
});
