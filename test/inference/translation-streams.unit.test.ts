import { describe, expect, it } from 'vitest';
import { createStreamTranslator, createUsageMeter } from '../../src/modules/inference/translation/index.js';
import {
  chatStream,
  contentStream,
  messagesStream,
  parsed,
  relay,
} from '../unit-support/translation-streams.fixtures.js';

type Chunk = {
  choices: Array<{ delta: Record<string, unknown>; finish_reason: string | null }>;
  usage?: unknown;
};

describe('streams to a vendor1-chat caller', () => {
  it('relays each upstream text delta as one chunk the moment it arrives', () => {
    const translator = createStreamTranslator('vendor2-messages', 'vendor1-chat', 'public');
    const [start, blockStart, ping, hel] = messagesStream;
    expect(parsed(translator.push(start!))).toMatchObject([
      {
        object: 'chat.completion.chunk',
        model: 'public',
        choices: [{ index: 0, delta: { role: 'assistant', content: '' } }],
      },
    ]);
    expect(translator.push(blockStart!)).toEqual([]);
    expect(translator.push(ping!)).toEqual([]);
    expect(parsed(translator.push(hel!))).toMatchObject([
      { choices: [{ delta: { content: 'Hel' }, finish_reason: null }] },
    ]);
  });

  it('gives a tool_use block as a tool call delta with id and name, then its argument pieces, then finish_reason tool_calls', () => {
    const chunks = parsed(
      relay(createStreamTranslator('vendor2-messages', 'vendor1-chat', 'public'), messagesStream),
    ) as Chunk[];
    expect(chunks.map((chunk) => chunk.choices[0]!.delta).slice(3)).toEqual([
      {
        tool_calls: [
          { index: 0, id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '' } },
        ],
      },
      { tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] },
      { tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] },
      {},
    ]);
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('tool_calls');
  });

  it('ends with data: [DONE] and sends the usage chunk only when the caller asked for it', () => {
    const plain = relay(createStreamTranslator('vendor4-content', 'vendor1-chat', 'public'), contentStream);
    expect(plain.at(-1)).toEqual({ data: '[DONE]' });
    expect(parsed(plain).some((chunk) => 'usage' in chunk)).toBe(false);
    const withUsage = relay(
      createStreamTranslator('vendor4-content', 'vendor1-chat', 'public', { includeUsage: true }),
      contentStream,
    );
    expect(parsed(withUsage).at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 },
    });
  });
});

describe('streams to a vendor2-messages caller', () => {
  it('writes message_start, one block per text run and tool call, message_delta and message_stop', () => {
    const events = relay(createStreamTranslator('vendor1-chat', 'vendor2-messages', 'public'), chatStream);
    expect(events.map((event) => event.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const data = parsed(events);
    expect(data[0]).toMatchObject({
      type: 'message_start',
      message: { type: 'message', role: 'assistant', model: 'public', content: [] },
    });
    expect(data[5]).toEqual({
      type: 'content_block_start',
      index: 1,
      content_block: { type: 'tool_use', id: 'call_1', name: 'get_weather', input: {} },
    });
    expect(data[6]).toEqual({
      type: 'content_block_delta',
      index: 1,
      delta: { type: 'input_json_delta', partial_json: '{"city":' },
    });
    expect(data[9]).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { input_tokens: 10, output_tokens: 20 },
    });
  });

  it('gives a vendor4 function call as a tool_use block with its arguments in one input_json_delta', () => {
    const data = parsed(
      relay(createStreamTranslator('vendor4-content', 'vendor2-messages', 'public'), contentStream),
    );
    const toolStart = data.find((event) => event.type === 'content_block_start' && event.index === 1);
    expect(toolStart).toMatchObject({ content_block: { type: 'tool_use', name: 'get_weather', input: {} } });
    expect(data.filter((event) => event.type === 'content_block_delta' && event.index === 1)).toEqual([
      {
        type: 'content_block_delta',
        index: 1,
        delta: { type: 'input_json_delta', partial_json: '{"city":"Paris"}' },
      },
    ]);
    expect(data.at(-2)).toMatchObject({ delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 20 } });
  });
});

describe('streams to a vendor4-content caller', () => {
  it('sends text parts as they arrive and a tool call whole once its arguments are complete, then finishReason and usage', () => {
    const translator = createStreamTranslator('vendor1-chat', 'vendor4-content', 'public');
    const perEvent = chatStream.map((event) => parsed(translator.push(event)));
    expect(perEvent[1]).toMatchObject([
      { candidates: [{ content: { role: 'model', parts: [{ text: 'Hel' }] } }] },
    ]);
    // The argument pieces are held: vendor4 sends a function call with its args as one object.
    expect(perEvent.slice(3, 6)).toEqual([[], [], []]);
    expect(parsed(translator.end())).toMatchObject([
      {
        candidates: [
          {
            content: {
              parts: [{ functionCall: { id: 'call_1', name: 'get_weather', args: { city: 'Paris' } } }],
            },
          },
        ],
      },
      {
        candidates: [{ finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 20, totalTokenCount: 30 },
        modelVersion: 'public',
      },
    ]);
  });
});

describe('usage and failures of a translated stream', () => {
  it('counts the usage the upstream reported, whatever its protocol', () => {
    for (const [upstream, events] of [
      ['vendor1-chat', chatStream],
      ['vendor2-messages', messagesStream],
      ['vendor4-content', contentStream],
    ] as const) {
      const translator = createStreamTranslator(upstream, 'vendor2-messages', 'public');
      relay(translator, events);
      expect(translator.usage()).toEqual({ inputTokens: 10, outputTokens: 20 });
    }
  });

  it('adds up the usage of a stream relayed unchanged', () => {
    const meter = createUsageMeter('vendor2-messages');
    for (const event of messagesStream) meter.push(event);
    expect(meter.usage()).toEqual({ inputTokens: 10, outputTokens: 20 });
  });

  it('ends with the caller protocol error event when the upstream stream stops before its end', () => {
    const translator = createStreamTranslator('vendor1-chat', 'vendor2-messages', 'public');
    const events = relay(translator, chatStream.slice(0, 3));
    expect(events.at(-1)).toMatchObject({ event: 'error' });
    expect(parsed(events).at(-1)).toEqual({
      type: 'error',
      error: { type: 'api_error', message: 'the upstream stream ended before the answer was complete' },
    });
  });

  it('relays an upstream error event as the caller protocol error and nothing after it', () => {
    const translator = createStreamTranslator('vendor2-messages', 'vendor1-chat', 'public');
    translator.push(messagesStream[0]!);
    const failure = translator.push({
      event: 'error',
      data: JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
    });
    expect(parsed(failure)).toEqual([
      { error: { message: 'Overloaded', type: 'server_error', param: null, code: null } },
    ]);
    expect(translator.push(messagesStream[3]!)).toEqual([]);
    expect(translator.end()).toEqual([]);
  });

  it('gives the caller protocol error for a broken upstream connection', () => {
    const translator = createStreamTranslator('vendor1-chat', 'vendor4-content', 'public');
    expect(parsed(translator.fail('upstream connection reset'))).toEqual([
      { error: { code: 500, message: 'upstream connection reset', status: 'INTERNAL' } },
    ]);
  });
});
