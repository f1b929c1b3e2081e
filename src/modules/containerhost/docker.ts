import https from 'node:https';
import { createRequire } from 'node:module';
import net from 'node:net';
import type { Duplex, Readable } from 'node:stream';
import type Docker from 'dockerode';
import { type EgressGuard, findEgressDenial } from '../../core/egress-guard.js';
import { AppError, conflict, notFound, unprocessable } from '../../core/errors.js';

/** dockerode and its dependencies are loaded when the first node is connected, not at start-up. */
let dockerode: typeof Docker | undefined;
const loadDockerode = () => (dockerode ??= createRequire(import.meta.url)('dockerode') as typeof Docker);

/** A node's endpoint, parsed: where its Docker Engine API listens and how to reach it. */
export type Endpoint =
  | { kind: 'unix'; socketPath: string }
  | { kind: 'tcp'; host: string; port: number }
  | { kind: 'ssh'; host: string; port: number; username: string };

export interface EngineCredentials {
  tlsCa?: string | undefined;
  tlsCert?: string | undefined;
  tlsKey?: string | undefined;
  sshKey?: string | undefined;
}

/** Parses `unix:///path.sock`, `tcp://host:port` or `ssh://user@host[:port]`; undefined when malformed. */
export function parseEndpoint(text: string): Endpoint | { error: string } {
  const unix = /^unix:\/\/(\/[^\0]+)$/.exec(text);
  if (unix) return { kind: 'unix', socketPath: unix[1]! };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { error: 'must be unix:///path.sock, tcp://host:port or ssh://user@host' };
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (url.pathname.replace(/\/$/, '') !== '' || url.search || url.hash)
    return { error: 'must not have a path, query or fragment' };
  if (url.protocol === 'tcp:') {
    if (!host || !url.port) return { error: 'tcp:// endpoints need a host and a port' };
    if (url.username || url.password) return { error: 'tcp:// endpoints take no user' };
    return { kind: 'tcp', host, port: Number(url.port) };
  }
  if (url.protocol === 'ssh:') {
    if (!host || !url.username) return { error: 'ssh:// endpoints need user@host' };
    if (url.password) return { error: 'put the SSH key in sshPrivateKey, not a password in the URL' };
    return {
      kind: 'ssh',
      host,
      port: url.port ? Number(url.port) : 22,
      username: decodeURIComponent(url.username),
    };
  }
  return { error: 'must be unix:///path.sock, tcp://host:port or ssh://user@host' };
}

/**
 * The egress guard for outbound work on a node's behalf (probes of its ports, pulls from a registry): a
 * node on a local unix socket is the gateway's own host, so loopback is allowed (EgressGuard.forOwnHost).
 */
export const egressFor = (egress: EgressGuard, engine: { ownHost: boolean }) =>
  engine.ownHost ? egress.forOwnHost() : egress;

/** The host name probes use to reach ports the node publishes. */
export function publishedHost(endpoint: Endpoint): string {
  return endpoint.kind === 'unix' ? '127.0.0.1' : endpoint.host;
}

// biome-ignore lint/suspicious/noExplicitAny: engine errors are loosely shaped objects
type EngineFailure = any;

function engineMessage(error: EngineFailure): string {
  const json = error?.json;
  if (json && typeof json === 'object' && typeof json.message === 'string') return json.message;
  if (typeof json === 'string' && json.trim()) return json.trim();
  return String(error?.message ?? error);
}

/**
 * One connection to one node's engine. Every call carries a deadline (the modem's socket timeout and a
 * race against a timer), so an engine that hangs answers 422 instead of holding the request. Streams
 * (logs, stats, pulls, exec sessions) use a second client without the socket timeout: a quiet stream is
 * not a hung one. Their opening is bounded by the deadline; after that they live until they end or the
 * caller's signal aborts them.
 */
export class Engine {
  constructor(
    readonly docker: Docker,
    readonly streams: Docker,
    readonly endpoint: Endpoint,
    readonly timeoutMs: number,
    /** The checked address a remote engine's client connects to (none for a unix socket). */
    readonly address: string | undefined,
  ) {}

