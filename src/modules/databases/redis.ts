import net from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import type { Redis } from 'ioredis';
import type { DatabaseTls } from '../../db/schema/index.js';
import type { CommandSpec } from './command-policy.js';

/** Where and how to connect; `host` is the address the egress guard checked. */
export interface KeyValueTarget {
  host: string;
  port: number;
  /** The URL's host name, for TLS verification and SNI when `host` is an address. */
  hostName: string;
  username?: string | undefined;
  password?: string | undefined;
  /** Set for rediss:// URLs. */
  tls?: DatabaseTls | undefined;
  db: number;
}

export interface PoolOptions {
  size: number;
  connectTimeoutMs: number;
  commandTimeoutMs: number;
}

/** Why talking to the server failed, in terms a person can act on. */
export class KeyValueError extends Error {
  constructor(
    readonly kind: 'unreachable' | 'auth' | 'timeout' | 'reply' | 'tls',
    message: string,
  ) {
    super(message);
    this.name = 'KeyValueError';
  }
}

const AUTH_ERROR = /^(WRONGPASS|NOAUTH)|invalid password|invalid username-password/i;

function toKeyValueError(error: unknown, lastConnectionError: Error | undefined): KeyValueError {
  if (error instanceof KeyValueError) return error;
  const err = error instanceof Error ? error : new Error(String(error));
  if (err.name === 'ReplyError') {
    return new KeyValueError(AUTH_ERROR.test(err.message) ? 'auth' : 'reply', err.message);
  }
  if (/timed out/i.test(err.message)) return new KeyValueError('timeout', err.message);
  const cause = lastConnectionError ?? err;
  if (cause.name === 'ReplyError' && AUTH_ERROR.test(cause.message))
    return new KeyValueError('auth', cause.message);
  const code = String((cause as NodeJS.ErrnoException).code ?? '');
  if (
    /^(ERR_TLS|ERR_SSL|UNABLE_TO|CERT_|DEPTH_ZERO|SELF_SIGNED|ERR_OSSL)/.test(code) ||
    /certificate/i.test(cause.message)
  )
    return new KeyValueError('tls', cause.message);
  return new KeyValueError('unreachable', cause.message);
}

function tlsOptions(target: KeyValueTarget): ConnectionOptions | undefined {
  if (!target.tls) return undefined;
  // The socket goes to the checked address; the certificate is checked against `servername`.
  const name = target.tls.serverName ?? target.hostName;
  return {
    // SNI carries names only; for an IP the certificate is checked against the address itself.
    ...(net.isIP(name) ? {} : { servername: name }),
    rejectUnauthorized: target.tls.rejectUnauthorized,
    ...(target.tls.caPem ? { ca: target.tls.caPem } : {}),
  };
}

interface PooledClient {
  redis: Redis;
  ready: Promise<void>;
  lastError: Error | undefined;
}

/**
 * Holds the client's socket writes back until the end of this turn of the event loop, so the
 * commands of all the requests handled in one turn reach the server in one write (one system call
 * here, one read there) instead of one each: under load most of a command's cost was that write.
 */
function gatherWrites(client: PooledClient): void {
  const { stream } = client.redis;
  // Already held back this turn: its uncork is scheduled.
  if (stream.writableCorked > 0) return;
  stream.cork();
  setImmediate(() => stream.uncork());
}

/**
 * A few connections to one registered database. Commands are pipelined over them round-robin, and
 * those sent in one turn of the event loop go out in one write (`gatherWrites`). A connection that
 * dropped is replaced on next use (no silent retries: a command either reached the server once or
 * failed). `COMMAND INFO` answers are cached for the life of the pool.
 */
export class KeyValuePool {
  private readonly clients: (PooledClient | undefined)[];
  private next = 0;
  private readonly specs = new Map<string, Promise<CommandSpec | null>>();
  private closed = false;

  constructor(
    private readonly target: KeyValueTarget,
    private readonly options: PoolOptions,
  ) {
    this.clients = new Array(options.size).fill(undefined);
  }

  /** Runs one command; the reply comes decoded (buffers for strings, objects for maps). */
  async run(args: readonly Buffer[]): Promise<unknown> {
    const client = await this.acquire();
    gatherWrites(client);
    try {
      return await client.redis.callBuffer(args[0]!.toString('latin1'), args.slice(1) as Buffer[]);
    } catch (error) {
      throw toKeyValueError(error, client.lastError);
    }
  }

  /** The server's own description of a command; null when the server does not know it. */
  commandSpec(name: string): Promise<CommandSpec | null> {
    const key = name.toLowerCase();
    let spec = this.specs.get(key);
    if (!spec) {
      spec = this.fetchSpec(key);
      this.specs.set(key, spec);
      // Unknown names are asked again next time: a module may add them meanwhile.
      spec.then(
        (found) => found === null && this.specs.delete(key),
        () => this.specs.delete(key),
      );
    }
    return spec;
  }

