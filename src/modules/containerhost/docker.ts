import { PassThrough } from 'node:stream';
import Docker from 'dockerode';
import { findEgressDenial } from '../../core/egress-guard.js';
import { AppError, notFound, unprocessable } from '../../core/errors.js';

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
 * race against a timer), so an engine that hangs answers 422 instead of holding the request.
 */
export class Engine {
  constructor(
    readonly docker: Docker,
    readonly endpoint: Endpoint,
    private readonly timeoutMs: number,
  ) {}

  /**
   * Runs `fn` against the engine; engine 404s become NOT_FOUND naming `what`, unreachable engines and
   * refused operations 422. `extraMs` extends the deadline for calls that wait by design (stop).
   */
  async call<T>(what: Record<string, unknown>, fn: (docker: Docker) => Promise<T>, extraMs = 0): Promise<T> {
    const deadline = this.timeoutMs + extraMs;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            unprocessable('ENGINE_TIMEOUT', `the container engine did not answer within ${deadline} ms`),
          ),
        deadline,
      );
    });
    try {
      return await Promise.race([fn(this.docker), timeout]);
    } catch (error) {
      throw translateEngineError(error, what);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Runs a command (argument array, no shell) in a running container; answers exit code and output. */
  async exec(
    containerId: string,
    cmd: string[],
  ): Promise<{ exitCode: number; stdout: string; stderr: string }> {
    return this.call({ containerId }, async (docker) => {
      const exec = await docker.getContainer(containerId).exec({
        Cmd: cmd,
        AttachStdout: true,
        AttachStderr: true,
      });
      const stream = await exec.start({ hijack: true, stdin: false });
      const stdout = new PassThrough();
      const stderr = new PassThrough();
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      stdout.on('data', (chunk: Buffer) => out.push(chunk));
      stderr.on('data', (chunk: Buffer) => err.push(chunk));
      docker.modem.demuxStream(stream, stdout, stderr);
      await new Promise<void>((resolve, reject) => {
        stream.on('end', resolve);
        stream.on('close', resolve);
        stream.on('error', reject);
      });
      const info = await exec.inspect();
      return {
        exitCode: info.ExitCode ?? -1,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      };
    });
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

export function translateEngineError(error: EngineFailure, what: Record<string, unknown>): Error {
  if (error instanceof AppError) return error;
  const denial = findEgressDenial(error);
  if (denial) return unprocessable('EGRESS_DENIED', denial.message, { rule: denial.rule });
  const status = error?.statusCode;
  if (status === 404) return notFound({ ...what, engineMessage: engineMessage(error) });
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
 * Builds the client for a node. It connects lazily, on the first call; the egress check of remote hosts
 * is the caller's (EngineNodeService), which also repeats it whenever it reuses a client.
 */
export function connectEngine(endpoint: Endpoint, credentials: EngineCredentials, timeoutMs: number): Engine {
  let options: Docker.DockerOptions;
  if (endpoint.kind === 'unix') {
    options = { socketPath: endpoint.socketPath, timeout: timeoutMs };
  } else if (endpoint.kind === 'tcp') {
    const tls = Boolean(credentials.tlsCa || credentials.tlsCert || credentials.tlsKey);
    options = {
      host: endpoint.host,
      port: endpoint.port,
      protocol: tls ? 'https' : 'http',
      timeout: timeoutMs,
      ...(credentials.tlsCa ? { ca: credentials.tlsCa } : {}),
      ...(credentials.tlsCert ? { cert: credentials.tlsCert } : {}),
      ...(credentials.tlsKey ? { key: credentials.tlsKey } : {}),
    };
  } else {
    options = {
      protocol: 'ssh',
      host: endpoint.host,
      port: endpoint.port,
      username: endpoint.username,
      timeout: timeoutMs,
      sshOptions: {
        readyTimeout: timeoutMs,
        ...(credentials.sshKey ? { privateKey: credentials.sshKey } : {}),
      },
    } as Docker.DockerOptions;
  }
  return new Engine(new Docker(options), endpoint, timeoutMs);
}

/** Networks every engine creates itself; disconnecting from one can cut a container off. */
export const BUILT_IN_NETWORKS = new Set(['bridge', 'host', 'none']);

/** Engines answer container names with a leading slash (`/web`). */
export const stripSlash = (name: string | undefined) => (name ?? '').replace(/^\//, '');
