import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The HTTP side the vendor fakes share: a loopback server, the requests it saw, and the fault
 * models every fake answers the same way (so failover and broken streams can be driven through any
 * protocol): `fail-503` answers 503, `fail-429` 429, `garbage` a 200 that is not JSON, `cut-stream`
 * breaks its stream off after the first event, `hang` never answers (and counts the aborts).
 */
export interface SeenRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

export interface FakeVendor {
  url: string;
  requests: SeenRequest[];
  /** Requests whose client went away before the answer ended. */
  aborted: number;
  close(): Promise<void>;
}

export type Handler = (request: SeenRequest, response: http.ServerResponse) => void;

export const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

export function sendJson(response: http.ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** Writes server-sent events one by one, each in its own write (so a relay sees them apart). */
export function sendEvents(
  response: http.ServerResponse,
  events: { event?: string; data: unknown }[],
  model: string,
): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const list = model === 'cut-stream' ? events.slice(0, 1) : events;
  const text = list
    .map(
      ({ event, data }) =>
        `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`,
    )
    .join('');
  // The cut stream's connection drops once its first event is on the wire.
  if (model === 'cut-stream') response.write(text, () => setTimeout(() => response.socket?.destroy(), 50));
  else response.end(text);
}

/** Answers the fault models; true when it did. */
export function answeredFault(model: string, response: http.ServerResponse, vendor: FakeVendor): boolean {
  if (model === 'fail-503') sendJson(response, 503, { error: { message: 'overloaded' } });
  else if (model === 'fail-429') sendJson(response, 429, { error: { message: 'slow down' } });
  else if (model === 'garbage') {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<html>not an API</html>');
  } else if (model === 'hang') response.on('close', () => vendor.aborted++);
  else return false;
  return true;
}

export async function startFakeServer(
  handle: Handler,
  vendor: Omit<FakeVendor, 'url' | 'close'>,
): Promise<FakeVendor> {
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        return sendJson(response, 400, { error: { message: 'body is not JSON' } });
      }
      const seen = { method: request.method!, path: request.url!, headers: request.headers, body };
      vendor.requests.push(seen);
      handle(seen, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const fake = vendor as FakeVendor;
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
