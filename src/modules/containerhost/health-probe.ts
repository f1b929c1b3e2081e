import { type EgressGuard, findEgressDenial } from '../../core/egress-guard.js';
import { unprocessable } from '../../core/errors.js';
import { type EngineContainer, type EnginePort, egressFor } from './engine-port.js';
import type { HealthCheckConfig, HealthResult } from './schemas/health-checks.js';

// One HTTP(S) probe of a container: where it goes, and what the answer means.

/** How much of a response body is read for matching. */
const BODY_READ_LIMIT = 1024 * 1024;

/** Resolves the target URL, then performs one HTTP(S) request with the configured timeout. */
export async function probeContainer(
  egress: EgressGuard,
  engine: EnginePort,
  containerName: string,
  config: HealthCheckConfig,
): Promise<HealthResult> {
  const container = await engine.inspectContainer(containerName);
  const nodeHost = engine.publishedHost;
  if (!config.enabled) {
    let url: string | null = null;
    try {
      url = targetUrl(nodeHost, container, config);
    } catch {
      // A disabled check is reported as disabled even when it has no target yet.
    }
    return unmeasuredResult('disabled', url);
  }
  const url = targetUrl(nodeHost, container, config);
  if (!container.State?.Running)
    return unmeasuredResult('offline', url, `container is ${container.State?.Status ?? 'not running'}`);
  const started = performance.now();
  try {
    const response = await egressFor(egress, engine).fetch(url, {
      method: 'GET',
      timeoutMs: config.timeoutSeconds * 1000,
      maxRedirects: 0,
      headers: { 'user-agent': 'infragate-health-check' },
    });
    let body = '';
    if (config.expectedBody === null) await response.body?.cancel();
    else body = await readLimited(response);
    const responseMs = Math.round(performance.now() - started);
    const bodyMatched =
      config.expectedBody === null ? null : bodyMatches(body, config.expectedBody, config.bodyMatchMode);
    const statusOk = response.status >= config.statusMin && response.status <= config.statusMax;
    const ok = statusOk && bodyMatched !== false;
    const slow = responseMs > config.slowThreshold;
    const error = !statusOk
      ? `HTTP ${response.status} is outside ${config.statusMin}-${config.statusMax}`
      : bodyMatched === false
        ? `response body does not match (${config.bodyMatchMode})`
        : undefined;
    return {
      ok,
      status: ok ? (slow ? 'degraded' : 'online') : 'offline',
      httpStatus: response.status,
      responseMs,
      slow,
      bodyMatched,
      url,
      ...(error ? { error } : {}),
      checkedAt: new Date(),
    };
  } catch (error) {
    const responseMs = Math.round(performance.now() - started);
    return {
      ...unmeasuredResult('offline', url, describeFailure(error, config.timeoutSeconds)),
      responseMs,
    };
  }
}

/** A result with nothing measured: the check is disabled, or the probe got no answer (offline, and why). */
export function unmeasuredResult(
  status: 'disabled' | 'offline',
  url: string | null,
  error?: string,
): HealthResult {
  return {
    ok: false,
    status,
    httpStatus: null,
    responseMs: null,
    slow: false,
    bodyMatched: null,
    url,
    ...(error === undefined ? {} : { error }),
    checkedAt: new Date(),
  };
}

/** Where a probe goes: hostPort on the node's host, else containerPort at the container's address, else its first published TCP port. */
function targetUrl(nodeHost: string, container: EngineContainer, config: HealthCheckConfig): string {
  const hostFor = (host: string) => (host.includes(':') ? `[${host}]` : host);
  if (config.hostPort !== null)
    return `${config.scheme}://${hostFor(nodeHost)}:${config.hostPort}${config.path}`;
  if (config.containerPort !== null) {
    const ip = Object.values(container.NetworkSettings?.Networks ?? {})
      .map((n) => n.IPAddress)
      .find(Boolean);
    if (!ip)
      throw unprocessable(
        'NO_CONTAINER_ADDRESS',
        'the container has no IP address on any network; give hostPort to probe a published port instead',
      );
    return `${config.scheme}://${hostFor(ip)}:${config.containerPort}${config.path}`;
  }
  const published = Object.entries(container.NetworkSettings?.Ports ?? {})
    .filter(([key]) => key.endsWith('/tcp'))
    .flatMap(([, bindings]) => bindings ?? [])
    .find((binding) => binding.HostPort);
  if (!published)
    throw unprocessable(
      'NO_TARGET_PORT',
      'give hostPort or containerPort: the container publishes no TCP port to probe',
    );
  return `${config.scheme}://${hostFor(nodeHost)}:${published.HostPort}${config.path}`;
}

function bodyMatches(body: string, expected: string, mode: HealthCheckConfig['bodyMatchMode']): boolean {
  switch (mode) {
    case 'exact':
      return body === expected || body.trim() === expected.trim();
    case 'starts_with':
      return body.startsWith(expected);
    case 'ends_with':
      return body.endsWith(expected) || body.trimEnd().endsWith(expected);
    default:
      return body.includes(expected);
  }
}

async function readLimited(response: Response | import('undici').Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
    if (size >= BODY_READ_LIMIT) {
      await reader.cancel();
      break;
    }
  }
  return Buffer.concat(chunks).toString('utf8');
}

function describeFailure(error: unknown, timeoutSeconds: number): string {
  const denial = findEgressDenial(error);
  if (denial) return denial.message;
  for (let current = error; current instanceof Error; current = current.cause) {
    if (current.name === 'TimeoutError' || current.name === 'AbortError')
      return `timed out after ${timeoutSeconds} s`;
    const code = (current as NodeJS.ErrnoException).code;
    if (code === 'ECONNREFUSED') return 'connection refused';
    if (code === 'ECONNRESET') return 'connection reset';
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT')
      return `timed out after ${timeoutSeconds} s`;
    if (code && !(current.cause instanceof Error)) return `${code}: ${current.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}
