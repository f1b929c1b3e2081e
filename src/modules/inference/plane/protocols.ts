import type { WIRE_PROTOCOLS } from '../../../inference-catalog.js';

/**
 * The wire protocols of the data plane, in their own words: where each operation lives on a
 * provider, how a request says it wants a stream, and how each answers an error, as the public API
 * reference of each documents it.
 */

export type WireProtocol = (typeof WIRE_PROTOCOLS)[number];

/** What a caller asks for: one of the four protocols' generation, or vendor1 embeddings. */
export type Operation = WireProtocol | 'vendor1-embeddings';

/** The kinds of refusal the data plane answers, each with the status every protocol gives it. */
export const FAULTS = {
  invalid: 400,
  auth: 401,
  permission: 403,
  not_found: 404,
  too_large: 413,
  rate_limit: 429,
  upstream: 502,
  unavailable: 503,
  timeout: 504,
} as const;
export type FaultKind = keyof typeof FAULTS;

/** A refusal of the data plane: the kind, a stable code, and words for the caller. */
export class PlaneFault extends Error {
  constructor(
    readonly kind: FaultKind,
    readonly code: string,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }

  get status(): number {
    return FAULTS[this.kind];
  }
}

const VENDOR1_TYPES: Record<FaultKind, string> = {
  invalid: 'invalid_request_error',
  auth: 'authentication_error',
  permission: 'permission_error',
  not_found: 'not_found_error',
  too_large: 'invalid_request_error',
  rate_limit: 'rate_limit_error',
  upstream: 'api_error',
  unavailable: 'api_error',
  timeout: 'api_error',
};
const VENDOR2_TYPES: Record<FaultKind, string> = {
  invalid: 'invalid_request_error',
  auth: 'authentication_error',
  permission: 'permission_error',
  not_found: 'not_found_error',
  too_large: 'request_too_large',
  rate_limit: 'rate_limit_error',
  upstream: 'api_error',
  unavailable: 'overloaded_error',
  timeout: 'api_error',
};
const VENDOR4_STATUSES: Record<FaultKind, string> = {
  invalid: 'INVALID_ARGUMENT',
  auth: 'UNAUTHENTICATED',
  permission: 'PERMISSION_DENIED',
  not_found: 'NOT_FOUND',
  too_large: 'INVALID_ARGUMENT',
  rate_limit: 'RESOURCE_EXHAUSTED',
  upstream: 'INTERNAL',
  unavailable: 'UNAVAILABLE',
  timeout: 'DEADLINE_EXCEEDED',
};

/** The protocol that answers for an operation (embeddings are vendor1's). */
export const callerProtocol = (operation: Operation): WireProtocol =>
  operation === 'vendor1-embeddings' ? 'vendor1-chat' : operation;

/** The error body of a protocol. */
export function errorBody(protocol: WireProtocol, fault: PlaneFault): unknown {
  switch (protocol) {
    case 'vendor1-chat':
    case 'vendor1-responses':
      return {
        error: { message: fault.message, type: VENDOR1_TYPES[fault.kind], param: null, code: fault.code },
      };
    case 'vendor2-messages':
      return { type: 'error', error: { type: VENDOR2_TYPES[fault.kind], message: fault.message } };
    case 'vendor4-content':
      return { error: { code: fault.status, message: fault.message, status: VENDOR4_STATUSES[fault.kind] } };
  }
}

/** The server-sent event that tells a streaming caller the answer broke off. */
export function errorEvent(protocol: WireProtocol, fault: PlaneFault): string {
  const body = errorBody(protocol, fault);
  switch (protocol) {
    case 'vendor1-chat':
    case 'vendor4-content':
      return `data: ${JSON.stringify(body)}\n\n`;
    case 'vendor1-responses':
      return `event: error\ndata: ${JSON.stringify({ type: 'error', code: fault.code, message: fault.message, param: null })}\n\n`;
    case 'vendor2-messages':
      return `event: error\ndata: ${JSON.stringify(body)}\n\n`;
  }
}

/** The protocols an operation can be passed through to unchanged. */
export function passesThrough(operation: Operation, upstream: WireProtocol): boolean {
  if (operation === 'vendor1-embeddings')
    return upstream === 'vendor1-chat' || upstream === 'vendor1-responses';
  return operation === upstream;
}

/** The provider URL of an operation, from the connection's base URL (which keeps its path). */
export function upstreamUrl(baseUrl: string, operation: Operation, model: string, stream: boolean): string {
  const base = baseUrl.replace(/\/+$/, '');
  switch (operation) {
    case 'vendor1-chat':
      return `${base}/chat/completions`;
    case 'vendor1-responses':
      return `${base}/responses`;
    case 'vendor1-embeddings':
      return `${base}/embeddings`;
    case 'vendor2-messages':
      return `${base}/v1/messages`;
    case 'vendor4-content':
      return stream
        ? `${base}/models/${encodeURIComponent(model)}:streamGenerateContent?alt=sse`
        : `${base}/models/${encodeURIComponent(model)}:generateContent`;
  }
}

/**
 * A request body of the operation's protocol: a JSON object with the fields that protocol requires.
 * Anything else (another protocol's body, say `messages` sent to generateContent) is refused before
 * anything is sent upstream.
 */
export function bodyProblem(operation: Operation, body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return 'the body must be a JSON object';
  const record = body as Record<string, unknown>;
  const needs = (field: string, ok: (value: unknown) => boolean, what: string) =>
    ok(record[field]) ? undefined : `\`${field}\` must be ${what}`;
  const text = (value: unknown) => typeof value === 'string' && value.length > 0;
  const list = (value: unknown) => Array.isArray(value);
  switch (operation) {
    case 'vendor1-chat':
      return needs('model', text, 'a model name') ?? needs('messages', list, 'an array of messages');
    case 'vendor1-responses':
      return (
        needs('model', text, 'a model name') ??
        needs(
          'input',
          (value) => typeof value === 'string' || Array.isArray(value),
          'a string or an array of input items',
        )
      );
    case 'vendor1-embeddings':
      return (
        needs('model', text, 'a model name') ??
        needs('input', (value) => typeof value === 'string' || Array.isArray(value), 'a string or an array')
      );
    case 'vendor2-messages':
      return (
        needs('model', text, 'a model name') ??
        needs('messages', list, 'an array of messages') ??
        needs('max_tokens', (value) => Number.isInteger(value), 'an integer')
      );
    case 'vendor4-content':
      return needs('contents', list, 'an array of contents');
  }
}

/** Whether the caller asked for a stream: a `stream: true` field, or vendor4's streaming method. */
export function wantsStream(
  operation: Operation,
  body: Record<string, unknown>,
  streamMethod: boolean,
): boolean {
  if (operation === 'vendor4-content') return streamMethod;
  if (operation === 'vendor1-embeddings') return false;
  return body.stream === true;
}
