import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PlaneTestBed, startPlaneTestBed } from './plane-helpers.js';

/** Callers of one protocol on targets of another: the official SDKs read the translated answers. */
let bed: PlaneTestBed;
let openai: OpenAI;
let anthropic: Anthropic;
let genai: GoogleGenAI;

beforeAll(async () => {
  bed = await startPlaneTestBed();
  openai = new OpenAI({ apiKey: bed.key, baseURL: `${bed.url}/inference/v1`, maxRetries: 0 });
  anthropic = new Anthropic({ apiKey: bed.key, baseURL: `${bed.url}/inference`, maxRetries: 0 });
  genai = new GoogleGenAI({ apiKey: bed.key, httpOptions: { baseUrl: `${bed.url}/inference` } });
  await bed.route('on-vendor2', [{ connection: 'v2', upstreamModel: 'claude-test' }]);
  await bed.route('on-vendor1', [{ connection: 'v1', upstreamModel: 'gpt-test' }]);
  await bed.route('on-vendor4', [{ connection: 'v4', upstreamModel: 'gemini-test' }]);
});
afterAll(() => bed?.close());

/** The text of a streamed chat completion, as the openai client assembles it. */
async function streamedChat(model: string, content: string): Promise<string> {
  const stream = await openai.chat.completions.create({
    model,
    messages: [{ role: 'user', content }],
    stream: true,
  });
  let text = '';
  for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
  return text;
}

describe('translation between protocols in the data plane', () => {
  it('openai on a vendor2 target: whole, streamed and a tool call, in vendor2’s terms upstream', async () => {
    const whole = await openai.chat.completions.create({
      model: 'on-vendor2',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hello there' },
      ],
      max_tokens: 30,
    });
    expect(whole.model).toBe('on-vendor2');
    expect(whole.choices[0]!.message.content).toBe('echo: hello there');
    const seen = bed.vendor2.requests.at(-1)!;
    expect(seen.path).toBe('/v1/messages');
    expect(seen.body).toMatchObject({ model: 'claude-test', system: 'be brief', max_tokens: 30 });
    expect(seen.headers['x-api-key']).toBe('sk-vendor-0123456789');

    expect(await streamedChat('on-vendor2', 'a b c')).toBe('echo: a b c');

    const called = await openai.chat.completions.create({
      model: 'on-vendor2',
      messages: [{ role: 'user', content: 'Paris' }],
      tools: [{ type: 'function', function: { name: 'weather', parameters: { type: 'object' } } }],
    });
    expect(called.choices[0]!.finish_reason).toBe('tool_calls');
    const call = called.choices[0]!.message.tool_calls![0]!;
    expect(call.type === 'function' && call.function.name).toBe('weather');
    expect(call.type === 'function' && JSON.parse(call.function.arguments)).toEqual({ text: 'Paris' });
  });

  it('anthropic on a vendor1 target: whole and a streamed tool use', async () => {
    const whole = await anthropic.messages.create({
      model: 'on-vendor1',
      max_tokens: 20,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(whole.content).toMatchObject([{ type: 'text', text: 'echo: hi' }]);
    expect(bed.vendor1.requests.at(-1)!.body).toMatchObject({ model: 'gpt-test' });

    const stream = anthropic.messages.stream({
      model: 'on-vendor1',
      max_tokens: 20,
      messages: [{ role: 'user', content: 'Paris' }],
      tools: [{ name: 'weather', input_schema: { type: 'object' } }],
    });
    const final = await stream.finalMessage();
    expect(final.stop_reason).toBe('tool_use');
    expect(final.content[0]).toMatchObject({ type: 'tool_use', name: 'weather', input: { text: 'Paris' } });
  });

  it('genai on a vendor1 target: whole and streamed; openai on a vendor4 target streams by its URL', async () => {
    const whole = await genai.models.generateContent({ model: 'on-vendor1', contents: 'good day' });
    expect(whole.text).toBe('echo: good day');
    let text = '';
    for await (const chunk of await genai.models.generateContentStream({
      model: 'on-vendor1',
      contents: 'x y',
    }))
      text += chunk.text ?? '';
    expect(text).toBe('echo: x y');
    expect(bed.vendor1.requests.at(-1)!.body).toMatchObject({ model: 'gpt-test', stream: true });

    expect(await streamedChat('on-vendor4', 'p q')).toBe('echo: p q');
    expect(bed.vendor4.requests.at(-1)!.path).toBe(
      '/v1beta/models/gemini-test:streamGenerateContent?alt=sse',
    );
  });

  it('a request the target’s protocol cannot say is the caller’s 400 naming the field, nothing sent', async () => {
    const before = bed.vendor2.requests.length;
    const refused = await fetch(`${bed.url}/inference/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bed.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'on-vendor2', messages: [{ role: 'wizard', content: 'x' }] }),
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      error: { type: 'invalid_request_error', message: expect.stringContaining('messages[0].role') },
    });
    expect(bed.vendor2.requests.length).toBe(before);
  });

  it('a translated stream that breaks off ends with the caller’s error event', async () => {
    const stream = anthropic.messages.stream({
      model: 'v1/cut-stream',
      max_tokens: 5,
      messages: [{ role: 'user', content: 'x' }],
    });
    await expect(stream.finalMessage()).rejects.toThrow(/broke off|ended/);
  });
});
