import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, ERROR_MESSAGE } from './errors.js';

/** One Server-Sent Event: its name (`message` when absent), its data as one line of JSON, and an optional id. */
export interface ServerSentEvent {
  event?: string;
  data: unknown;
  id?: string;
}

/** A comment line every so often keeps proxies from closing a quiet stream and finds clients that left. */
const HEARTBEAT_MS = 15_000;

/** Whether the caller asked for Server-Sent Events (`Accept: text/event-stream`). */
export function wantsEventStream(request: FastifyRequest): boolean {
  return /\btext\/event-stream\b/i.test(request.headers.accept ?? '');
}

/** Event names and ids are single tokens of the protocol; a line break would start a new field. */
const oneLine = (text: string) => text.replace(/[\r\n]/g, ' ');

function format({ event, data, id }: ServerSentEvent): string {
  // JSON never holds a raw newline, so one `data:` line carries the whole payload.
  const fields = `${id === undefined ? '' : `id: ${oneLine(id)}\n`}${event ? `event: ${oneLine(event)}\n` : ''}`;
  return `${fields}data: ${JSON.stringify(data)}\n\n`;
}

/** The envelope of an error that happens once the stream has started (the status line is long sent). */
function errorEnvelope(error: unknown, log: FastifyBaseLogger) {
  if (error instanceof AppError)
    return { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) };
  log.error({ err: error }, 'event stream failed');
  return { code: 'INTERNAL_ERROR', message: ERROR_MESSAGE.INTERNAL_ERROR };
}

/**
 * The streams a module has open (events, downloads), so that closing the gateway ends them (an open stream would
 * otherwise hold the server open), and so each knows when its client left.
 */
export class OpenStreams {
  private readonly open = new Set<AbortController>();

  /**
   * A signal that aborts when the response closes: the client left, the answer ended, or the gateway is
   * closing. Services pass it to the engine so its stream is destroyed with the client's.
   */
  track(reply: FastifyReply): AbortSignal {
    const controller = new AbortController();
    this.open.add(controller);
    reply.raw.once('close', () => {
      this.open.delete(controller);
      controller.abort();
    });
    return controller.signal;
  }

  abortAll(): void {
    for (const controller of this.open) controller.abort();
  }
}

/** One Server-Sent Events answer that its producer pushes events into. */
export interface EventStream {
  /**
   * Writes one event (or several at once) and resolves when the socket took it, so a slow client slows its
   * producer instead of growing a buffer. Resolves at once after the client left.
   */
  send(events: ServerSentEvent | ServerSentEvent[]): Promise<void>;
  /** Whether the client is gone or the stream was ended. */
  readonly closed: boolean;
  /** Resolves when the client leaves or `end()` is called. */
  readonly done: Promise<void>;
  end(): void;
}

const EVENT_STREAM_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  // Reverse proxies (nginx) would otherwise buffer the stream.
  'x-accel-buffering': 'no',
} as const;

/**
 * Takes the reply over for a producer that pushes events (the log tail): answers 200 `text/event-stream`
 * at once, sends a heartbeat comment while nothing else goes out, and `done` resolves when the client
 * leaves. It writes to the socket itself (hijacked), so a client that leaves releases its connection at
 * once; the route's checks (authentication, validation, 404) run before, so their errors still get the
 * JSON envelope, and the headers the `onSend` hooks would add are sent here.
 */
export function openEventStream(request: FastifyRequest, reply: FastifyReply): EventStream {
  reply.hijack();
  const socket = reply.raw;
  socket.writeHead(200, {
    ...EVENT_STREAM_HEADERS,
    connection: 'keep-alive',
    'x-content-type-options': 'nosniff',
    'x-request-id': request.id,
  });
  socket.write(': stream open\n\n');
  let closed = false;
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const heartbeat = setInterval(() => socket.write(': keep-alive\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    finish();
  };
  // The response's 'close' fires when the client disconnects (or the answer ended).
  socket.on('close', close);
  return {
    get closed() {
      return closed;
    },
    done,
    async send(events) {
      if (closed || socket.write([events].flat().map(format).join(''))) return;
      await Promise.race([once(socket, 'drain'), done]);
    },
    end() {
      close();
      socket.end();
    },
  };
}

/**
 * Answers with `text/event-stream` from a source that is an async iterable (engine logs, stats, pull
 * progress): each event (or batch of events, one write) as it comes, a heartbeat comment while none does, an
 * `end` event when the source is done, or an `error` event with the error envelope when it fails after the
 * stream began (errors before the first byte are the caller's to throw as a normal JSON answer). The body is
 * a stream Fastify pipes (through the usual `onSend` hooks) and destroys when the client leaves; `signal`
 * (from `OpenStreams.track`) stops the source then. Writes wait for the client to drain, so a slow reader
 * slows the source instead of filling memory.
 */
export function sendEventStream(
  reply: FastifyReply,
  events: AsyncIterable<ServerSentEvent | ServerSentEvent[]>,
  signal: AbortSignal,
): FastifyReply {
  const body = new PassThrough();
  // A first comment sends the status line and headers at once: the client knows the stream is open.
  body.write(': stream open\n\n');
  const write = async (text: string) => {
    if (body.destroyed || signal.aborted) return;
    if (!body.write(text)) await once(body, 'drain', { signal });
  };
  const heartbeat = setInterval(() => {
    if (!body.destroyed) body.write(': keep-alive\n\n');
  }, HEARTBEAT_MS);
  const pump = async () => {
    try {
      for await (const batch of events) await write([batch].flat().map(format).join(''));
      await write(format({ event: 'end', data: {} }));
    } catch (error) {
      if (!signal.aborted) await write(format({ event: 'error', data: errorEnvelope(error, reply.log) }));
    } finally {
      clearInterval(heartbeat);
      if (!body.destroyed) body.end();
    }
  };
  void pump().catch(() => {
    // Only a drain wait cut short by the client leaving gets here; there is nobody left to tell.
  });
  return reply.headers(EVENT_STREAM_HEADERS).send(body as Readable);
}
