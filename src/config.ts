import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from './config-error.js';
import { ACME_EMAIL_PATTERN } from './core/email-address.js';
import { realPathOf } from './core/host-paths.js';
import { isHostname } from './core/hostnames.js';
import { catalogFileProblems } from './inference-catalog.js';

// loadConfig() throws it; callers catch it from here.
export { ConfigError };

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
  /** Longest lifetime of an API token created through the API, in days; unset: tokens may never expire. */
  tokenMaxDays: number | undefined;
  /** How long the first-start console setup link (`/setup?code=…`) stays valid. */
  setupCodeTtlSeconds: number;
  /** Deadline of every call to a container engine (Docker Engine API), in milliseconds. */
  dockerTimeoutMs: number;
  /**
   * Unix sockets, or directories holding them, that engine nodes may use (`INFRAGATE_ENGINE_SOCKETS`,
   * real paths); unset: any socket.
   */
  engineSockets: string[] | undefined;
  /** Largest file accepted by a container-host volume file write, in bytes (413 past it). */
  volumeWriteLimitBytes: number;
  /** How many results each saved container health check keeps. */
  healthCheckHistory: number;
  /** Image used for short-lived helper containers (volume writes) when a node names none. */
  helperImage: string;
  /** Failed logins per email within the window before that email is locked for the window. */
  loginMaxFailuresPerEmail: number;
  /** Failed logins per client address within the window before that address is locked. */
  loginMaxFailuresPerAddress: number;
  loginWindowSeconds: number;
  /** Deadline of one repository host test (all its GitLab calls together), in ms. */
  repohostTimeoutMs: number;
  /** Most groups and most projects a repository host test lists (pagination stops there). */
  repohostPreviewMaxItems: number;
  /** Operator's inference provider catalog (JSON file); unset means the built-in catalog/inference-providers.json. */
  inferenceCatalogPath: string | undefined;
  /** Key-value database console (`INFRAGATE_KEYVALUE_*`). */
  keyvalue: KeyValueConfig;
  /** Static sites (pages): upload limits, retention and how sites are served. */
  pages: PagesConfig;
  /** Audit export to SIEM destinations (src/modules/audit). */
  siem: SiemConfig;
  /** Where people reach the console; links in notifications point here (no trailing slash). */
  publicUrl: string;
  /** Notifications: delivery worker and the periodic sweep (src/modules/notifications). */
  notify: NotifyConfig;
  /** Chunk size suggested to upload clients (`chunkSize` of an upload session). */
  uploadChunkBytes: number;
  /** Largest chunk body one PUT may carry; past it the answer is 413. */
  uploadMaxChunkBytes: number;
  /** Largest file an upload session may announce (`totalBytes`). */
  uploadMaxFileBytes: number;
  /** An open upload session expires this long after its last activity; a sweep removes its temp data. */
  uploadTtlSeconds: number;
  /** How often the upload expiry sweep runs. */
  uploadSweepSeconds: number;
  /** How long a chunk writer holds a session; after a crash mid-chunk, the session is free again after this. */
  uploadLeaseSeconds: number;
  /**
   * Directories node roots must be on or under (`INFRAGATE_NODE_ROOTS`, real paths); unset: any
   * directory outside the data directory.
   */
  nodeRoots: string[] | undefined;
  /** HTTPS listener (`HTTPS_PORT`); unset means plain HTTP only. */
  https: HttpsConfig;
  /** ACME issuance and renewal of certificates. */
  acme: AcmeConfig;
}

export interface HttpsConfig {
  /** Port of the TLS listener on `host`; undefined means none is started. */
  port: number | undefined;
  /** Certificate (name or id) served when no stored certificate matches the SNI name, or none is sent. */
  defaultCertificate: string | undefined;
  /** Answer plain-HTTP requests with a redirect to HTTPS (except ACME HTTP-01 challenges). */
  redirect: boolean;
}

