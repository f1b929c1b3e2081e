import {
  mergeUsage,
  newId,
  type SseEvent,
  type StreamDecoder,
  type StreamEncoder,
  type StreamEvent,
} from './canonical.js';
import {
  candidateParts,
  contentStopReason,
  contentUsage,
  contentUsageBody,
  STOP_TO_FINISH,
} from './content.js';
import { parseArguments } from './conversation.js';
import { eventData, type Json, TranslationError } from './refusal.js';

/**
 * vendor4-content streaming (streamGenerateContent?alt=sse): each `data:` is a GenerateContentResponse
 * holding the next parts; a function call arrives whole (name and args in one part), the last chunk
 * has finishReason, usageMetadata is cumulative. There is no closing event.
 */

export function contentStreamDecoder(): StreamDecoder {
  let started = false;
  let calls = 0;
  return {
    push(event) {
      const chunk = eventData(event.data, event.event);
      if (chunk.at('error').present) {
        const message = chunk.at('error').at('message').optionalString();
        return [{ type: 'error', message: message ?? 'the upstream reported an error' }];
      }
      const usage = contentUsage(chunk);
      const out: StreamEvent[] = [];
      if (!started) {
        started = true;
        out.push({
          type: 'start',
          ...(usage.inputTokens !== undefined && { inputTokens: usage.inputTokens }),
        });
      }
      const candidate = chunk.at('candidates').present ? chunk.at('candidates').items()[0] : undefined;
      if (candidate) {
        for (const part of candidateParts(candidate)) {
          if (part.type === 'text') {
            if (part.text) out.push({ type: 'text', text: part.text });
          } else {
            const index = calls++;
            out.push({ type: 'tool_call', index, id: part.id, name: part.name });
            out.push({ type: 'tool_arguments', index, delta: part.arguments });
          }
        }
      }
      if (usage.inputTokens !== undefined || usage.outputTokens !== undefined)
        out.push({ type: 'usage', ...usage });
      if (candidate?.at('finishReason').present) {
        out.push({ type: 'finish', reason: contentStopReason(candidate.at('finishReason'), calls > 0) });
      } else if (!candidate && chunk.at('promptFeedback').at('blockReason').present) {
        out.push({ type: 'finish', reason: 'content_filter' });
      }
      return out;
    },
    end: () => [],
  };
}

/**
 * Text goes out as it comes; a tool call's argument pieces are held until the call is complete (the
 * next call, text or the end), since vendor4 sends a call whole with its args as an object.
 */
export function contentStreamEncoder(model: string): StreamEncoder {
  const responseId = newId('');
  const usage = { inputTokens: 0, outputTokens: 0 };
  const pending: Array<{ index: number; id: string; name: string; arguments: string }> = [];
  const chunk = (candidate: Json, withUsage = false): SseEvent => ({
    data: JSON.stringify({
      candidates: [{ ...candidate, index: 0 }],
      ...(withUsage && { usageMetadata: contentUsageBody(usage) }),
      modelVersion: model,
      responseId,
    }),
  });
  const flushCalls = (): SseEvent[] => {
    if (!pending.length) return [];
    const parts = pending.splice(0).map((call) => ({
      functionCall: {
        id: call.id,
        name: call.name,
        args: parseArguments(call.arguments, `tool call ${call.id}`, 'upstream'),
      },
    }));
    return [chunk({ content: { role: 'model', parts } })];
  };
  const push = (event: StreamEvent): SseEvent[] => {
    switch (event.type) {
      case 'start':
        if (event.inputTokens !== undefined) usage.inputTokens = event.inputTokens;
        return [];
      case 'text':
        return [...flushCalls(), chunk({ content: { role: 'model', parts: [{ text: event.text }] } })];
      case 'tool_call':
        pending.push({ index: event.index, id: event.id, name: event.name, arguments: '' });
        return [];
      case 'tool_arguments': {
        const call = pending.find((held) => held.index === event.index);
        if (!call)
          throw new TranslationError(
            `tool call ${event.index}`,
            'arguments arrived after the call was sent',
            'upstream',
          );
        call.arguments += event.delta;
        return [];
      }
      case 'usage':
        mergeUsage(usage, event);
        return [];
      case 'finish':
        return [];
      case 'error':
        // The vendor4 SDK raises an error for a chunk that carries `error` (google.rpc.Status).
        return [
          { data: JSON.stringify({ error: { code: 500, message: event.message, status: 'INTERNAL' } }) },
        ];
    }
  };
  return {
    push,
    end(finish) {
      return [
        ...flushCalls(),
        chunk({ content: { role: 'model', parts: [] }, finishReason: STOP_TO_FINISH[finish.reason] }, true),
      ];
    },
  };
}
