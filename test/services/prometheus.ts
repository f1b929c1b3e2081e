import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eventually } from '../support/eventually.js';
import { findBinary, freePort } from './peers.js';

export interface PrometheusServer {
  /** http://127.0.0.1:port */
  url: string;
  /** An instant query through Prometheus's HTTP API: the result vector of `/api/v1/query`. */
  query(expression: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]>;
  /** The scrape target's state as Prometheus reports it (`/api/v1/targets`). */
  target(): Promise<{ health: string; lastError: string } | undefined>;
  /** Kills the server (by its own pid), waits for it to exit and removes its data directory. */
  stop(): Promise<void>;
}

/** Whether Prometheus can be started here, and why not. */
export function prometheusBinary() {
  return findBinary('prometheus', ['/usr/bin/prometheus', '/usr/local/bin/prometheus']);
}

/**
 * Starts a Prometheus on a free loopback port that scrapes one target (`host:port`, the `metrics`
 * path) every `intervalSeconds` with a bearer token, keeping its data in a temp directory of its own.
 */
export async function startPrometheus(options: {
  target: string;
  bearerToken: string;
  metricsPath?: string;
  intervalSeconds?: number;
}): Promise<PrometheusServer> {
  const binary = prometheusBinary().path;
  if (!binary) throw new Error('prometheus not found');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-prometheus-'));
  const interval = `${options.intervalSeconds ?? 1}s`;
  const config = path.join(dir, 'prometheus.yml');
  // JSON is YAML: no quoting rules to get wrong for the token.
  fs.writeFileSync(
    config,
    JSON.stringify({
      global: { scrape_interval: interval, evaluation_interval: interval },
      scrape_configs: [
        {
          job_name: 'infragate',
          scrape_interval: interval,
          scrape_timeout: interval,
          metrics_path: options.metricsPath ?? '/metrics',
          authorization: { type: 'Bearer', credentials: options.bearerToken },
          static_configs: [{ targets: [options.target] }],
        },
      ],
    }),
  );
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(
    binary,
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await eventually(
    async () => (await fetch(`${url}/-/ready`).catch(() => undefined))?.ok === true,
    'prometheus',
  );
  const api = async (pathAndQuery: string) => {
    const response = await fetch(`${url}${pathAndQuery}`);
    const body = (await response.json()) as { status: string; data: unknown; error?: string };
    if (body.status !== 'success') throw new Error(`prometheus answered ${body.status}: ${body.error}`);
    return body.data;
  };
  return {
    url,
    async query(expression) {
      const data = (await api(`/api/v1/query?query=${encodeURIComponent(expression)}`)) as {
        result: { metric: Record<string, string>; value: [number, string] }[];
      };
      return data.result;
    },
    async target() {
      const data = (await api('/api/v1/targets?state=active')) as {
        activeTargets: { health: string; lastError: string }[];
      };
      return data.activeTargets[0];
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
