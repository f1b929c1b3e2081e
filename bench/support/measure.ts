import { fork } from 'node:child_process';
import autocannon from 'autocannon';

export interface LoadResult {
  label: string;
  requestsPerSecond: number;
  /** Requests answered in the whole run. */
  total: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  connections?: number;
  durationSeconds?: number;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH';
  body?: string;
  /** Paths taken in turn, one per request (e.g. a different record each time); default: the URL's. */
  paths?: string[];
  /** SNI name for https URLs (autocannon does not check the certificate). */
  servername?: string;
}

/** Drives one URL with autocannon for a bounded time and summarises it. */
export async function load(label: string, options: LoadOptions): Promise<LoadResult> {
  let next = 0;
  const paths = options.paths;
  const result = await autocannon({
    url: options.url,
    headers: options.headers,
    method: options.method ?? 'GET',
    body: options.body,
    connections: options.connections ?? 50,
    duration: options.durationSeconds ?? 10,
    ...(paths
      ? { requests: [{ setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length]! }) }] }
      : {}),
    ...(options.servername ? { servername: options.servername } : {}),
  });
  return {
    label,
    requestsPerSecond: Math.round(result.requests.average),
    total: result.requests.total,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

/**
 * Runs a server in a child process (so load generation and serving do not share a thread); the
 * child sends `{ url, headers? }` once it listens.
 */
export function startServerProcess(script: string, args: string[] = []) {
  const child = fork(script, args, {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = new Promise<{ url: string; headers?: Record<string, string> }>((resolve, reject) => {
    child.once('message', (message) => resolve(message as { url: string; headers?: Record<string, string> }));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { child, ready, stop: () => child.kill('SIGTERM') };
}

export function printTable(results: LoadResult[], baseline: LoadResult): void {
  for (const r of results) {
    const ratio = ((r.requestsPerSecond / baseline.requestsPerSecond) * 100).toFixed(1);
    console.log(
      `${r.label.padEnd(28)} ${String(r.requestsPerSecond).padStart(8)} req/s  p50 ${r.p50Ms} ms  p99 ${r.p99Ms} ms  ` +
        `${ratio}% of ${baseline.label}  errors ${r.errors} non-2xx ${r.non2xx}`,
    );
  }
}
