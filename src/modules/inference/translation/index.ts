import { mergeUsage, type SseEvent, type StreamOptions, type Usage, withStreamRules } from './canonical.js';
import { CODECS, type WireProtocol } from './codecs.js';
import { callerBody, eventData, type Json, upstreamBody } from './refusal.js';

/**
 * Translation between the inference wire protocols, as pure code: the data plane calls it when a
 * route's target speaks another protocol than the caller. Every pair goes through one canonical shape
 * (canonical.ts), read and written by one codec per protocol (codecs.ts). What is and is not
 * translated: docs/api/inference.md, "Translation between protocols".
 */

export { TranslationError } from './refusal.js';
export type { SseEvent, StreamOptions, Usage, WireProtocol };

/** vendor4 carries the model and streaming in the URL, so the plane gets the body and whether to stream. */
export type UpstreamRequest<U extends WireProtocol> = U extends 'vendor4-content'
  ? { body: Json; stream: boolean }
  : Json;

/**
 * The upstream's request body for the caller's. `options.stream` is a vendor4 caller's choice of
 * streamGenerateContent (the others say `stream` in the body). Throws TranslationError for what the
 * upstream's protocol cannot say.
 */
export function translateRequest<U extends WireProtocol>(
  caller: WireProtocol,
  upstream: U,
  body: unknown,
  upstreamModel: string,
  options: { stream?: boolean } = {},
): UpstreamRequest<U> {
  const request = CODECS[caller].decodeRequest(callerBody(body), options.stream === true);
  const encoded = CODECS[upstream].encodeRequest(request, upstreamModel);
  return (
    upstream === 'vendor4-content' ? { body: encoded, stream: request.stream } : encoded
  ) as UpstreamRequest<U>;
}

/** The caller's answer for the upstream's (non-streamed) answer, naming the public model. */
export function translateResponse(
  upstream: WireProtocol,
  caller: WireProtocol,
  body: unknown,
  publicModel: string,
): Json {
  return CODECS[caller].encodeResponse(CODECS[upstream].decodeResponse(upstreamBody(body)), publicModel);
}

export interface StreamTranslator {
  /** The caller's events for one upstream event, as it arrives. */
  push(event: SseEvent): SseEvent[];
  /** The caller's closing events once the upstream's stream ended (an error event if it ended early). */
  end(): SseEvent[];
  /** The caller's error event, when the upstream connection broke mid-stream. */
  fail(message: string): SseEvent[];
  /** The usage the upstream reported so far. */
  usage(): Usage;
}

export function createStreamTranslator(
  upstream: WireProtocol,
  caller: WireProtocol,
  publicModel: string,
  options: StreamOptions = {},
): StreamTranslator {
  const decoder = CODECS[upstream].streamDecoder();
  const encoder = withStreamRules(CODECS[caller].streamEncoder(publicModel, options));
  const usage: Usage = { inputTokens: 0, outputTokens: 0 };
  const relay = (events: ReturnType<typeof decoder.push>) =>
    events.flatMap((event) => {
      if (event.type === 'usage' || event.type === 'start') mergeUsage(usage, event);
      return encoder.push(event);
    });
  return {
    push: (event) => relay(decoder.push(event)),
    end: () => [...relay(decoder.end()), ...encoder.end()],
    fail: (message) => encoder.push({ type: 'error', message }),
    usage: () => ({ ...usage }),
  };
}

/**
 * The token counts an answer reports, or one stream event (a count the event does not carry is
 * absent). An answer that is not of the protocol's shape reports none; it never throws.
 */
export function usageOf(protocol: WireProtocol, body: unknown): Partial<Usage> {
  try {
    return CODECS[protocol].usage(typeof body === 'string' ? eventData(body) : upstreamBody(body));
  } catch {
    return {};
  }
}

/** Adds up the usage a stream's events report, for a stream the plane relays unchanged. */
export function createUsageMeter(protocol: WireProtocol): { push(event: SseEvent): void; usage(): Usage } {
  const usage: Usage = { inputTokens: 0, outputTokens: 0 };
  return {
    push(event) {
      if (event.data.trim() !== '[DONE]') mergeUsage(usage, usageOf(protocol, event.data));
    },
    usage: () => ({ ...usage }),
  };
}
