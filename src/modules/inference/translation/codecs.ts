import type { WIRE_PROTOCOLS } from '../../../inference-catalog.js';
import type {
  CanonicalRequest,
  CanonicalResponse,
  StreamDecoder,
  StreamEncoder,
  StreamOptions,
  Usage,
} from './canonical.js';
import {
  chatUsage,
  decodeChatRequest,
  decodeChatResponse,
  encodeChatRequest,
  encodeChatResponse,
} from './chat.js';
import { chatStreamDecoder, chatStreamEncoder } from './chat-stream.js';
import {
  contentUsage,
  decodeContentRequest,
  decodeContentResponse,
  encodeContentRequest,
  encodeContentResponse,
} from './content.js';
import { contentStreamDecoder, contentStreamEncoder } from './content-stream.js';
import {
  decodeMessagesRequest,
  decodeMessagesResponse,
  encodeMessagesRequest,
  encodeMessagesResponse,
  messagesUsage,
} from './messages.js';
import { messagesStreamDecoder, messagesStreamEncoder } from './messages-stream.js';
import type { Json, Reader } from './refusal.js';
import {
  decodeResponsesRequest,
  decodeResponsesResponse,
  encodeResponsesRequest,
  encodeResponsesResponse,
  responsesUsage,
} from './responses.js';
import { responsesStreamDecoder, responsesStreamEncoder } from './responses-stream.js';

export type WireProtocol = (typeof WIRE_PROTOCOLS)[number];

/** What one protocol contributes to the translation: reading and writing each of its shapes. */
export interface Codec {
  /** `stream` is for a protocol that carries it outside the body (vendor4: the URL). */
  decodeRequest(body: Reader, stream: boolean): CanonicalRequest;
  encodeRequest(request: CanonicalRequest, model: string): Json;
  decodeResponse(body: Reader): CanonicalResponse;
  encodeResponse(response: CanonicalResponse, model: string): Json;
  streamDecoder(): StreamDecoder;
  streamEncoder(model: string, options: StreamOptions): StreamEncoder;
  /** The usage an answer, or one of its stream events, reports (the counts it knows). */
  usage(body: Reader): Partial<Usage>;
}

const chat: Codec = {
  decodeRequest: decodeChatRequest,
  encodeRequest: encodeChatRequest,
  decodeResponse: decodeChatResponse,
  encodeResponse: encodeChatResponse,
  streamDecoder: chatStreamDecoder,
  streamEncoder: chatStreamEncoder,
  usage: chatUsage,
};

const messages: Codec = {
  decodeRequest: decodeMessagesRequest,
  encodeRequest: encodeMessagesRequest,
  decodeResponse: decodeMessagesResponse,
  encodeResponse: encodeMessagesResponse,
  streamDecoder: messagesStreamDecoder,
  streamEncoder: messagesStreamEncoder,
  // An answer's usage, message_start's (in its message) or message_delta's.
  usage: (body) =>
    messagesUsage(body.at('message').present ? body.at('message').at('usage') : body.at('usage')),
};

const content: Codec = {
  decodeRequest: decodeContentRequest,
  encodeRequest: (request) => encodeContentRequest(request),
  decodeResponse: decodeContentResponse,
  encodeResponse: encodeContentResponse,
  streamDecoder: contentStreamDecoder,
  streamEncoder: contentStreamEncoder,
  usage: contentUsage,
};

const responses: Codec = {
  decodeRequest: decodeResponsesRequest,
  encodeRequest: encodeResponsesRequest,
  decodeResponse: decodeResponsesResponse,
  encodeResponse: encodeResponsesResponse,
  streamDecoder: responsesStreamDecoder,
  streamEncoder: responsesStreamEncoder,
  usage: responsesUsage,
};

export const CODECS: Record<WireProtocol, Codec> = {
  'vendor1-chat': chat,
  'vendor1-responses': responses,
  'vendor2-messages': messages,
  'vendor4-content': content,
};
