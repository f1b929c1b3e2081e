import type { FastifyReply, FastifyRequest } from 'fastify';

/** One Server-Sent Events answer, written directly to the socket. */
export interface EventStream {
  /**
   * Writes one event (`data` as one line of JSON) and resolves when the socket took it, so a slow
   * client slows its producer instead of growing a buffer. Resolves at once after the client left.
   */
  send(event: string, data: unknown, id?: string): Promise<void>;
  /** Whether the client is gone (or the stream was ended). */
  readonly closed: boolean;
  /** Resolves when the client leaves or `end()` is called. */
  readonly done: Promise<void>;
  end(): void;
}

const HEARTBEAT_MS = 15_000;
/** Event names and ids are single tokens of the protocol; a line break would start a new field. */
const oneLine = (text: string) => text.replace(/[\r\n]/g, ' ');

/**
 * Takes the reply over for an event stream: answers 200 `text/event-stream` at once, sends a
 * comment every 15 s so proxies keep the connection, and ends when the client leaves. The route's
 * checks (authentication, validation, 404) have all run before, so errors still get the envelope.
 */
export function openEventStream(request: FastifyRequest, reply: FastifyReply): EventStream {
  reply.hijack();
  const socket = reply.raw;
  socket.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    // Reverse proxies (nginx) would otherwise buffer the stream.
    'x-accel-buffering': 'no',
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
    async send(event, data, id) {
      if (closed) return;
      const frame = `${id === undefined ? '' : `id: ${oneLine(id)}\n`}event: ${oneLine(event)}\ndata: ${JSON.stringify(data)}\n\n`;
      if (socket.write(frame)) return;
      await new Promise<void>((resolve) => {
        const settle = () => {
          socket.off('drain', settle);
          socket.off('close', settle);
          resolve();
        };
        socket.once('drain', settle);
        socket.once('close', settle);
      });
    },
    end() {
      close();
      socket.end();
    },
  };
}
