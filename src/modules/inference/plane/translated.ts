import { Readable } from 'node:stream';
import type { Response } from 'undici';
import {
  createStreamTranslator,
  type SseEvent,
  TranslationError,
  translateRequest,
  translateResponse,
} from '../translation/index.js';
import { PlaneFault, type WireProtocol } from './protocols.js';

/**
 * The data plane's use of the translation library, for a target that speaks another protocol than
 * the caller: the request body and stream choice toward the upstream, its answer and its stream back
 * in the caller's protocol. A refusal of the caller's request is the caller protocol's 400 naming the
 * field; an upstream answer the translation cannot read is a 502.
 */

function faultOf(error: unknown, what: string): never {
  if (error instanceof TranslationError) {
    if (error.side === 'caller')
      throw new PlaneFault('invalid', 'untranslatable_request', `${error.field}: ${error.reason}`);
    throw new PlaneFault(
      'upstream',
      'upstream_invalid_answer',
      `${what} could not be translated (${error.field}: ${error.reason})`,
    );
  }
  throw error;
}

/** The upstream's body and whether to ask it for a stream. */
export function upstreamRequest(
  caller: WireProtocol,
  upstream: WireProtocol,
  body: unknown,
  upstreamModel: string,
  stream: boolean,
): { body: unknown; stream: boolean } {
  try {
    // vendor4 callers choose streaming by method; the others say so in the body.
    const options = caller === 'vendor4-content' ? { stream } : {};
    if (upstream === 'vendor4-content')
      return translateRequest(caller, 'vendor4-content', body, upstreamModel, options);
    return { body: translateRequest(caller, upstream, body, upstreamModel, options), stream };
  } catch (error) {
    return faultOf(error, 'the request');
  }
}

/** The caller's answer for the upstream's whole (already parsed) answer. */
export function callerAnswer(
  upstream: WireProtocol,
  caller: WireProtocol,
  answer: unknown,
  publicModel: string,
  name: string,
): string {
  try {
    return JSON.stringify(translateResponse(upstream, caller, answer, publicModel));
  } catch (error) {
    return faultOf(error, `${name}'s answer`);
  }
}

const serialise = (events: SseEvent[]) =>
  events.map(({ event, data }) => `${event ? `event: ${event}\n` : ''}data: ${data}\n\n`).join('');

/** Server-sent events as they arrive, from a byte stream (fields other than event and data ignored). */
async function* sseEvents(body: AsyncIterable<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  const parse = (block: string): SseEvent | undefined => {
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    return data.length > 0 ? { ...(event ? { event } : {}), data: data.join('\n') } : undefined;
  };
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true }).replace(/\r\n?/g, '\n');
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const event = parse(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      if (event) yield event;
    }
  }
  const last = parse(buffer.trim());
  if (last) yield last;
}

/**
 * The upstream's stream in the caller's protocol, event by event. A broken upstream connection or an
 * event the translation cannot read ends it with the caller protocol's error event.
 */
export function callerStream(
  response: Response,
  upstream: WireProtocol,
  caller: WireProtocol,
  publicModel: string,
  includeUsage: boolean,
): Readable {
  const translator = createStreamTranslator(upstream, caller, publicModel, { includeUsage });
  async function* relay() {
    try {
      for await (const event of sseEvents(response.body!)) {
        const out = translator.push(event);
        if (out.length > 0) yield serialise(out);
      }
    } catch (error) {
      const reason =
        error instanceof TranslationError
          ? `an event could not be translated (${error.field}: ${error.reason})`
          : `the provider's stream broke off: ${error instanceof Error ? error.message : String(error)}`;
      yield serialise(translator.fail(reason));
      return;
    }
    const closing = translator.end();
    if (closing.length > 0) yield serialise(closing);
  }
  return Readable.from(relay(), { objectMode: false });
}