  /** A node on a local unix socket is the gateway's own host (see EgressGuard.forOwnHost). */
  get ownHost(): boolean {
    return this.endpoint.kind === 'unix';
  }

  /**
   * Runs `fn` against the engine; engine 404s become NOT_FOUND naming `what`, conflicts 409, unreachable
   * engines and refused operations 422. `extraMs` extends the deadline for calls that wait by design
   * (stop, restart); those go through the client without a socket timeout.
   */
  async call<T>(what: Record<string, unknown>, fn: (docker: Docker) => Promise<T>, extraMs = 0): Promise<T> {
    return this.withDeadline(what, fn(extraMs > 0 ? this.streams : this.docker), this.timeoutMs + extraMs);
  }

  /** Whether the engine knows an object: its inspect answers (true) or is a 404 (false). */
  async exists(
    what: Record<string, unknown>,
    inspect: (docker: Docker) => Promise<unknown>,
  ): Promise<boolean> {
    return this.call(what, (docker) =>
      inspect(docker).then(
        () => true,
        (error) => ((error as { statusCode?: number }).statusCode === 404 ? false : Promise.reject(error)),
      ),
    );
  }

  /**
   * Opens a long-lived engine stream. The deadline covers the opening only (a stream that arrives late is
   * destroyed); aborting `signal` destroys the stream, which is how a client that leaves ends it.
   */
  async openStream<T extends Readable | Duplex>(
    what: Record<string, unknown>,
    open: (docker: Docker) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    if (signal?.aborted) throw unprocessable('CLIENT_GONE', 'the client left before the stream opened');
    const opening = open(this.streams);
    let stream: T;
    try {
      stream = await this.withDeadline(what, opening, this.timeoutMs);
    } catch (error) {
      opening.then((late) => late.destroy()).catch(() => {});
      throw error;
    }
    if (signal) {
      const destroy = () => stream.destroy();
      signal.addEventListener('abort', destroy, { once: true });
      stream.once('close', () => signal.removeEventListener('abort', destroy));
      if (signal.aborted) stream.destroy();
    }
    return stream;
  }

  /** Waits for `work` at most `deadlineMs`; the engine's failures are translated as `call` does. */
  async withDeadline<T>(what: Record<string, unknown>, work: Promise<T>, deadlineMs = this.timeoutMs) {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            unprocessable('ENGINE_TIMEOUT', `the container engine did not answer within ${deadlineMs} ms`),
          ),
        deadlineMs,
      );
    });
    try {
      return await Promise.race([work, timeout]);
    } catch (error) {
      throw translateEngineError(error, what);
    } finally {
      clearTimeout(timer);
    }
  }
}

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOENT',
  'EACCES',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EPIPE',
]);

/**
 * Podman's causes for what Docker answers 409 (or 403, for networks in use and built-in networks): a name
 * in use, a container in the wrong state, an object something else still uses, an image id with several
 * names (Docker: "must be forced").
 */
const PODMAN_CONFLICT_CAUSES = [
  /^container state improper$/,
  /^that name is already in use$/,
  /^(network|volume) already exists$/,
  /^(network|volume) is being used$/,
  /^image is in use by a container$/,
  /by ID with more than one tag .*please force removal$/,
];

function isEngineConflict(error: EngineFailure): boolean {
  const status = error?.statusCode;
  if (status === 409 || status === 403) return true;
  const cause = error?.json?.cause;
  return (
    status === 500 && typeof cause === 'string' && PODMAN_CONFLICT_CAUSES.some((known) => known.test(cause))
  );
}

/** An engine failure as the gateway answers it: 404, 409 (with the engine's words), or 422 with a reason. */
export function translateEngineError(error: EngineFailure, what: Record<string, unknown>): Error {
  if (error instanceof AppError) return error;
  const denial = findEgressDenial(error);
  if (denial) return unprocessable('EGRESS_DENIED', denial.message, { rule: denial.rule });
  const status = error?.statusCode;
  if (status === 404) return notFound({ ...what, engineMessage: engineMessage(error) });
  if (isEngineConflict(error))
    return conflict('ENGINE_CONFLICT', { explanation: engineMessage(error), engineStatus: status });
  if (typeof status === 'number')
    return unprocessable('ENGINE_REFUSED', engineMessage(error), { engineStatus: status });
  const code = error?.code ?? error?.cause?.code;
  if (code && UNREACHABLE_CODES.has(code))
    return unprocessable('ENGINE_UNREACHABLE', `the container engine could not be reached: ${code}`, {
      errno: code,
    });
  if (/timeout|timed out/i.test(String(error?.message)))
    return unprocessable('ENGINE_TIMEOUT', 'the container engine did not answer in time');
  return unprocessable(
    'ENGINE_UNREACHABLE',
    `the container engine could not be reached: ${engineMessage(error)}`,
  );
}

