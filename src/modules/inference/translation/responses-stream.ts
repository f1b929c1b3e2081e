import {
  mergeUsage,
  newId,
  type SseEvent,
  type StopReason,
  type StreamDecoder,
  type StreamEncoder,
  type StreamEvent,
} from './canonical.js';
import { eventData, type Json, TranslationError } from './refusal.js';
import {
  functionCallItem,
  messageItem,
  responseObject,
  responsesStopReason,
  responsesUsage,
} from './responses.js';

/**
 * vendor1-responses streaming: typed events (the `event:` name is the data's `type`), each with a
 * sequence_number: response.created and response.in_progress; per output item output_item.added, its
 * deltas (output_text.delta, function_call_arguments.delta) and closing events, output_item.done; then
 * response.completed (or response.incomplete) with the whole response and its usage.
 */

export function responsesStreamDecoder(): StreamDecoder {
  /** A function_call item's output_index → its canonical tool call index. */
  const calls = new Map<number, number>();
  return {
    push(event) {
      const data = eventData(event.data, event.event);
      const type = data.at('type').string();
      switch (type) {
        case 'response.created':
          return [{ type: 'start' }];
        case 'response.output_item.added': {
          const item = data.at('item');
          if (item.at('type').string() !== 'function_call') return [];
          const index = calls.size;
          calls.set(data.at('output_index').number(), index);
          const out: StreamEvent[] = [
            { type: 'tool_call', index, id: item.at('call_id').string(), name: item.at('name').string() },
          ];
          const args = item.at('arguments').optionalString();
          if (args) out.push({ type: 'tool_arguments', index, delta: args });
          return out;
        }
        case 'response.output_text.delta':
        case 'response.refusal.delta':
          return [{ type: 'text', text: data.at('delta').string() }];
        case 'response.function_call_arguments.delta': {
          const index =
            calls.get(data.at('output_index').number()) ??
            data.at('output_index').refuse('is not a function call');
          return [{ type: 'tool_arguments', index, delta: data.at('delta').string() }];
        }
        case 'response.completed':
        case 'response.incomplete':
          return [
            { type: 'usage', ...responsesUsage(data) },
            { type: 'finish', reason: responsesStopReason(data.at('response'), calls.size > 0) },
          ];
        case 'response.failed': {
          const message = data.at('response').at('error').at('message').optionalString();
          return [{ type: 'error', message: message ?? 'the upstream response failed' }];
        }
        case 'error':
          return [
            {
              type: 'error',
              message: data.at('message').optionalString() ?? 'the upstream reported an error',
            },
          ];
        default:
          return [];
      }
    },
    end: () => [],
  };
}

type OpenItem =
  | { kind: 'message'; id: string; outputIndex: number; text: string }
  | {
      kind: 'call';
      id: string;
      outputIndex: number;
      index: number;
      call: { id: string; name: string; arguments: string };
    };

export function responsesStreamEncoder(model: string): StreamEncoder {
  const id = newId('resp_');
  const createdAt = Math.floor(Date.now() / 1000);
  let sequence = 0;
  let started = false;
  const usage = { inputTokens: 0, outputTokens: 0 };
  const output: Json[] = [];
  let open: OpenItem | undefined;
  const sse = (type: string, body: Json): SseEvent => ({
    event: type,
    data: JSON.stringify({ type, sequence_number: sequence++, ...body }),
  });
  const snapshot = (stopReason?: StopReason) =>
    responseObject({ id, model, createdAt, output, stopReason, usage: stopReason ? usage : undefined });

  const begin = (): SseEvent[] => {
    if (started) return [];
    started = true;
    return [
      sse('response.created', { response: snapshot() }),
      sse('response.in_progress', { response: snapshot() }),
    ];
  };
  const close = (): SseEvent[] => {
    const item = open;
    if (!item) return [];
    open = undefined;
    const at = { item_id: item.id, output_index: item.outputIndex };
    if (item.kind === 'message') {
      const part = { type: 'output_text', text: item.text, annotations: [] };
      const done = messageItem(item.id, item.text, 'completed');
      output.push(done);
      return [
        sse('response.output_text.done', { ...at, content_index: 0, text: item.text, logprobs: [] }),
        sse('response.content_part.done', { ...at, content_index: 0, part }),
        sse('response.output_item.done', { output_index: item.outputIndex, item: done }),
      ];
    }
    const done = functionCallItem(item.id, item.call, 'completed');
    output.push(done);
    return [
      sse('response.function_call_arguments.done', {
        ...at,
        name: item.call.name,
        arguments: item.call.arguments,
      }),
      sse('response.output_item.done', { output_index: item.outputIndex, item: done }),
    ];
  };

  const push = (event: StreamEvent): SseEvent[] => {
    switch (event.type) {
      case 'start':
        if (event.inputTokens !== undefined) usage.inputTokens = event.inputTokens;
        return begin();
      case 'text': {
        const out = begin();
        if (open?.kind !== 'message') {
          out.push(...close());
          open = { kind: 'message', id: newId('msg_'), outputIndex: output.length, text: '' };
          const at = { output_index: open.outputIndex };
          out.push(
            sse('response.output_item.added', { ...at, item: messageItem(open.id, '', 'in_progress') }),
            sse('response.content_part.added', {
              ...at,
              item_id: open.id,
              content_index: 0,
              part: { type: 'output_text', text: '', annotations: [] },
            }),
          );
        }
        open.text += event.text;
        out.push(
          sse('response.output_text.delta', {
            item_id: open.id,
            output_index: open.outputIndex,
            content_index: 0,
            delta: event.text,
            logprobs: [],
          }),
        );
        return out;
      }
      case 'tool_call': {
        const out = [...begin(), ...close()];
        const call = { id: event.id, name: event.name, arguments: '' };
        open = { kind: 'call', id: newId('fc_'), outputIndex: output.length, index: event.index, call };
        out.push(
          sse('response.output_item.added', {
            output_index: open.outputIndex,
            item: functionCallItem(open.id, call, 'in_progress'),
          }),
        );
        return out;
      }
      case 'tool_arguments': {
        // Output items do not interleave: a closed function_call item takes no more arguments.
        if (open?.kind !== 'call' || open.index !== event.index) {
          throw new TranslationError(
            `tool call ${event.index}`,
            'arguments of tool calls arrived interleaved',
            'upstream',
          );
        }
        open.call.arguments += event.delta;
        return [
          sse('response.function_call_arguments.delta', {
            item_id: open.id,
            output_index: open.outputIndex,
            delta: event.delta,
          }),
        ];
      }
      case 'usage':
        mergeUsage(usage, event);
        return [];
      case 'finish':
        return begin();
      case 'error':
        return [sse('error', { code: 'server_error', message: event.message, param: null })];
    }
  };
  return {
    push,
    end(finish) {
      const out = [...begin(), ...close()];
      const response = snapshot(finish.reason);
      out.push(
        sse(response.status === 'completed' ? 'response.completed' : 'response.incomplete', { response }),
      );
      return out;
    },
  };
}
