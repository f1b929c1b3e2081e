import path from 'node:path';

export type EgressPolicy = 'public' | 'private' | 'any';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Unset means the embedded PGlite database in `<dataDir>/db`. */
  databaseUrl: string | undefined;
  /** 32-byte key as base64 or hex; unset means a key file generated in the data dir. */
  masterKey: string | undefined;
  egress: EgressPolicy;
  logLevel: LogLevel;
  /** Largest JSON request body accepted, in bytes. */
  bodyLimitBytes: number;
  /** Lifetime of a browser session created by POST /auth/login. */
  sessionTtlSeconds: number;
  /** Whether the session cookie carries the Secure attribute (set it when served over HTTPS). */
  cookieSecure: boolean;
  /** Audit export to SIEM destinations (src/modules/audit). */
  siem: SiemConfig;
}

export interface SiemConfig {
  /** Default events per delivery for new destinations. */
  batchSize: number;
  /** Default longest wait before a partial batch is sent. */
  flushIntervalMs: number;
  /** Default attempts before a delivery is `failed`. */
  maxAttempts: number;
  /** How often the export worker looks for work when nothing wakes it. */
  pollIntervalMs: number;
  /** First retry delay; doubles per attempt (with jitter) up to retryMaxMs. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** How long a claimed delivery belongs to its worker before another may take it over. */
  leaseSeconds: number;
  /** Deliveries sent in parallel by one gateway process. */
  concurrency: number;
  /** Consecutive failures after which a destination's circuit opens. */
  circuitThreshold: number;
  /** Deadline of one send (HTTP request or syslog connection). */
  sendTimeoutMs: number;
}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const EGRESS_POLICIES: readonly EgressPolicy[] = ['public', 'private', 'any'];

/** Thrown with every bad value at once, one line each, so an operator fixes them in one go. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

class EnvReader {
  readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  string(name: string, fallback: string): string {
    const value = this.env[name];
    return value === undefined || value === '' ? fallback : value;
  }

  optional(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value === '' ? undefined : value;
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || value < min || value > max) {
      this.problems.push(`${name}=${raw} is invalid: expected an integer from ${min} to ${max}`);
      return fallback;
    }
    return value;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    if (!(allowed as readonly string[]).includes(raw)) {
      this.problems.push(`${name}=${raw} is invalid: expected one of ${allowed.join(', ')}`);
      return fallback;
    }
    return raw as T;
  }

  boolean(name: string, fallback: boolean): boolean {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    if (['1', 'true', 'yes'].includes(raw)) return true;
    if (['0', 'false', 'no'].includes(raw)) return false;
    this.problems.push(`${name}=${raw} is invalid: expected true or false`);
    return fallback;
  }
}

export function loadConfig(env: Env = process.env): Config {
  const read = new EnvReader(env);
  const databaseUrl = read.optional('DATABASE_URL');
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    read.problems.push('DATABASE_URL is invalid: expected a postgres:// or postgresql:// URL');
  }
  const masterKey = read.optional('INFRAGATE_MASTER_KEY');
  if (masterKey !== undefined && decodeMasterKey(masterKey) === undefined) {
    read.problems.push('INFRAGATE_MASTER_KEY is invalid: expected 32 bytes as 64 hex characters or base64');
  }
  const config: Config = {
    port: read.integer('PORT', 8080, 0, 65535),
    host: read.string('HOST', '127.0.0.1'),
    dataDir: path.resolve(read.string('INFRAGATE_DATA_DIR', './data')),
    databaseUrl,
    masterKey,
    egress: read.oneOf('INFRAGATE_EGRESS', EGRESS_POLICIES, 'private'),
    logLevel: read.oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
    bodyLimitBytes: read.integer('INFRAGATE_BODY_LIMIT_BYTES', 1024 * 1024, 1024, 1024 * 1024 * 1024),
    sessionTtlSeconds: read.integer('INFRAGATE_SESSION_TTL_SECONDS', 12 * 3600, 60, 365 * 24 * 3600),
    cookieSecure: read.boolean('INFRAGATE_COOKIE_SECURE', false),
    siem: {
      batchSize: read.integer('INFRAGATE_SIEM_BATCH_SIZE', 500, 1, 10_000),
      flushIntervalMs: read.integer('INFRAGATE_SIEM_FLUSH_INTERVAL_MS', 1000, 0, 3_600_000),
      maxAttempts: read.integer('INFRAGATE_SIEM_MAX_ATTEMPTS', 8, 1, 100),
      pollIntervalMs: read.integer('INFRAGATE_SIEM_POLL_INTERVAL_MS', 1000, 10, 60_000),
      retryBaseMs: read.integer('INFRAGATE_SIEM_RETRY_BASE_MS', 5000, 1, 3_600_000),
      retryMaxMs: read.integer('INFRAGATE_SIEM_RETRY_MAX_MS', 15 * 60_000, 1, 24 * 3_600_000),
      leaseSeconds: read.integer('INFRAGATE_SIEM_LEASE_SECONDS', 60, 1, 3600),
      concurrency: read.integer('INFRAGATE_SIEM_CONCURRENCY', 4, 1, 64),
      circuitThreshold: read.integer('INFRAGATE_SIEM_CIRCUIT_THRESHOLD', 5, 1, 1000),
      sendTimeoutMs: read.integer('INFRAGATE_SIEM_TIMEOUT_MS', 10_000, 100, 120_000),
    },
  };
  if (read.problems.length > 0) throw new ConfigError(read.problems);
  return config;
}

/** Accepts 64 hex characters or base64 of exactly 32 bytes. */
export function decodeMasterKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  const fromBase64 = Buffer.from(trimmed, 'base64');
  return fromBase64.length === 32 ? fromBase64 : undefined;
}
