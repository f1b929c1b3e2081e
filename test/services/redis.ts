import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';
import { eventually } from '../support/eventually.js';
import { localhostCertificate } from './openssl-pki.js';
import { findBinary, freePort } from './peers.js';

export interface RedisServer {
  port: number;
  /** redis://127.0.0.1:port, or rediss://localhost:port for a TLS server. */
  url: string;
  /** The CA that signed a TLS server's certificate (for `localhost` and 127.0.0.1). */
  caPem?: string;
  /** Kills the server (by its own pid) and waits for it to exit. */
  stop(): Promise<void>;
}

/** Whether redis-server can be started here, and why not. */
export function redisBinary() {
  return findBinary('redis-server', ['/usr/bin/redis-server', '/usr/local/bin/redis-server']);
}

/** Sends one inline command and resolves with the first reply line (for readiness checks). */
function inlineCommand(port: number, line: string, secure = false): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = secure
      ? tls.connect({ port, host: '127.0.0.1', rejectUnauthorized: false })
      : net.connect(port, '127.0.0.1');
    let data = '';
    socket.setTimeout(2000, () => socket.destroy(new Error('timeout')));
    socket.on(secure ? 'secureConnect' : 'connect', () => socket.write(`${line}\r\n`));
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
 * server back) without persistence. `args` adds configuration, e.g. `['--requirepass', 'secret']`;
 * `options.tls` serves TLS only, with a certificate from a fresh CA (see `caPem`).
 */
export async function startRedis(
  args: string[] = [],
  options: { port?: number; tls?: boolean } = {},
): Promise<RedisServer> {
  const binary = redisBinary().path;
  if (!binary) throw new Error('redis-server not found');
  const port = options.port ?? (await freePort());
  let listen = ['--port', String(port)];
  let caPem: string | undefined;
  if (options.tls) {
    const certs = localhostCertificate();
    caPem = fs.readFileSync(certs.ca, 'utf8');
    listen = [
      '--port',
      '0',
      '--tls-port',
      String(port),
      '--tls-cert-file',
      certs.cert,
      '--tls-key-file',
      certs.key,
      '--tls-ca-cert-file',
      certs.ca,
      '--tls-auth-clients',
      'no',
    ];
  }
  const child = spawn(
    binary,
    // `localhost` may resolve to ::1 first; `-::1` binds it when the host has IPv6 at all.
    [
      ...listen,
      '--bind',
      ...(options.tls ? ['127.0.0.1', '-::1'] : ['127.0.0.1']),
      '--save',
      '',
      '--appendonly',
      'no',
      ...args,
    ],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await eventually(async () => {
    const answer = await inlineCommand(port, 'PING', options.tls);
    // With requirepass the server answers NOAUTH, which still means it is up.
    return answer === '+PONG' || answer.startsWith('-NOAUTH');
  }, 'redis-server');
  return {
    port,
    url: options.tls ? `rediss://localhost:${port}` : `redis://127.0.0.1:${port}`,
    ...(caPem ? { caPem } : {}),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