export interface AcmeConfig {
  /** Directory used when an order names none (Let's Encrypt production). */
  directoryUrl: string;
  /** PEM file of extra CAs trusted for ACME directories only (a private or test CA), besides the system roots. */
  trustedCaFile: string | undefined;
  /** How often the ACME worker looks for orders to advance and renewals due. */
  intervalMs: number;
  /** First retry delay after a failed order; doubles per failure up to retryMaxSeconds. */
  retryBaseSeconds: number;
  retryMaxSeconds: number;
  /** Renew this many days before expiry (or at 2/3 of the lifetime, whichever comes first for short certificates). */
  renewBeforeDays: number;
}

export interface KeyValueConfig {
  /** Longest a console command may run before it is answered with a timeout. */
  commandTimeoutMs: number;
  /** Longest a connection attempt (TCP, TLS, AUTH) may take. */
  connectTimeoutMs: number;
  /** Reply size (JSON bytes, approximately) past which a result is cut and marked `truncated`. */
  maxReplyBytes: number;
  /** Connections kept open per registered database; commands are pipelined over them. */
  poolSize: number;
}

export interface PagesConfig {
  /** Unpinned deployments kept per project (the newest ones); pinned and production ones are always kept. */
  retainDeployments: number;
  /** Largest deployment archive accepted, in bytes, as uploaded (compressed). */
  maxArchiveBytes: number;
  /** Largest total size of the files of one deployment once extracted, in bytes. */
  maxSiteBytes: number;
  /** Most files one deployment may hold. */
  maxFiles: number;
  /** Serve sites with `Content-Security-Policy: sandbox …` so their scripts cannot act as the gateway's origin. */
  sandbox: boolean;
  /** Sites at `<slug>.<baseDomain>` and previews at `<deploymentId>.<slug>.<baseDomain>`; unset: only `/sites/`. */
  baseDomain: string | undefined;
  /** The scheme of the site and preview URLs the API answers for the base domain and custom domains. */
  urlScheme: 'https' | 'http';
  /** DNS servers (`ip` or `ip:port`) that custom-domain checks ask; empty: the system's resolvers. */
  dnsServers: string[];
  /** The port the HTTP ownership check of a custom domain connects to (80 unless a proxy maps another). */
  verifyHttpPort: number;
  /**
   * ACME account email for certificates ordered automatically (http-01) when a custom domain is
   * verified without a certificate chosen; unset: none are ordered.
   */
  acmeEmail: string | undefined;
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

export interface NotifyConfig {
  /** How often time-based conditions (expiry) and reminders are evaluated. */
  sweepSeconds: number;
  /** How often the audit hash chain is verified in the background (audit.chain.broken). */
  chainVerifySeconds: number;
  /**
   * How often that verification walks the whole chain; the runs between verify the events added since
   * the head the process verified last (0: every run walks the whole chain).
   */
  chainFullWalkSeconds: number;
  /** How often the delivery worker looks for due notifications when nothing wakes it. */
  pollIntervalMs: number;
  /** Attempts before a delivery is `failed`. */
  maxAttempts: number;
  /** First retry delay; doubles per attempt (with jitter) up to retryMaxMs. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** How long a claimed delivery belongs to its worker before another may take it over. */
  leaseSeconds: number;
  /** Deliveries sent in parallel by one gateway process. */
  concurrency: number;
  /** Deadline of one send (HTTP request or SMTP session). */
  sendTimeoutMs: number;
}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const EGRESS_POLICIES: readonly EgressPolicy[] = ['public', 'private', 'any'];

const MiB = 1024 * 1024;
const LETS_ENCRYPT_DIRECTORY = 'https://acme-v02.api.letsencrypt.org/directory';
const GiB = 1024 * MiB;

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

  /** A DNS host name, lowercased; unset stays undefined. */
  hostname(name: string): string | undefined {
    const raw = this.optional(name)?.toLowerCase();
    if (raw === undefined || isHostname(raw)) return raw;
    this.problems.push(`${name}=${raw} is invalid: expected a DNS name such as pages.example.com`);
    return undefined;
  }

  /** An ACME account email address, lowercased; unset stays undefined. */
  acmeEmail(name: string): string | undefined {
    const raw = this.optional(name)?.toLowerCase();
    if (raw === undefined || new RegExp(ACME_EMAIL_PATTERN).test(raw)) return raw;
    this.problems.push(`${name}=${raw} is invalid: expected an email address such as ops@example.com`);
    return undefined;
  }

