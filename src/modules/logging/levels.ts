import { LOG_LEVELS, type LogLevel } from '../../db/schema/index.js';

/** Syslog severities (RFC 5424) 0 emergency … 7 debug, as levels. */
const SYSLOG_SEVERITY: readonly LogLevel[] = [
  'fatal',
  'fatal',
  'fatal',
  'error',
  'warn',
  'info',
  'info',
  'debug',
];

/** Names logging libraries use beside the six levels. */
const ALIASES: Record<string, LogLevel> = {
  warning: 'warn',
  err: 'error',
  critical: 'fatal',
  crit: 'fatal',
  emergency: 'fatal',
  emerg: 'fatal',
  alert: 'fatal',
  panic: 'fatal',
  notice: 'info',
  information: 'info',
  informational: 'info',
  verbose: 'trace',
};

const isLevel = (name: string): name is LogLevel => (LOG_LEVELS as readonly string[]).includes(name);

/** A level name (any case, common aliases) or a syslog severity number 0–7; undefined if neither. */
export function levelOf(value: unknown): LogLevel | undefined {
  if (typeof value === 'number') return Number.isInteger(value) ? SYSLOG_SEVERITY[value] : undefined;
  if (typeof value !== 'string') return undefined;
  const name = value.trim().toLowerCase();
  return isLevel(name) ? name : ALIASES[name];
}

/** OpenTelemetry SeverityNumber 1–24 (four steps per level, TRACE … FATAL); 0 is unspecified. */
export function levelOfSeverityNumber(severity: number): LogLevel | undefined {
  if (!Number.isInteger(severity) || severity < 1 || severity > 24) return undefined;
  return LOG_LEVELS[Math.floor((severity - 1) / 4)];
}

export const LEVEL_INPUT_RULE = `one of ${LOG_LEVELS.join(', ')} or a syslog severity 0–7`;