  /** Keys a command would touch, as the server finds them (for commands whose keys move). */
  async keyCount(args: readonly Buffer[]): Promise<number | undefined> {
    const client = await this.acquire();
    gatherWrites(client);
    try {
      const keys = await client.redis.callBuffer('command', ['getkeys', ...args] as Buffer[]);
      return Array.isArray(keys) ? keys.length : undefined;
    } catch {
      return undefined;
    }
  }

  /** Round trip and version, for the database's status. */
  async probe(): Promise<{ serverVersion: string | null; latencyMs: number }> {
    const client = await this.acquire();
    try {
      const started = performance.now();
      await client.redis.ping();
      const latencyMs = performance.now() - started;
      const info = String(await client.redis.info('server'));
      const version = /^redis_version:(.+)$/m.exec(info)?.[1]?.trim() ?? null;
      return { serverVersion: version, latencyMs };
    } catch (error) {
      throw toKeyValueError(error, client.lastError);
    }
  }

  close(): void {
    this.closed = true;
    for (const client of this.clients) client?.redis.disconnect();
    this.clients.fill(undefined);
  }

  private async fetchSpec(name: string): Promise<CommandSpec | null> {
    const client = await this.acquire();
    let reply: unknown;
    try {
      reply = await client.redis.call('command', 'info', name);
    } catch (error) {
      throw toKeyValueError(error, client.lastError);
    }
    const entry = Array.isArray(reply) ? reply[0] : null;
    return entry ? toSpec(entry) : null;
  }

  private async acquire(): Promise<PooledClient> {
    if (this.closed) throw new KeyValueError('unreachable', 'the database was changed or removed');
    const { Redis } = await loadIoredis();
    const slot = this.next;
    this.next = (this.next + 1) % this.clients.length;
    let client = this.clients[slot];
    if (!client || client.redis.status === 'end' || client.redis.status === 'close') {
      client?.redis.disconnect();
      client = this.connect(Redis);
      this.clients[slot] = client;
    }
    try {
      await client.ready;
    } catch (error) {
      if (this.clients[slot] === client) this.clients[slot] = undefined;
      throw toKeyValueError(error, client.lastError);
    }
    return client;
  }

  private connect(Redis: RedisClass): PooledClient {
    const { target, options } = this;
    const tls = tlsOptions(target);
    const redis = new Redis({
      host: target.host,
      port: target.port,
      ...(target.username ? { username: target.username } : {}),
      ...(target.password ? { password: target.password } : {}),
      db: target.db,
      ...(tls ? { tls } : {}),
      protocol: 3,
      replyMapping: 'resp3',
      lazyConnect: true,
      connectTimeout: options.connectTimeoutMs,
      commandTimeout: options.commandTimeoutMs,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      connectionName: 'infragate-console',
    });
    const client: PooledClient = { redis, ready: Promise.resolve(), lastError: undefined };
    redis.on('error', (error: Error) => {
      client.lastError = error;
    });
    const deadline = new Promise<never>((_, reject) => {
      const timer = setTimeout(
        () => reject(new KeyValueError('timeout', `no connection within ${options.connectTimeoutMs} ms`)),
        options.connectTimeoutMs,
      );
      timer.unref();
      redis.once('ready', () => clearTimeout(timer));
      redis.once('end', () => clearTimeout(timer));
    });
    client.ready = Promise.race([redis.connect(), deadline]).catch((error) => {
      redis.disconnect();
      throw error;
    });
    client.ready.catch(() => {});
    return client;
  }
}

type RedisClass = typeof Redis;
let ioredis: Promise<{ Redis: RedisClass }> | undefined;

/** The client library is loaded with the first console connection, not at start-up. */
function loadIoredis(): Promise<{ Redis: RedisClass }> {
  ioredis ??= import('ioredis').then((module) => ({ Redis: module.Redis }));
  return ioredis;
}

/** A `COMMAND INFO` entry (arrays of strings as `call` answers them) as a CommandSpec. */
function toSpec(entry: unknown): CommandSpec {
  const row = entry as unknown[];
  const strings = (value: unknown) => (Array.isArray(value) ? value.map((item) => String(item)) : []);
  return {
    name: String(row[0]).toLowerCase(),
    arity: Number(row[1]),
    flags: strings(row[2]).map((flag) => flag.toLowerCase()),
    firstKey: Number(row[3]),
    lastKey: Number(row[4]),
    step: Number(row[5]),
    categories: strings(row[6]).map((category) => category.toLowerCase()),
    subcommands: Array.isArray(row[9]) ? row[9].map(toSpec) : [],
  };
}
