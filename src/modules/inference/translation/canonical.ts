import { randomBytes } from 'node:crypto';

/**
 * The one shape every protocol is read into and written from, so that each protocol needs a codec
 * (read and write) instead of one translator per pair of protocols. It holds exactly what the
 * translation carries (docs/api/inference.md, "Translation between protocols"); a field a codec cannot
 * put here is refused by that codec, never dropped.
 */

export type ImageSource = { kind: 'url'; url: string } | { kind: 'base64'; mediaType: string; data: string };

export type Part =
  | { type: 'text'; text: string }
  | { type: 'image'; source: ImageSource }
  /** `arguments` is the JSON text of the call's arguments, as the model wrote it. */
  | { type: 'tool_call'; id: string; name: string; arguments: string }
  | {
      type: 'tool_result';
      callId: string;
      /** The called function's name, when the protocol carries it (vendor4 needs it). */
      name?: string;
      content: Array<Extract<Part, { type: 'text' | 'image' }>>;
      isError?: boolean;
    };

export interface Message {
  role: 'user' | 'assistant';
  parts: Part[];
}

export interface Tool {
  name: string;
  description?: string;
  /** A JSON Schema object. */
  parameters: Record<string, unknown>;
}

export type ToolChoice =
  | { type: 'auto' }
  | { type: 'none' }
  | { type: 'required' }
  | { type: 'tool'; name: string };

export interface CanonicalRequest {
  system?: string;
  messages: Message[];
  tools?: Tool[];
  toolChoice?: ToolChoice;
  /** false when the caller asked for at most one tool call per turn. */
  parallelToolCalls?: boolean;
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  stop?: string[];
  stream: boolean;
}

export type StopReason = 'end' | 'max_tokens' | 'stop_sequence' | 'tool_calls' | 'content_filter';

export interface Usage {
  inputTokens: number;
  outputTokens: number;
}

export interface CanonicalResponse {
  id?: string;
  content: Array<Extract<Part, { type: 'text' | 'tool_call' }>>;
  stopReason: StopReason;
  stopSequence?: string;
  usage: Usage;
}

/**
 * What a stream decoder reads out of an upstream's events and a stream encoder writes as the caller's.
 * `index` numbers the answer's tool calls from 0 in the order they began.
 */
export type StreamEvent =
  | { type: 'start'; id?: string; inputTokens?: number }
  | { type: 'text'; text: string }
  | { type: 'tool_call'; index: number; id: string; name: string }
  | { type: 'tool_arguments'; index: number; delta: string }
  | { type: 'usage'; inputTokens?: number; outputTokens?: number }
  | { type: 'finish'; reason: StopReason; stopSequence?: string }
  | { type: 'error'; message: string };

/** One server-sent event as it travels: the optional `event:` name and the `data:` text. */
export interface SseEvent {
  event?: string;
  data: string;
}

export interface StreamDecoder {
  push(event: SseEvent): StreamEvent[];
  end(): StreamEvent[];
}

export type FinishEvent = Extract<StreamEvent, { type: 'finish' }>;

/** Writes one protocol's stream; `end` is called only for a stream that reached its stop reason. */
export interface StreamEncoder {
  push(event: StreamEvent): SseEvent[];
  end(finish: FinishEvent): SseEvent[];
}

const ENDED_EARLY = 'the upstream stream ended before the answer was complete';

/**
 * The rules every caller's stream keeps: nothing follows an error event, and a stream that ends
 * before its stop reason ends with an error event (the caller must not take it for a whole answer).
 */
export function withStreamRules(encoder: StreamEncoder): {
  push(event: StreamEvent): SseEvent[];
  end(): SseEvent[];
} {
  let failed = false;
  let finish: FinishEvent | undefined;
  const push = (event: StreamEvent): SseEvent[] => {
    if (failed) return [];
    if (event.type === 'error') failed = true;
    if (event.type === 'finish') finish = event;
    return encoder.push(event);
  };
  return {
    push,
    end: () => (failed ? [] : finish ? encoder.end(finish) : push({ type: 'error', message: ENDED_EARLY })),
  };
}

export interface StreamOptions {
  /** vendor1-chat callers: send the final usage chunk (the caller's `stream_options.include_usage`). */
  includeUsage?: boolean;
}

/** An id for what the upstream's protocol does not name but the caller's must (a message, a tool call). */
export function newId(prefix: string): string {
  return `${prefix}${randomBytes(12).toString('hex')}`;
}

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

/** vendor1 carries a base64 image as a data: URL; the other protocols as media type + data. */
export function imageFromUrl(url: string): ImageSource {
  const match = DATA_URL.exec(url);
  return match ? { kind: 'base64', mediaType: match[1]!, data: match[2]! } : { kind: 'url', url };
}

export function imageToUrl(source: ImageSource): string {
  return source.kind === 'url' ? source.url : `data:${source.mediaType};base64,${source.data}`;
}

/** The text parts of a tool result, for a protocol whose tool results are text only. */
export function joinText(parts: Part[]): string {
  return parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** Merges the counts a usage event knows over the counts so far (a stream reports them piecemeal). */
export function mergeUsage(usage: Usage, counts: { inputTokens?: number; outputTokens?: number }): void {
  if (counts.inputTokens !== undefined) usage.inputTokens = counts.inputTokens;
  if (counts.outputTokens !== undefined) usage.outputTokens = counts.outputTokens;
}
