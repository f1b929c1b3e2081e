import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { createStreamTranslator, type WireProtocol } from '../../src/modules/inference/translation/index.js';
import {
  chatStream,
  contentStream,
  messagesStream,
  relay,
  responsesStream,
  sseText,
} from '../unit-support/translation-streams.fixtures.js';

/**
 * The translated streams read by each vendor's own SDK (its SSE parser and its accumulating helpers),
 * served by a fetch that answers the translated text: no network, no server.
 */

const upstreams = [
  ['vendor1-chat', chatStream],
  ['vendor2-messages', messagesStream],
  ['vendor4-content', contentStream],
  ['vendor1-responses', responsesStream],
] as const;

function answering(upstream: WireProtocol, events: typeof chatStream, caller: WireProtocol, options = {}) {
  const text = sseText(relay(createStreamTranslator(upstream, caller, 'public', options), events));
  return async () => new Response(text, { headers: { 'content-type': 'text/event-stream' } });
}

describe('translated streams as the official SDKs read them', () => {
  for (const [upstream, events] of upstreams.filter(([name]) => name !== 'vendor1-chat')) {
    it(`openai's chat completion stream accumulates the answer translated from ${upstream}`, async () => {
      const client = new OpenAI({
        apiKey: 'k',
        baseURL: 'http://sdk.invalid/v1',
        fetch: answering(upstream, events, 'vendor1-chat', { includeUsage: true }),
      });
      const stream = client.chat.completions.stream({
        model: 'public',
        messages: [{ role: 'user', content: 'Hi' }],
        stream_options: { include_usage: true },
      });
      const answer = await stream.finalChatCompletion();
      expect(answer.choices[0]!.message.content).toBe('Hello');
      expect(answer.choices[0]!.message.tool_calls).toMatchObject([
        { type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
      ]);
      expect(answer.choices[0]!.finish_reason).toBe('tool_calls');
      expect(answer.usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 20 });
    });
  }

  for (const [upstream, events] of upstreams.filter(([name]) => name !== 'vendor2-messages')) {
    it(`@anthropic-ai/sdk's message stream accumulates the answer translated from ${upstream}`, async () => {
      const client = new Anthropic({
        apiKey: 'k',
        baseURL: 'http://sdk.invalid',
        fetch: answering(upstream, events, 'vendor2-messages'),
      });
      const message = await client.messages
        .stream({ model: 'public', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] })
        .finalMessage();
      expect(message.content).toMatchObject([
        { type: 'text', text: 'Hello' },
        { type: 'tool_use', name: 'get_weather', input: { city: 'Paris' } },
      ]);
      expect(message.stop_reason).toBe('tool_use');
      expect(message.usage).toMatchObject({ input_tokens: 10, output_tokens: 20 });
    });
  }

  for (const [upstream, events] of upstreams.filter(([name]) => name !== 'vendor4-content')) {
    it(`@google/genai's content stream reads the answer translated from ${upstream}`, async () => {
      const ai = new GoogleGenAI({
        apiKey: 'k',
        httpOptions: { baseUrl: 'http://sdk.invalid', fetch: answering(upstream, events, 'vendor4-content') },
      });
      let text = '';
      const calls: unknown[] = [];
      let last: { finishReason?: string; usage?: unknown } = {};
      for await (const chunk of await ai.models.generateContentStream({ model: 'public', contents: 'Hi' })) {
        text += chunk.text ?? '';
        calls.push(...(chunk.functionCalls ?? []));
        last = { finishReason: chunk.candidates?.[0]?.finishReason, usage: chunk.usageMetadata };
      }
      expect(text).toBe('Hello');
      expect(calls).toMatchObject([{ name: 'get_weather', args: { city: 'Paris' } }]);
      expect(last).toMatchObject({
        finishReason: 'STOP',
        usage: { promptTokenCount: 10, candidatesTokenCount: 20 },
      });
    });
  }

  for (const [upstream, events] of upstreams.filter(([name]) => name !== 'vendor1-responses')) {
    it(`openai's responses stream accumulates the answer translated from ${upstream}`, async () => {
      const client = new OpenAI({
        apiKey: 'k',
        baseURL: 'http://sdk.invalid/v1',
        fetch: answering(upstream, events, 'vendor1-responses'),
      });
      const response = await client.responses.stream({ model: 'public', input: 'Hi' }).finalResponse();
      expect(response.output).toMatchObject([
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hello' }] },
        {
          type: 'function_call',
          call_id: expect.any(String),
          name: 'get_weather',
          arguments: '{"city":"Paris"}',
        },
      ]);
      expect(response.status).toBe('completed');
      expect(response.usage).toMatchObject({ input_tokens: 10, output_tokens: 20 });
    });
  }

  it('the SDKs raise the translated error event as an error', async () => {
    const failed = (caller: WireProtocol) => {
      const translator = createStreamTranslator('vendor1-chat', caller, 'public');
      const text = sseText([
        ...translator.push(chatStream[1]!),
        ...translator.fail('upstream connection reset'),
      ]);
      return async () => new Response(text, { headers: { 'content-type': 'text/event-stream' } });
    };
    const openai = new OpenAI({
      apiKey: 'k',
      baseURL: 'http://sdk.invalid/v1',
      fetch: failed('vendor1-chat'),
    });
    await expect(
      openai.chat.completions.stream({ model: 'public', messages: [] }).finalChatCompletion(),
    ).rejects.toThrow(/upstream connection reset/);
    const anthropic = new Anthropic({
      apiKey: 'k',
      baseURL: 'http://sdk.invalid',
      fetch: failed('vendor2-messages'),
    });
    await expect(
      anthropic.messages.stream({ model: 'public', max_tokens: 5, messages: [] }).finalMessage(),
    ).rejects.toThrow(/upstream connection reset/);
    const ai = new GoogleGenAI({
      apiKey: 'k',
      httpOptions: { baseUrl: 'http://sdk.invalid', fetch: failed('vendor4-content') },
    });
    const read = async () => {
      for await (const _ of await ai.models.generateContentStream({ model: 'public', contents: 'Hi' }))
        void _;
    };
    await expect(read()).rejects.toThrow(/upstream connection reset/);
  });
});
