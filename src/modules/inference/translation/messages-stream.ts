import {
  mergeUsage,
  newId,
  type SseEvent,
  type StreamDecoder,
  type StreamEncoder,
  type StreamEvent,
} from './canonical.js';
import { messagesStopReason, messagesUsage, STOP_TO_MESSAGES } from './messages.js';
import { eventData, type Json, TranslationError } from './refusal.js';

/**
 * vendor2-messages streaming: message_start, then per content block content_block_start,
 * content_block_delta (text_delta, input_json_delta) and content_block_stop, then message_delta (stop
 * reason and cumulative usage) and message_stop; ping at any time, `error` when the upstream fails.
 */

export function messagesStreamDecoder(): StreamDecoder {
  /** A tool_use block's index → its canonical tool call index. */
  const toolBlocks = new Map<number, number>();
  return {
    push(event) {
      const data = eventData(event.data, event.event);
      const type = data.at('type').string();
      switch (type) {
        case 'message_start':
          return [{ type: 'start', ...messagesUsage(data.at('message').at('usage')) }];
        case 'content_block_start': {
          const block = data.at('content_block');
          const blockType = block.at('type').string();
          if (blockType === 'text') {
            const text = block.at('text').optionalString();
            return text ? [{ type: 'text', text }] : [];
          }
          if (blockType === 'tool_use') {
            const index = toolBlocks.size;
            toolBlocks.set(data.at('index').number(), index);
            return [
              { type: 'tool_call', index, id: block.at('id').string(), name: block.at('name').string() },
            ];
          }
          if (blockType === 'thinking' || blockType === 'redacted_thinking') return [];
          return block.at('type').refuse(`content block ${blockType} is not translated`);
        }
        case 'content_block_delta': {
          const delta = data.at('delta');
          const deltaType = delta.at('type').string();
          if (deltaType === 'text_delta') return [{ type: 'text', text: delta.at('text').string() }];
          if (deltaType === 'input_json_delta') {
            const index =
              toolBlocks.get(data.at('index').number()) ?? data.at('index').refuse('is not a tool_use block');
            return [{ type: 'tool_arguments', index, delta: delta.at('partial_json').string() }];
          }
          return []; // thinking_delta, signature_delta: the model's reasoning, not carried.
        }
        case 'message_delta': {
          const delta = data.at('delta');
          const out: StreamEvent[] = [{ type: 'usage', ...messagesUsage(data.at('usage')) }];
          if (delta.at('stop_reason').present) {
            out.push({
              type: 'finish',
              reason: messagesStopReason(delta.at('stop_reason')),
              ...(delta.at('stop_sequence').present && { stopSequence: delta.at('stop_sequence').string() }),
            });
          }
          return out;
        }
        case 'error': {
          const message = data.at('error').present
            ? data.at('error').at('message').optionalString()
            : undefined;
          return [{ type: 'error', message: message ?? 'the upstream reported an error' }];
        }
        default:
          return []; // content_block_stop, message_stop, ping.
      }
    },
    end: () => [],
  };
}

export function messagesStreamEncoder(model: string): StreamEncoder {
  const id = newId('msg_');
  let started = false;
  const usage = { inputTokens: 0, outputTokens: 0 };
  let blocks = 0;
  let open: { kind: 'text' } | { kind: 'tool'; index: number } | undefined;
  const toolBlocks = new Map<number, number>();
  const sse = (type: string, body: Json = {}): SseEvent => ({
    event: type,
    data: JSON.stringify({ type, ...body }),
  });

  const begin = (): SseEvent[] => {
    if (started) return [];
    started = true;
    const message = {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: usage.inputTokens, output_tokens: 0 },
    };
    return [sse('message_start', { message })];
  };
  const close = (): SseEvent[] => {
    if (!open) return [];
    open = undefined;
    return [sse('content_block_stop', { index: blocks - 1 })];
  };
  const openBlock = (block: Json): SseEvent[] => [
    ...close(),
    sse('content_block_start', { index: blocks++, content_block: block }),
  ];

  const push = (event: StreamEvent): SseEvent[] => {
    switch (event.type) {
      case 'start':
        if (event.inputTokens !== undefined) usage.inputTokens = event.inputTokens;
        return begin();
      case 'text': {
        const out = [...begin(), ...(open?.kind === 'text' ? [] : openBlock({ type: 'text', text: '' }))];
        open = { kind: 'text' };
        return [
          ...out,
          sse('content_block_delta', { index: blocks - 1, delta: { type: 'text_delta', text: event.text } }),
        ];
      }
      case 'tool_call': {
        const out = [
          ...begin(),
          ...openBlock({ type: 'tool_use', id: event.id, name: event.name, input: {} }),
        ];
        open = { kind: 'tool', index: event.index };
        toolBlocks.set(event.index, blocks - 1);
        return out;
      }
      case 'tool_arguments': {
        // vendor2's blocks do not interleave: a closed tool_use block takes no more arguments.
        if (open?.kind !== 'tool' || open.index !== event.index) {
          throw new TranslationError(
            `tool call ${event.index}`,
            'arguments of tool calls arrived interleaved',
            'upstream',
          );
        }
        return [
          sse('content_block_delta', {
            index: toolBlocks.get(event.index),
            delta: { type: 'input_json_delta', partial_json: event.delta },
          }),
        ];
      }
      case 'usage':
        mergeUsage(usage, event);
        return [];
      case 'finish':
        return begin();
      case 'error':
        return [sse('error', { error: { type: 'api_error', message: event.message } })];
    }
  };
  return {
    push,
    end(finish) {
      return [
        ...begin(),
        ...close(),
        sse('message_delta', {
          delta: { stop_reason: STOP_TO_MESSAGES[finish.reason], stop_sequence: finish.stopSequence ?? null },
          usage: { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens },
        }),
        sse('message_stop'),
      ];
    },
  };
}
