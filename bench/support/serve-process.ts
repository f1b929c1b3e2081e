import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from '../../test/services/peers.js';

/** One `node dist/cli.js serve` of a source tree, as an operator starts it. */
export interface ServedGateway {
  pid: number;
  baseUrl: string;
  /** Milliseconds from spawning the process to the first 200 of `/readyz`. */
  startMs: number;
  /** What it printed so far (stdout and stderr, log lines included). */
  output(): string;
  /** Resident set size now, from /proc. */
  rssMiB(): number;
  stop(): Promise<void>;
}

export interface ServeOptions {
  /** Root of a built checkout (its `dist/cli.js` is run). */
  tree: string;
  dataDir: string;
  databaseUrl?: string;
  logLevel?: string;
}

/**
 * Starts the gateway of `tree` in its own process on a free loopback port and resolves once
 * `/readyz` answers 200. Its output goes to a file in the data dir (as it would to a log file or
 * journald), not through this process.
 */
export async function serveTree(options: ServeOptions): Promise<ServedGateway> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const logFile = path.join(options.dataDir, `serve-${port}.log`);
  fs.mkdirSync(options.dataDir, { recursive: true });
  const out = fs.openSync(logFile, 'w');
  const started = performance.now();
  // BENCH_CPU_PROF_DIR=<dir> writes a V8 CPU profile of each gateway process there when it exits.
  const profile = process.env.BENCH_CPU_PROF_DIR;
  const nodeArgs = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
  const child = spawn(process.execPath, [...nodeArgs, path.join(options.tree, 'dist/cli.js'), 'serve'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      INFRAGATE_DATA_DIR: options.dataDir,
      INFRAGATE_EGRESS: 'any',
      DATABASE_URL: options.databaseUrl ?? '',
      LOG_LEVEL: options.logLevel ?? 'warn',
    },
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let failed = false;
  void exited.then(() => {
    failed = true;
  });
  for (;;) {
    if (failed) throw new Error(`serve exited before it was ready:\n${fs.readFileSync(logFile, 'utf8')}`);
    const ready = await fetch(`${baseUrl}/readyz`).then(
      (response) => response.status === 200,
      () => false,
    );
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const startMs = performance.now() - started;
  return {
    pid: child.pid!,
    baseUrl,
    startMs,
    output: () => fs.readFileSync(logFile, 'utf8'),
    rssMiB: () => {
      const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}
