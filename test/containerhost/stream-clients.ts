import http from 'node:http';
import WebSocket from 'ws';
import { eventually } from '../support/eventually.js';

// Real clients of the gateway's streams, over a real socket: Server-Sent Events read as they arrive
// (and abandoned mid-stream), and the terminal's WebSocket.

export interface ServerSentEvent {
  event: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read event payloads freely
  data: any;
}

export interface EventStreamClient {
  status: number;
  contentType: string;
  /** The next event, or undefined once the stream ended. */
  next(): Promise<ServerSentEvent | undefined>;
  /** Every event until the stream ends. */
  rest(): Promise<ServerSentEvent[]>;
  /** Leaves: the connection is destroyed, as a browser tab closing would. */
  leave(): void;
}

export interface RequestOptions {
  token: string;
  method?: 'GET' | 'POST';
  body?: unknown;
  accept?: string;
}

/** Requests a stream; a non-2xx answer is read whole as JSON into `body`. */
export function openEventStream(
  base: string,
  path: string,
  options: RequestOptions,
): Promise<EventStreamClient & { body?: unknown }> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const request = http.request(new URL(path, base), {
      method: options.method ?? 'GET',
      headers: {
        authorization: `Bearer ${options.token}`,
        accept: options.accept ?? 'text/event-stream',
        ...(payload ? { 'content-type': 'application/json' } : {}),
      },
    });
    request.on('error', reject);
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      const contentType = String(response.headers['content-type'] ?? '');
      const base = { status, contentType, leave: () => request.destroy() };
      if (!contentType.startsWith('text/event-stream')) {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            ...base,
            body: text ? JSON.parse(text) : undefined,
            next: async () => undefined,
            rest: async () => [],
          });
        });
        return;
      }
      const queue: ServerSentEvent[] = [];
      const waiting: ((event: ServerSentEvent | undefined) => void)[] = [];
      let ended = false;
      let buffer = '';
      const deliver = (event: ServerSentEvent | undefined) => {
        const waiter = waiting.shift();
        if (waiter) waiter(event);
        else if (event) queue.push(event);
      };
      response.setEncoding('utf8');
      response.on('data', (text: string) => {
        buffer += text;
        for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const lines = block.split('\n').filter((line) => !line.startsWith(':'));
          const data = lines.find((line) => line.startsWith('data: '));
          if (!data) continue;
          const name = lines.find((line) => line.startsWith('event: '));
          deliver({ event: name ? name.slice(7) : 'message', data: JSON.parse(data.slice(6)) });
        }
      });
      const finish = () => {
        ended = true;
        while (waiting.length > 0) waiting.shift()!(undefined);
      };
      response.on('end', finish);
      response.on('close', finish);
      const next = () =>
        queue.length > 0 || ended
          ? Promise.resolve(queue.shift())
          : new Promise<ServerSentEvent | undefined>((r) => waiting.push(r));
      resolve({
        ...base,
        next,
        async rest() {
          const all: ServerSentEvent[] = [];
          for (let event = await next(); event; event = await next()) all.push(event);
          return all;
        },
      });
    });
    request.end(payload);
  });
}

/** A terminal WebSocket: what the screen showed so far, and ways to type, resize and wait. */
export interface TerminalClient {
  ws: WebSocket;
  screen(): string;
  controls: Record<string, unknown>[];
  type(text: string): void;
  resize(cols: number, rows: number): void;
  waitFor(pattern: RegExp): Promise<string>;
  closed: Promise<{ code: number }>;
}

export interface TerminalRefusal {
  status: number;
  body: unknown;
}

/** Opens the terminal WebSocket; a refused upgrade answers the HTTP status and body instead. */
export function openTerminal(
  url: string,
  headers: Record<string, string>,
): Promise<TerminalClient | TerminalRefusal> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url.replace(/^http/, 'ws'), { headers });
    let output = '';
    const controls: Record<string, unknown>[] = [];
    const closed = new Promise<{ code: number }>((r) => ws.once('close', (code) => r({ code })));
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary) output += data.toString('utf8');
      else controls.push(JSON.parse(data.toString('utf8')));
    });
    ws.once('unexpected-response', (request, response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : undefined });
        // With this listener attached, ws leaves aborting the refused request to its user.
        request.destroy();
      });
    });
    ws.once('error', reject);
    ws.once('open', () =>
      resolve({
        ws,
        screen: () => output,
        controls,
        type: (text) => ws.send(Buffer.from(text), { binary: true }),
        resize: (cols, rows) => ws.send(JSON.stringify({ type: 'resize', cols, rows })),
        waitFor: (pattern) => eventually(() => pattern.exec(output)?.[0], `terminal output ${pattern}`),
        closed,
      }),
    );
  });
}
