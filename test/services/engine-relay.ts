import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** Engine requests that hold their connection open for as long as they stream. */
const STREAMING_REQUEST =
  /^(GET|POST) \S*\/(containers\/[^/]+\/(logs|stats|attach)|images\/create|exec\/[^/]+\/start)\b/;

/**
 * A unix-socket relay in front of a container engine that watches what passes: it counts the open
 * connections whose latest request is a stream (logs, stats, pulls, exec sessions), so a test can see
 * the engine's side of a stream close when the gateway's client leaves.
 */
export interface EngineRelay {
  /** `unix:///…/relay.sock`, ready for a node's endpoint. */
  endpoint: string;
  /** Connections to the engine that carry a stream and are still open. */
  openStreams(): number;
  close(): Promise<void>;
}

export async function startEngineRelay(engineSocket: string): Promise<EngineRelay> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-relay-'));
  const socketPath = path.join(dir, 'relay.sock');
  const streaming = new Set<net.Socket>();
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const engine = net.connect(engineSocket);
    open.add(client);
    client.on('data', (chunk: Buffer) => {
      const requestLine = chunk.toString('latin1', 0, Math.min(chunk.length, 512));
      if (/^(GET|POST|PUT|DELETE|HEAD) /.test(requestLine)) {
        if (STREAMING_REQUEST.test(requestLine)) streaming.add(client);
        else streaming.delete(client);
      }
    });
    const forget = () => {
      streaming.delete(client);
      open.delete(client);
    };
    client.on('close', forget);
    client.pipe(engine).pipe(client);
    client.on('error', () => engine.destroy());
    engine.on('error', () => client.destroy());
    client.on('close', () => engine.destroy());
    engine.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return {
    endpoint: `unix://${socketPath}`,
    openStreams: () => streaming.size,
    async close() {
      for (const client of open) client.destroy();
      await new Promise((resolve) => server.close(resolve));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
