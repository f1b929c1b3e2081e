import { integer, section } from './settings.js';

/** Audit export to SIEM destinations (src/modules/audit). */
export const siemSettings = section('Audit export (SIEM)', {
  batchSize: integer('INFRAGATE_SIEM_BATCH_SIZE', {
    default: 500,
    min: 1,
    max: 10_000,
    doc: 'Default events per delivery for new destinations',
  }),
  flushIntervalMs: integer('INFRAGATE_SIEM_FLUSH_INTERVAL_MS', {
    default: 1000,
    min: 0,
    max: 3_600_000,
    doc: 'Default longest wait before a partial batch is sent',
  }),
  maxAttempts: integer('INFRAGATE_SIEM_MAX_ATTEMPTS', {
    default: 8,
    min: 1,
    max: 100,
    doc: 'Default attempts before a delivery is `failed`',
  }),
  pollIntervalMs: integer('INFRAGATE_SIEM_POLL_INTERVAL_MS', {
    default: 1000,
    min: 10,
    max: 60_000,
    doc: 'How often the exporter looks for work when nothing wakes it',
  }),
  retryBaseMs: integer('INFRAGATE_SIEM_RETRY_BASE_MS', {
    default: 5000,
    min: 1,
    max: 3_600_000,
    doc: 'First retry delay; doubles per attempt (with jitter) up to `INFRAGATE_SIEM_RETRY_MAX_MS`',
  }),
  retryMaxMs: integer('INFRAGATE_SIEM_RETRY_MAX_MS', {
    default: 15 * 60_000,
    min: 1,
    max: 24 * 3_600_000,
    doc: 'Longest retry delay',
  }),
  leaseSeconds: integer('INFRAGATE_SIEM_LEASE_SECONDS', {
    default: 60,
    min: 1,
    max: 3600,
    doc: 'How long a claimed delivery belongs to its worker before another may take it over',
  }),
  concurrency: integer('INFRAGATE_SIEM_CONCURRENCY', {
    default: 4,
    min: 1,
    max: 64,
    doc: 'Deliveries sent in parallel per process',
  }),
  circuitThreshold: integer('INFRAGATE_SIEM_CIRCUIT_THRESHOLD', {
    default: 5,
    min: 1,
    max: 1000,
    doc: "Consecutive failures after which a destination's circuit opens",
  }),
  sendTimeoutMs: integer('INFRAGATE_SIEM_TIMEOUT_MS', {
    default: 10_000,
    min: 100,
    max: 120_000,
    doc: 'Deadline of one send (HTTP request or syslog connection)',
  }),
});
