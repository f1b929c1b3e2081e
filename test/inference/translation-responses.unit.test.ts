import { describe, expect, it } from 'vitest';
import { translateResponse, usageOf } from '../../src/modules/inference/translation/index.js';

const messagesAnswer = {
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-x',
  content: [
    { type: 'thinking', thinking: 'hmm', signature: 'sig' },
    { type: 'text', text: 'Let me check.' },
    { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
  ],
  stop_reason: 'tool_use',
  stop_sequence: null,
  usage: { input_tokens: 10, cache_read_input_tokens: 5, output_tokens: 7 },
};

const chatAnswer = (finish: string, message: object) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-x',
  choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish, logprobs: null }],
  usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
});

describe('answers translated for the caller', () => {
  it('gives a chat caller the text, the tool calls, finish_reason tool_calls and the usage of a messages answer', () => {
    const answer = translateResponse('vendor2-messages', 'vendor1-chat', messagesAnswer, 'public');
    expect(answer).toMatchObject({
      object: 'chat.completion',
      model: 'public',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Let me check.',
            tool_calls: [
              {
                id: 'toolu_1',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
              },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 15, completion_tokens: 7, total_tokens: 22 },
    });
    expect(answer.id).toMatch(/^chatcmpl-/);
  });

  it('gives a messages caller a length-limited chat answer as stop_reason max_tokens', () => {
    const answer = translateResponse(
      'vendor1-chat',
      'vendor2-messages',
      chatAnswer('length', { content: 'Once upon' }),
      'public',
    );
    expect(answer).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'public',
      content: [{ type: 'text', text: 'Once upon' }],
      stop_reason: 'max_tokens',
      stop_sequence: null,
      usage: { input_tokens: 3, output_tokens: 4 },
    });
    expect(answer.id).toMatch(/^msg_/);
  });

  it('gives a messages caller the chat tool calls as tool_use blocks with their input parsed', () => {
    const answer = translateResponse(
      'vendor1-chat',
      'vendor2-messages',
      chatAnswer('tool_calls', {
        content: null,
        tool_calls: [
          { id: 'call_9', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
        ],
      }),
      'public',
    );
    expect(answer.content).toEqual([
      { type: 'tool_use', id: 'call_9', name: 'get_weather', input: { city: 'Oslo' } },
    ]);
    expect(answer.stop_reason).toBe('tool_use');
  });

  it('gives a vendor4 caller function calls with args objects, finishReason STOP and usageMetadata', () => {
    const answer = translateResponse('vendor2-messages', 'vendor4-content', messagesAnswer, 'public');
    expect(answer).toMatchObject({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              { text: 'Let me check.' },
              { functionCall: { id: 'toolu_1', name: 'get_weather', args: { city: 'Paris' } } },
            ],
          },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: { promptTokenCount: 15, candidatesTokenCount: 7, totalTokenCount: 22 },
      modelVersion: 'public',
    });
  });

  it('reads a vendor4 answer that ends in a function call as finish_reason tool_calls, leaving thoughts out', () => {
    const answer = translateResponse(
      'vendor4-content',
      'vendor1-chat',
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                { text: 'thinking…', thought: true },
                { functionCall: { name: 'get_weather', args: { city: 'Lima' } } },
              ],
            },
            finishReason: 'STOP',
          },
        ],
        usageMetadata: {
          promptTokenCount: 8,
          candidatesTokenCount: 5,
          thoughtsTokenCount: 20,
          totalTokenCount: 33,
        },
      },
      'public',
    );
    const choice = (
      answer.choices as Array<{
        message: { content: unknown; tool_calls: Array<{ id: string }> };
        finish_reason: string;
      }>
    )[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    expect(choice.message.tool_calls[0]!.id).toMatch(/^call_/);
    expect(answer.usage).toEqual({ prompt_tokens: 8, completion_tokens: 25, total_tokens: 33 });
  });

  it('reads a vendor4 prompt blocked before any candidate as a content filter stop', () => {
    const answer = translateResponse(
      'vendor4-content',
      'vendor2-messages',
      {
        promptFeedback: { blockReason: 'SAFETY' },
        usageMetadata: { promptTokenCount: 4, totalTokenCount: 4 },
      },
      'public',
    );
    expect(answer).toMatchObject({
      content: [],
      stop_reason: 'refusal',
      usage: { input_tokens: 4, output_tokens: 0 },
    });
  });

  it('maps each vendor4 safety-like finish reason to content_filter for a chat caller', () => {
    for (const finishReason of ['SAFETY', 'RECITATION', 'PROHIBITED_CONTENT']) {
      const answer = translateResponse(
        'vendor4-content',
        'vendor1-chat',
        { candidates: [{ content: { role: 'model', parts: [] }, finishReason }] },
        'public',
      );
      expect((answer.choices as Array<{ finish_reason: string }>)[0]!.finish_reason).toBe('content_filter');
    }
  });
});

describe('usageOf', () => {
  it('reads the usage of an answer of each protocol', () => {
    expect(usageOf('vendor1-chat', chatAnswer('stop', { content: 'x' }))).toEqual({
      inputTokens: 3,
      outputTokens: 4,
    });
    expect(usageOf('vendor2-messages', messagesAnswer)).toEqual({ inputTokens: 15, outputTokens: 7 });
    expect(
      usageOf('vendor4-content', { usageMetadata: { promptTokenCount: 2, candidatesTokenCount: 9 } }),
    ).toEqual({
      inputTokens: 2,
      outputTokens: 9,
    });
  });

  it('reads the counts a stream event carries, from its data text', () => {
    const start = JSON.stringify({
      type: 'message_start',
      message: { ...messagesAnswer, usage: { input_tokens: 12, output_tokens: 1 } },
    });
    const delta = JSON.stringify({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn' },
      usage: { output_tokens: 30 },
    });
    expect(usageOf('vendor2-messages', start)).toEqual({ inputTokens: 12, outputTokens: 1 });
    expect(usageOf('vendor2-messages', delta)).toEqual({ outputTokens: 30 });
  });

  it('reports nothing for a body that is not of the protocol shape, without throwing', () => {
    expect(usageOf('vendor1-chat', 'not json')).toEqual({});
    expect(usageOf('vendor2-messages', { usage: { input_tokens: 'many' } })).toEqual({});
  });
});
