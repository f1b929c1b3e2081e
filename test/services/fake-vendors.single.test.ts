import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeVendor } from './fake-vendor-server.js';
import { startFakeVendor1 } from './fake-vendor1.js';
import { startFakeVendor2 } from './fake-vendor2.js';
import { startFakeVendor4 } from './fake-vendor4.js';

/** Each vendor fake, driven directly by the vendor's official SDK: the fakes answer as the SDKs expect. */
const KEY = 'sk-fake-direct';
let vendor1: FakeVendor;
let vendor2: FakeVendor;
let vendor4: FakeVendor;
beforeAll(async () => {
  [vendor1, vendor2, vendor4] = await Promise.all([
    startFakeVendor1({ apiKey: KEY }),
    startFakeVendor2({ apiKey: KEY }),
    startFakeVendor4({ apiKey: KEY }),
  ]);
});
afterAll(async () => {
  await Promise.all([vendor1?.close(), vendor2?.close(), vendor4?.close()]);
});

const weather = {
  name: 'weather',
  description: 'the weather of a city',
  parameters: { type: 'object', properties: { text: { type: 'string' } } },
};

describe('fake vendor1 with the openai SDK', () => {
  it('answers chat completions whole and streamed, tool calls, embeddings and models', async () => {
    const client = new OpenAI({ apiKey: KEY, baseURL: `${vendor1.url}/v1` });
    const whole = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'hello there' }],
    });
    expect(whole.choices[0]!.message.content).toBe('echo: hello there');
    expect(whole.usage).toMatchObject({ prompt_tokens: 2, completion_tokens: 3 });
    const stream = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'one two' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('echo: one two');
    const tool = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'Paris' }],
      tools: [{ type: 'function', function: weather }],
    });
    expect(tool.choices[0]!.finish_reason).toBe('tool_calls');
    expect(tool.choices[0]!.message.tool_calls![0]).toMatchObject({
      function: { name: 'weather', arguments: '{"text":"Paris"}' },
    });
    const vectors = await client.embeddings.create({ model: 'e', input: ['a b c'] });
    expect(vectors.data[0]!.embedding).toEqual([5, 3, 0.5]);
    expect((await client.models.list()).data.map((model) => model.id)).toEqual(['gpt-test']);
    await expect(
      new OpenAI({ apiKey: 'wrong', baseURL: `${vendor1.url}/v1` }).models.list(),
    ).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });
});

describe('fake vendor2 with the @anthropic-ai/sdk SDK', () => {
  it('answers messages whole and streamed, with tool use', async () => {
    const client = new Anthropic({ apiKey: KEY, baseURL: vendor2.url });
    const whole = await client.messages.create({
      model: 'm',
      max_tokens: 50,
      messages: [{ role: 'user', content: 'hi you' }],
    });
    expect(whole.content).toEqual([{ type: 'text', text: 'echo: hi you' }]);
    expect(whole.usage).toMatchObject({ input_tokens: 2, output_tokens: 3 });
    const stream = client.messages.stream({
      model: 'm',
      max_tokens: 50,
      messages: [{ role: 'user', content: 'a b' }],
    });
    const final = await stream.finalMessage();
    expect(final.content).toEqual([{ type: 'text', text: 'echo: a b' }]);
    const tool = client.messages.stream({
      model: 'm',
      max_tokens: 50,
      messages: [{ role: 'user', content: 'Paris' }],
      tools: [{ name: 'weather', input_schema: { type: 'object' } }],
    });
    const called = await tool.finalMessage();
    expect(called.stop_reason).toBe('tool_use');
    expect(called.content[0]).toMatchObject({ type: 'tool_use', name: 'weather', input: { text: 'Paris' } });
  });
});

describe('fake vendor4 with the @google/genai SDK', () => {
  it('answers generateContent whole and streamed, with a function call', async () => {
    const client = new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: vendor4.url } });
    const whole = await client.models.generateContent({ model: 'm', contents: 'good day' });
    expect(whole.text).toBe('echo: good day');
    expect(whole.usageMetadata).toMatchObject({ promptTokenCount: 2, candidatesTokenCount: 3 });
    let text = '';
    for await (const chunk of await client.models.generateContentStream({ model: 'm', contents: 'x y' }))
      text += chunk.text ?? '';
    expect(text).toBe('echo: x y');
    const called = await client.models.generateContent({
      model: 'm',
      contents: 'Paris',
      config: { tools: [{ functionDeclarations: [{ name: 'weather' }] }] },
    });
    expect(called.functionCalls).toEqual([{ name: 'weather', args: { text: 'Paris' } }]);
  });
});
