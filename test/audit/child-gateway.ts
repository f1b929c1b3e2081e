import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort, waitFor } from '../services/peers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A real `infragate serve` in its own process (node + tsx loader directly, so its pid is the server's). */
export interface ChildGateway {
  baseUrl: string;
  child: ChildProcess;
  /** The first-start admin token, when this start printed one. */
  firstToken: string | undefined;
  output(): string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read response bodies freely
  call(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: any }>;
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

export async function startChildGateway(env: Record<string, string>): Promise<ChildGateway> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      INFRAGATE_EGRESS: 'any',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`gateway exited: ${output}`);
      return (await fetch(`${baseUrl}/healthz`)).ok;
    },
    'child gateway',
    60_000,
  );
  await waitFor(async () => output.includes('infragate listening'), 'listening line', 10_000);
  return {
    baseUrl,
    child,
    firstToken: /\b(igw_\S+)/.exec(output)?.[1],
    output: () => output,
    async call(method, path, token, body) {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    },
    async kill9() {
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}
