import type { siemDestinations } from '../../db/schema/index.js';
import type { Destination } from './schemas.js';

type DestinationRow = typeof siemDestinations.$inferSelect;

/**
 * A destination as answered: its settings flattened (credentials only as `hasSecret`), and its health
 * derived from the circuit breaker, the failure count and the backlog of open deliveries.
 */
export function toDestination(row: DestinationRow, backlog: Record<string, number> | undefined): Destination {
  const now = Date.now();
  const s = row.settings;
  const circuit =
    row.circuitOpenUntil === null ? 'closed' : row.circuitOpenUntil.getTime() > now ? 'open' : 'half_open';
  const status = !row.enabled
    ? 'disabled'
    : circuit !== 'closed'
      ? 'down'
      : row.consecutiveFailures > 0
        ? 'degraded'
        : 'healthy';
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    enabled: row.enabled,
    url: s.url ?? null,
    host: s.host ?? null,
    port: s.port ?? null,
    tls: row.kind === 'syslog' ? (s.tls ?? false) : null,
    hasCaPem: Boolean(s.caPem),
    index: s.index ?? null,
    sourcetype: s.sourcetype ?? null,
    source: s.source ?? null,
    facility: row.kind === 'syslog' ? (s.facility ?? 13) : null,
    appName: row.kind === 'syslog' ? (s.appName ?? 'infragate') : null,
    hasSecret: row.secretSealed !== null,
    batchSize: row.batchSize,
    flushIntervalMs: row.flushIntervalMs,
    maxAttempts: row.maxAttempts,
    cursorSeq: row.cursorSeq,
    health: {
      status,
      circuit,
      circuitOpenUntil: row.circuitOpenUntil,
      lastSuccessAt: row.lastSuccessAt,
      lastFailureAt: row.lastFailureAt,
      lastError: row.lastError,
      consecutiveFailures: row.consecutiveFailures,
      backlog: {
        queued: backlog?.queued ?? 0,
        delivering: backlog?.delivering ?? 0,
        retrying: backlog?.retrying ?? 0,
        failed: backlog?.failed ?? 0,
        paused: backlog?.paused ?? 0,
      },
    },
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
