import { spawn } from 'node:child_process';
import net from 'node:net';
import { findBinary, freePort, waitFor } from './peers.js';

export interface RedisServer {
  port: number;
  url: string;
  /** Kills the server (by its own pid) and waits for it to exit. */
  stop(): Promise<void>;
}

/** Whether redis-server can be started here, and why not. */
export function redisBinary() {
  return findBinary('redis-server', ['/usr/bin/redis-server', '/usr/local/bin/redis-server']);
}

/** Sends one inline command and resolves with the first reply line (for readiness checks). */
function inlineCommand(port: number, line: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    socket.setTimeout(2000, () => socket.destroy(new Error('timeout')));
    socket.on('connect', () => socket.write(`${line}\r\n`));
    socket.on('data', (chunk) => {
      data += chunk.toString('utf8');
      if (data.includes('\r\n')) {
        socket.end();
        resolve(data.split('\r\n')[0]!);
      }
    });
    socket.on('error', reject);
  });
}

/**
 * Starts a throw-away redis-server on a free loopback port (or `options.port`, to bring a stopped
 * server back) without persistence. `args` adds configuration, e.g. `['--requirepass', 'secret']`.
 */
export async function startRedis(args: string[] = [], options: { port?: number } = {}): Promise<RedisServer> {
  const binary = redisBinary().path;
  if (!binary) throw new Error('redis-server not found');
  const port = options.port ?? (await freePort());
  const child = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...args],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitFor(async () => {
    const answer = await inlineCommand(port, 'PING');
    // With requirepass the server answers NOAUTH, which still means it is up.
    return answer === '+PONG' || answer.startsWith('-NOAUTH');
  }, 'redis-server');
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
