import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, ERROR_MESSAGE } from './errors.js';

/** One Server-Sent Event: its name (`message` when absent) and its data, sent as one line of JSON. */
export interface ServerSentEvent {
  event?: string;
  data: unknown;
}

/** A comment line every so often keeps proxies from closing a quiet stream and finds clients that left. */
const HEARTBEAT_MS = 15_000;

/** Whether the caller asked for Server-Sent Events (`Accept: text/event-stream`). */
export function wantsEventStream(request: FastifyRequest): boolean {
  return /\btext\/event-stream\b/i.test(request.headers.accept ?? '');
}

function format({ event, data }: ServerSentEvent): string {
  // JSON never holds a raw newline, so one `data:` line carries the whole payload.
  return `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;
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

/**
 * Answers with `text/event-stream`: each event (or batch of events) as it comes, a heartbeat comment
 * while none does, an `end` event when the source is done, or an `error` event with the error envelope
 * when it fails after the stream began. Errors before the first byte are the caller's to throw (a normal JSON answer). The
 * body is a stream Fastify pipes and destroys when the client leaves; `signal` (from `track`) stops the
 * source then. Writes wait for the client to drain, so a slow reader slows the source instead of filling
 * memory.
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
      // A source may hand over several events at once (all the lines of one engine chunk): one write.
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
  return reply
    .header('content-type', 'text/event-stream; charset=utf-8')
    .header('cache-control', 'no-cache')
    .header('x-accel-buffering', 'no')
    .send(body as Readable);
}
