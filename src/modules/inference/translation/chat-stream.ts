import {
  mergeUsage,
  newId,
  type SseEvent,
  type StreamDecoder,
  type StreamEncoder,
  type StreamEvent,
  type StreamOptions,
} from './canonical.js';
import { chatStopReason, chatUsage, chatUsageBody, STOP_TO_FINISH } from './chat.js';
import { eventData, type Json } from './refusal.js';

/**
 * vendor1-chat streaming: `chat.completion.chunk` objects as `data:` lines, `data: [DONE]` last. Tool
 * calls arrive as `delta.tool_calls[{index, id, function: {name, arguments}}]`: the first delta of a
 * call has its id and name, the next ones pieces of its arguments.
 */

export function chatStreamDecoder(): StreamDecoder {
  let started = false;
  /** The upstream's tool call index → the canonical one (they agree unless the upstream skips some). */
  const calls = new Map<number, number>();
  return {
    push(event) {
      if (event.data.trim() === '[DONE]') return [];
      const chunk = eventData(event.data, event.event);
      if (chunk.at('error').present)
        return [{ type: 'error', message: errorMessage(chunk.at('error').value) }];
      const out: StreamEvent[] = [];
      if (!started) {
        started = true;
        out.push({ type: 'start' });
      }
      const choice = chunk.at('choices').present ? chunk.at('choices').items()[0] : undefined;
      if (choice) {
        const delta = choice.at('delta');
        const text = delta.present ? delta.at('content').optionalString() : undefined;
        if (text) out.push({ type: 'text', text });
        const refusal = delta.present ? delta.at('refusal').optionalString() : undefined;
        if (refusal) out.push({ type: 'text', text: refusal });
        if (delta.present && delta.at('tool_calls').present) {
          for (const call of delta.at('tool_calls').items()) {
            const upstreamIndex = call.at('index').number();
            let index = calls.get(upstreamIndex);
            if (index === undefined) {
              index = calls.size;
              calls.set(upstreamIndex, index);
              out.push({
                type: 'tool_call',
                index,
                id: call.at('id').optionalString() ?? newId('call_'),
                name: call.at('function').at('name').string(),
              });
            }
            const args = call.at('function').present
              ? call.at('function').at('arguments').optionalString()
              : undefined;
            if (args) out.push({ type: 'tool_arguments', index, delta: args });
          }
        }
        if (choice.at('finish_reason').present)
          out.push({ type: 'finish', reason: chatStopReason(choice.at('finish_reason')) });
      }
      const usage = chatUsage(chunk);
      if (usage.inputTokens !== undefined || usage.outputTokens !== undefined)
        out.push({ type: 'usage', ...usage });
      return out;
    },
    end: () => [],
  };
}

function errorMessage(error: unknown): string {
  const message = (error as Json | null)?.message;
  return typeof message === 'string' ? message : 'the upstream reported an error';
}

export function chatStreamEncoder(model: string, options: StreamOptions): StreamEncoder {
  const id = newId('chatcmpl-');
  const created = Math.floor(Date.now() / 1000);
  let started = false;
  const usage = { inputTokens: 0, outputTokens: 0 };
  const chunk = (choices: Json[], extra: Json = {}): SseEvent => ({
    data: JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices, ...extra }),
  });
  const delta = (content: Json, finishReason: string | null = null): SseEvent =>
    chunk([{ index: 0, delta: content, logprobs: null, finish_reason: finishReason }]);
  const begin = (): SseEvent[] => {
    if (started) return [];
    started = true;
    return [delta({ role: 'assistant', content: '' })];
  };
  const push = (event: StreamEvent): SseEvent[] => {
    switch (event.type) {
      case 'start':
        if (event.inputTokens !== undefined) usage.inputTokens = event.inputTokens;
        return begin();
      case 'text':
        return [...begin(), delta({ content: event.text })];
      case 'tool_call':
        return [
          ...begin(),
          delta({
            tool_calls: [
              {
                index: event.index,
                id: event.id,
                type: 'function',
                function: { name: event.name, arguments: '' },
              },
            ],
          }),
        ];
      case 'tool_arguments':
        return [
          ...begin(),
          delta({ tool_calls: [{ index: event.index, function: { arguments: event.delta } }] }),
        ];
      case 'usage':
        mergeUsage(usage, event);
        return [];
      case 'finish':
        return [...begin(), delta({}, STOP_TO_FINISH[event.reason])];
      case 'error':
        // The vendor1 SDK raises an API error for a chunk that carries `error`.
        return [
          {
            data: JSON.stringify({
              error: { message: event.message, type: 'server_error', param: null, code: null },
            }),
          },
        ];
    }
  };
  return {
    push,
    end() {
      return [
        ...(options.includeUsage ? [chunk([], { usage: chatUsageBody(usage) })] : []),
        { data: '[DONE]' },
      ];
    },
  };
}