/**
 * Builds the client for a node. It connects lazily, on the first call. A remote engine's client
 * connects to `address`, the one the egress guard checked for the endpoint's host (the caller's
 * check, EngineNodeService, repeated whenever it reuses a client), never to the host name again: a
 * second lookup could answer another address (DNS rebinding).
 */
export function connectEngine(
  endpoint: Endpoint,
  credentials: EngineCredentials,
  timeoutMs: number,
  address: string | undefined,
): Engine {
  const options = clientOptions(endpoint, credentials, timeoutMs, address);
  const { timeout: _socketTimeout, ...streamOptions } = options;
  const DockerClient = loadDockerode();
  return new Engine(new DockerClient(options), new DockerClient(streamOptions), endpoint, timeoutMs, address);
}

/** Idle connections of a TLS engine close after this, as with Node's global agent. */
const IDLE_SOCKET_MS = 5000;

function clientOptions(
  endpoint: Endpoint,
  credentials: EngineCredentials,
  timeoutMs: number,
  address: string | undefined,
): Docker.DockerOptions {
  if (endpoint.kind === 'unix') return { socketPath: endpoint.socketPath, timeout: timeoutMs };
  const host = address ?? endpoint.host;
  if (endpoint.kind === 'tcp') {
    const tls = Boolean(credentials.tlsCa || credentials.tlsCert || credentials.tlsKey);
    // Connected to the address, the TLS session still names the host: its certificate is verified
    // against the name (and SNI sent for it), as if the name had been connected to.
    const named = tls && !net.isIP(endpoint.host);
    return {
      host,
      port: endpoint.port,
      protocol: tls ? 'https' : 'http',
      timeout: timeoutMs,
      ...(named
        ? {
            agent: new https.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS, servername: endpoint.host }),
          }
        : {}),
      ...(credentials.tlsCa ? { ca: credentials.tlsCa } : {}),
      ...(credentials.tlsCert ? { cert: credentials.tlsCert } : {}),
      ...(credentials.tlsKey ? { key: credentials.tlsKey } : {}),
    };
  }
  return {
    protocol: 'ssh',
    host,
    port: endpoint.port,
    username: endpoint.username,
    timeout: timeoutMs,
    sshOptions: {
      readyTimeout: timeoutMs,
      ...(credentials.sshKey ? { privateKey: credentials.sshKey } : {}),
    },
  } as Docker.DockerOptions;
}

/** Networks every engine creates itself; disconnecting from one can cut a container off. */
export const BUILT_IN_NETWORKS = new Set(['bridge', 'host', 'none']);

/** Engines answer container names with a leading slash (`/web`). */
export const stripSlash = (name: string | undefined) => (name ?? '').replace(/^\//, '');

/** A raw engine request, for what dockerode does not offer as needed (a stream it would buffer, a status it does not expect). */
export function dial<T>(
  docker: Docker,
  request: {
    path: string;
    method: 'GET' | 'POST';
    options?: object;
    isStream?: boolean;
    okStatuses: number[];
  },
): Promise<T> {
  const statusCodes: Record<number, true | string> = {
    404: 'not found',
    409: 'conflict',
    500: 'server error',
  };
  for (const status of request.okStatuses) statusCodes[status] = true;
  return new Promise((resolve, reject) =>
    docker.modem.dial(
      {
        path: request.path,
        method: request.method,
        options: request.options ?? {},
        isStream: request.isStream ?? false,
        statusCodes,
      },
      (error: unknown, data: unknown) => (error ? reject(error) : resolve(data as T)),
    ),
  );
}