  /** Comma-separated IP addresses, each with an optional port (`10.0.0.53`, `127.0.0.1:5353`, `[::1]:53`). */
  addressList(name: string): string[] {
    const raw = this.optional(name);
    if (raw === undefined) return [];
    const entries = raw.split(',').map((entry) => entry.trim());
    const bad = entries.filter((entry) => {
      const match =
        /^(?:\[([^\]]+)\]|([^:]+))(?::(\d{1,5}))?$/.exec(entry) ?? /^([0-9a-fA-F:]+)$/.exec(entry);
      const address = match?.[1] ?? match?.[2];
      return !address || !net.isIP(address) || Number(match?.[3] ?? 53) > 65535;
    });
    if (bad.length === 0) return entries;
    this.problems.push(
      `${name}=${raw} is invalid: expected IP addresses with optional ports, comma-separated`,
    );
    return [];
  }

  /**
   * Comma-separated absolute paths, each as its real path (links followed, so a rule holds for the
   * place and not the name); with `directories`, each must be an existing directory. Unset stays
   * undefined.
   */
  realPaths(name: string, directories: boolean): string[] | undefined {
    const raw = this.optional(name);
    if (raw === undefined) return undefined;
    const entries = raw
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '');
    const bad = entries.filter(
      (entry) =>
        !path.isAbsolute(entry) ||
        (directories && !fs.statSync(entry, { throwIfNoEntry: false })?.isDirectory()),
    );
    if (entries.length > 0 && bad.length === 0) return entries.map(realPathOf);
    this.problems.push(
      `${name}=${raw} is invalid: expected absolute paths${directories ? ' of existing directories' : ''}, comma-separated${bad.length > 0 ? ` (not: ${bad.join(', ')})` : ''}`,
    );
    return undefined;
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
  const acmeDirectoryUrl = read.string('INFRAGATE_ACME_DIRECTORY_URL', LETS_ENCRYPT_DIRECTORY);
  if (!acmeDirectoryUrl.startsWith('https://')) {
    read.problems.push('INFRAGATE_ACME_DIRECTORY_URL is invalid: expected an https:// URL');
  }
  const httpsPortText = read.optional('HTTPS_PORT');
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
    tokenMaxDays:
      read.optional('INFRAGATE_TOKEN_MAX_DAYS') === undefined
        ? undefined
        : read.integer('INFRAGATE_TOKEN_MAX_DAYS', 0, 1, 3650),
    setupCodeTtlSeconds: read.integer('INFRAGATE_SETUP_CODE_TTL_SECONDS', 3600, 60, 30 * 24 * 3600),
    pages: {
      retainDeployments: read.integer('INFRAGATE_PAGES_RETAIN_DEPLOYMENTS', 10, 1, 10_000),
      maxArchiveBytes: read.integer('INFRAGATE_PAGES_MAX_ARCHIVE_BYTES', 100 * MiB, 1024, 64 * GiB),
      maxSiteBytes: read.integer('INFRAGATE_PAGES_MAX_SITE_BYTES', 500 * MiB, 1024, 256 * GiB),
      maxFiles: read.integer('INFRAGATE_PAGES_MAX_FILES', 20_000, 1, 1_000_000),
      sandbox: read.boolean('INFRAGATE_PAGES_SANDBOX', true),
      baseDomain: read.hostname('INFRAGATE_PAGES_BASE_DOMAIN'),
      urlScheme: read.oneOf('INFRAGATE_PAGES_URL_SCHEME', ['https', 'http'] as const, 'https'),
      dnsServers: read.addressList('INFRAGATE_PAGES_DNS_SERVERS'),
      verifyHttpPort: read.integer('INFRAGATE_PAGES_VERIFY_HTTP_PORT', 80, 1, 65535),
      acmeEmail: read.acmeEmail('INFRAGATE_PAGES_ACME_EMAIL'),
    },
    dockerTimeoutMs: read.integer('INFRAGATE_DOCKER_TIMEOUT_MS', 10_000, 100, 600_000),
    engineSockets: read.realPaths('INFRAGATE_ENGINE_SOCKETS', false),
    volumeWriteLimitBytes: read.integer(
      'INFRAGATE_VOLUME_WRITE_LIMIT_BYTES',
      10 * 1024 * 1024,
      1,
      1024 * 1024 * 1024,
    ),
    healthCheckHistory: read.integer('INFRAGATE_HEALTHCHECK_HISTORY', 50, 1, 10_000),
    helperImage: read.string('INFRAGATE_CONTAINERHOST_HELPER_IMAGE', 'docker.io/library/busybox:latest'),
    loginMaxFailuresPerEmail: read.integer('INFRAGATE_LOGIN_MAX_FAILURES', 5, 1, 1000),
    loginMaxFailuresPerAddress: read.integer('INFRAGATE_LOGIN_MAX_FAILURES_PER_ADDRESS', 20, 1, 100000),
    loginWindowSeconds: read.integer('INFRAGATE_LOGIN_WINDOW_SECONDS', 900, 10, 86400),
    repohostTimeoutMs: read.integer('INFRAGATE_REPOHOST_TIMEOUT_MS', 15_000, 100, 300_000),
    repohostPreviewMaxItems: read.integer('INFRAGATE_REPOHOST_PREVIEW_MAX_ITEMS', 1000, 1, 100_000),
    inferenceCatalogPath: read.optional('INFRAGATE_INFERENCE_CATALOG'),
    keyvalue: {
      commandTimeoutMs: read.integer('INFRAGATE_KEYVALUE_COMMAND_TIMEOUT_MS', 5000, 100, 600_000),
      connectTimeoutMs: read.integer('INFRAGATE_KEYVALUE_CONNECT_TIMEOUT_MS', 3000, 100, 60_000),
      maxReplyBytes: read.integer('INFRAGATE_KEYVALUE_MAX_REPLY_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
      poolSize: read.integer('INFRAGATE_KEYVALUE_POOL_SIZE', 2, 1, 32),
    },
    uploadChunkBytes: read.integer('INFRAGATE_UPLOAD_CHUNK_BYTES', 16 * MiB, 64 * 1024, 1024 * MiB),
    uploadMaxChunkBytes: read.integer('INFRAGATE_UPLOAD_MAX_CHUNK_BYTES', 64 * MiB, 64 * 1024, 4096 * MiB),
    uploadMaxFileBytes: read.integer('INFRAGATE_UPLOAD_MAX_FILE_BYTES', 1024 * 1024 * MiB, 1, 2 ** 50),
    uploadTtlSeconds: read.integer('INFRAGATE_UPLOAD_TTL_SECONDS', 24 * 3600, 60, 30 * 24 * 3600),
    uploadSweepSeconds: read.integer('INFRAGATE_UPLOAD_SWEEP_SECONDS', 60, 1, 24 * 3600),
    uploadLeaseSeconds: read.integer('INFRAGATE_UPLOAD_LEASE_SECONDS', 60, 1, 3600),
    nodeRoots: read.realPaths('INFRAGATE_NODE_ROOTS', true),
    https: {
      port: httpsPortText === undefined ? undefined : read.integer('HTTPS_PORT', 0, 0, 65535),
      defaultCertificate: read.optional('INFRAGATE_TLS_DEFAULT_CERTIFICATE'),
      redirect: read.boolean('INFRAGATE_HTTPS_REDIRECT', false),
    },
    acme: {
      directoryUrl: acmeDirectoryUrl,
      trustedCaFile: read.optional('INFRAGATE_ACME_CA_FILE'),
      intervalMs: read.integer('INFRAGATE_ACME_INTERVAL_MS', 10_000, 50, 3_600_000),
      retryBaseSeconds: read.integer('INFRAGATE_ACME_RETRY_BASE_SECONDS', 3600, 1, 7 * 86_400),
      retryMaxSeconds: read.integer('INFRAGATE_ACME_RETRY_MAX_SECONDS', 86_400, 1, 30 * 86_400),
      renewBeforeDays: read.integer('INFRAGATE_ACME_RENEW_BEFORE_DAYS', 30, 1, 365),
    },
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
    publicUrl: '',
    notify: {
      sweepSeconds: read.integer('INFRAGATE_NOTIFY_SWEEP_SECONDS', 300, 1, 86_400),
      chainVerifySeconds: read.integer('INFRAGATE_NOTIFY_CHAIN_VERIFY_SECONDS', 3600, 1, 7 * 86_400),
      chainFullWalkSeconds: read.integer('INFRAGATE_NOTIFY_CHAIN_FULL_WALK_SECONDS', 86_400, 0, 30 * 86_400),
      pollIntervalMs: read.integer('INFRAGATE_NOTIFY_POLL_INTERVAL_MS', 1000, 10, 60_000),
      maxAttempts: read.integer('INFRAGATE_NOTIFY_MAX_ATTEMPTS', 10, 1, 100),
      retryBaseMs: read.integer('INFRAGATE_NOTIFY_RETRY_BASE_MS', 10_000, 1, 3_600_000),
      retryMaxMs: read.integer('INFRAGATE_NOTIFY_RETRY_MAX_MS', 3_600_000, 1, 24 * 3_600_000),
      leaseSeconds: read.integer('INFRAGATE_NOTIFY_LEASE_SECONDS', 60, 1, 3600),
      concurrency: read.integer('INFRAGATE_NOTIFY_CONCURRENCY', 4, 1, 64),
      sendTimeoutMs: read.integer('INFRAGATE_NOTIFY_TIMEOUT_MS', 10_000, 100, 120_000),
    },
  };
  config.publicUrl = publicUrl(read, config.host, config.port);
  if (config.notify.sendTimeoutMs >= config.notify.leaseSeconds * 1000) {
    read.problems.push(
      `INFRAGATE_NOTIFY_TIMEOUT_MS=${config.notify.sendTimeoutMs} is invalid: expected less than INFRAGATE_NOTIFY_LEASE_SECONDS (${config.notify.leaseSeconds} s), or a slow send could be taken over and sent twice`,
    );
  }
  if (config.inferenceCatalogPath !== undefined) {
    config.inferenceCatalogPath = path.resolve(config.inferenceCatalogPath);
    read.problems.push(...catalogFileProblems(config.inferenceCatalogPath));
  }
  if (config.uploadChunkBytes > config.uploadMaxChunkBytes) {
    read.problems.push(
      `INFRAGATE_UPLOAD_CHUNK_BYTES=${config.uploadChunkBytes} is invalid: expected at most INFRAGATE_UPLOAD_MAX_CHUNK_BYTES (${config.uploadMaxChunkBytes})`,
    );
  }
  if (config.acme.trustedCaFile !== undefined) {
    config.acme.trustedCaFile = path.resolve(config.acme.trustedCaFile);
    if (!fs.existsSync(config.acme.trustedCaFile))
      read.problems.push(`INFRAGATE_ACME_CA_FILE=${config.acme.trustedCaFile} is invalid: no such file`);
  }
  if (config.https.redirect && config.https.port === undefined) {
    read.problems.push('INFRAGATE_HTTPS_REDIRECT=true is invalid without HTTPS_PORT');
  }
  if (read.problems.length > 0) throw new ConfigError(read.problems);
  return config;
}

/**
 * `INFRAGATE_PUBLIC_URL`, else `http://<HOST>:<PORT>`; a wildcard listen address is no place to
 * link to, so the machine's host name stands in for it.
 */
function publicUrl(read: EnvReader, host: string, port: number): string {
  const configured = read.optional('INFRAGATE_PUBLIC_URL');
  if (configured !== undefined) {
    const url = URL.canParse(configured) ? new URL(configured) : undefined;
    if (url && (url.protocol === 'http:' || url.protocol === 'https:') && !url.search && !url.hash)
      return url.toString().replace(/\/+$/, '');
    read.problems.push(
      `INFRAGATE_PUBLIC_URL=${configured} is invalid: expected an http:// or https:// URL without query or fragment`,
    );
  }
  const shown = host === '0.0.0.0' || host === '::' ? os.hostname() : host;
  return `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
}

/** Accepts 64 hex characters or base64 of exactly 32 bytes. */
export function decodeMasterKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  const fromBase64 = Buffer.from(trimmed, 'base64');
  return fromBase64.length === 32 ? fromBase64 : undefined;
}
