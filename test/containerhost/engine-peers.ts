import https from 'node:https';
import net from 'node:net';
import ssh2 from 'ssh2';
import { listenOnLoopback } from '../services/peers.js';

/** Peers on loopback that stand where an engine node points, to see what the gateway sends there. */

const HTTP_METHOD = /^(GET|HEAD|POST|PUT|DELETE|PATCH|OPTIONS) /;

/**
 * Keeps the bytes of every connection it accepts. A connection ends once it holds a whole HTTP
 * request head, or at once when its first bytes are not HTTP (a TLS or SSH greeting): no engine
 * answers here, so the gateway's call fails fast instead of waiting for its deadline.
 */
export interface RawCapture {
  port: number;
  /** The bytes each connection brought, in the order they were accepted. */
  connections(): Buffer[];
  close(): Promise<void>;
}

export async function startRawCapture(): Promise<RawCapture> {
  const received: Buffer[][] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    const chunks: Buffer[] = [];
    received.push(chunks);
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const text = Buffer.concat(chunks).toString('latin1');
      if (!HTTP_METHOD.test(text) || text.includes('\r\n\r\n')) socket.destroy();
    });
  });
  const port = await listenOnLoopback(server);
  return {
    port,
    connections: () => received.map((chunks) => Buffer.concat(chunks)),
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** An SSH server that refuses every login and keeps how each was tried (`none`, `publickey`, …). */
export interface SshCapture {
  port: number;
  authMethods(): string[];
  close(): Promise<void>;
}

export async function startSshCapture(): Promise<SshCapture> {
  const methods: string[] = [];
  const hostKey = ssh2.utils.generateKeyPairSync('ed25519').private;
  const server = new ssh2.Server({ hostKeys: [hostKey] }, (client) => {
    client.on('error', () => {});
    client.on('authentication', (context) => {
      methods.push(context.method);
      context.reject();
    });
  });
  const port = await listenOnLoopback(server as unknown as net.Server);
  return {
    port,
    authMethods: () => [...methods],
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A private key an ssh:// node can log in with (OpenSSH format). */
export const sshPrivateKey = () => ssh2.utils.generateKeyPairSync('ed25519').private;

/** An engine over TLS that answers `GET /version` as Docker does, with the given certificate chain. */
export async function startTlsEngine(tls: { key: string; cert: string }): Promise<{
  port: number;
  close(): Promise<void>;
}> {
  const server = https.createServer(tls, (_request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(
      JSON.stringify({ Version: '27.0.0-tls-test', ApiVersion: '1.46', Os: 'linux', Arch: 'amd64' }),
    );
  });
  const port = await listenOnLoopback(server);
  return {
    port,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
