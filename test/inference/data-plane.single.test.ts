import http from 'node:http';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { type PlaneTestBed, startPlaneTestBed } from './plane-helpers.js';

/** The data plane driven by the official SDKs, unchanged but for the base URL and the key. */
let bed: PlaneTestBed;
let openai: OpenAI;
let anthropic: Anthropic;
let genai: GoogleGenAI;

beforeAll(async () => {
  bed = await startPlaneTestBed({ inferenceMaxBodyBytes: 64 * 1024, inferenceCircuitFailures: 2 });
  openai = new OpenAI({ apiKey: bed.key, baseURL: `${bed.url}/inference/v1`, maxRetries: 0 });
  anthropic = new Anthropic({ apiKey: bed.key, baseURL: `${bed.url}/inference`, maxRetries: 0 });
  genai = new GoogleGenAI({ apiKey: bed.key, httpOptions: { baseUrl: `${bed.url}/inference` } });
  await bed.route('chat', [{ connection: 'v1', upstreamModel: 'gpt-test' }]);
  await bed.route('claude', [{ connection: 'v2', upstreamModel: 'claude-test' }]);
  await bed.route('gemini', [{ connection: 'v4', upstreamModel: 'gemini-test' }]);
  await bed.route('failover', [
    { connection: 'v1', upstreamModel: 'fail-503' },
    { connection: 'v1', upstreamModel: 'gpt-test' },
  ]);
});
afterAll(() => bed?.close());

const tool = {
  name: 'weather',
  description: 'weather of a city',
  parameters: { type: 'object', properties: {} },
};

describe('same-protocol pass-through with the official SDKs', () => {
  it('openai: a chat completion, with the upstream model substituted and the connection key sent', async () => {
    const answer = await openai.chat.completions.create({
      model: 'chat',
      messages: [{ role: 'user', content: 'hello there' }],
    });
    expect(answer.choices[0]!.message.content).toBe('echo: hello there');
    const seen = bed.vendor1.requests.at(-1)!;
    expect(seen.body).toMatchObject({ model: 'gpt-test' });
    expect(seen.headers.authorization).toBe('Bearer sk-vendor-0123456789');
  });

  it('openai: a streamed chat relayed event by event, and a tool call', async () => {
    const stream = await openai.chat.completions.create({
      model: 'chat',
      messages: [{ role: 'user', content: 'a b c' }],
      stream: true,
    });
    const pieces: string[] = [];
    for await (const chunk of stream)
      if (chunk.choices[0]?.delta.content) pieces.push(chunk.choices[0].delta.content);
    expect(pieces.join('')).toBe('echo: a b c');
    expect(pieces.length).toBeGreaterThan(1);
    const called = await openai.chat.completions.create({
      model: 'chat',
      messages: [{ role: 'user', content: 'Paris' }],
      tools: [{ type: 'function', function: tool }],
    });
    expect(called.choices[0]!.message.tool_calls![0]).toMatchObject({ function: { name: 'weather' } });
  });

  it('openai: embeddings and the key’s model list', async () => {
    const vectors = await openai.embeddings.create({ model: 'v1/text-embed', input: 'a b' });
    expect(vectors.data[0]!.embedding).toEqual([3, 2, 0.5]);
    const models = (await openai.models.list()).data.map((model) => model.id);
    expect(models).toEqual(expect.arrayContaining(['chat', 'claude', 'gemini']));
  });

  it('anthropic: a message whole and streamed with tool use', async () => {
    const whole = await anthropic.messages.create({
      model: 'claude',
      max_tokens: 20,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(whole.content).toEqual([{ type: 'text', text: 'echo: hi' }]);
    expect(bed.vendor2.requests.at(-1)!.headers['x-api-key']).toBe('sk-vendor-0123456789');
    const stream = anthropic.messages.stream({
      model: 'claude',
      max_tokens: 20,
      messages: [{ role: 'user', content: 'Paris' }],
      tools: [{ name: 'weather', input_schema: { type: 'object' } }],
    });
    const final = await stream.finalMessage();
    expect(final.content[0]).toMatchObject({ type: 'tool_use', name: 'weather', input: { text: 'Paris' } });
  });

  it('genai: generateContent whole and streamed, with a function call', async () => {
    const whole = await genai.models.generateContent({ model: 'gemini', contents: 'good day' });
    expect(whole.text).toBe('echo: good day');
    expect(bed.vendor4.requests.at(-1)!.path).toBe('/v1beta/models/gemini-test:generateContent');
    let text = '';
    for await (const chunk of await genai.models.generateContentStream({ model: 'gemini', contents: 'x y' }))
      text += chunk.text ?? '';
    expect(text).toBe('echo: x y');
    const called = await genai.models.generateContent({
      model: 'gemini',
      contents: 'Paris',
      config: { tools: [{ functionDeclarations: [{ name: 'weather' }] }] },
    });
    expect(called.functionCalls).toEqual([{ name: 'weather', args: { text: 'Paris' } }]);
  });
});

describe('refusals in the caller protocol, nothing sent upstream', () => {
  it('an unknown model is 404, a model outside the key’s globs 403, a revoked key 401', async () => {
    const before = bed.vendor1.requests.length;
    await expect(
      openai.chat.completions.create({ model: 'nope', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toMatchObject({
      status: 404,
      error: { type: 'not_found_error', code: 'model_not_found' },
    });
    const narrow = (
      await bed.gateway.call('POST', '/api/inference/keys', { body: { name: 'narrow', models: ['claude*'] } })
    ).body.data;
    const narrowClient = new OpenAI({
      apiKey: narrow.key,
      baseURL: `${bed.url}/inference/v1`,
      maxRetries: 0,
    });
    await expect(
      narrowClient.chat.completions.create({ model: 'chat', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toBeInstanceOf(OpenAI.PermissionDeniedError);
    await bed.gateway.call('DELETE', `/api/inference/keys/${narrow.id}`);
    await expect(narrowClient.models.list()).rejects.toMatchObject({
      status: 401,
      error: { code: 'key_revoked' },
    });
    expect(bed.vendor1.requests.length).toBe(before);
  });

  it('an API token of the gateway does not open the data plane', async () => {
    const client = new OpenAI({
      apiKey: bed.gateway.adminToken,
      baseURL: `${bed.url}/inference/v1`,
      maxRetries: 0,
    });
    await expect(client.models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });

  it('a body of another protocol is 400 in the caller’s shape; a body over the limit 413', async () => {
    const wrong = await fetch(`${bed.url}/inference/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': bed.key, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude', contents: [{ parts: [{ text: 'x' }] }] }),
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    const big = await fetch(`${bed.url}/inference/v1beta/models/gemini:generateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': bed.key, 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ parts: [{ text: 'x'.repeat(100_000) }] }] }),
    });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ error: { code: 413, status: 'INVALID_ARGUMENT' } });
  });
});

describe('upstream faults', () => {
  it('fails over from a 503 to the next target: the client sees one success', async () => {
    const answer = await openai.chat.completions.create({
      model: 'failover',
      messages: [{ role: 'user', content: 'ok' }],
    });
    expect(answer.choices[0]!.message.content).toBe('echo: ok');
  });

  it('skips a connection whose circuit opened after failures in a row', async () => {
    const { key } = (await bed.gateway.call('POST', '/api/inference/keys', { body: { name: 'circuit' } }))
      .body.data;
    const connection = await bed.gateway.call('POST', '/api/inference/connections', {
      body: {
        providerId: 'fake-vendor1',
        name: 'flaky',
        authType: 'api_key',
        apiKey: 'sk-vendor-0123456789',
      },
    });
    const client = new OpenAI({ apiKey: key, baseURL: `${bed.url}/inference/v1`, maxRetries: 0 });
    const ask = () =>
      client.chat.completions.create({ model: 'flaky/fail-429', messages: [{ role: 'user', content: 'x' }] });
    await expect(ask()).rejects.toMatchObject({ status: 503 });
    await expect(ask()).rejects.toMatchObject({ status: 503 });
    const seen = bed.vendor1.requests.length;
    await expect(ask()).rejects.toMatchObject({
      error: { message: expect.stringContaining('skipped until') },
    });
    expect(bed.vendor1.requests.length).toBe(seen);
    expect(connection.status).toBe(201);
  });

  it('an upstream answering garbage is 502 with the reason', async () => {
    await expect(
      openai.chat.completions.create({ model: 'v1/garbage', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toMatchObject({
      status: 502,
      error: { code: 'upstream_invalid_answer', message: expect.stringContaining('not JSON') },
    });
  });

  it('a stream that breaks off ends with the protocol’s error event', async () => {
    const stream = anthropic.messages.stream({
      model: 'v2/cut-stream',
      max_tokens: 5,
      messages: [{ role: 'user', content: 'x' }],
    });
    await expect(stream.finalMessage()).rejects.toThrow(/broke off/);
  });

  it('a client that goes away aborts the upstream call', async () => {
    // A plain request on its own socket: a pooled fetch client reconnects after an abort and leaves a
    // connection that never sends a request, which the gateway's close waits out (Node's headersTimeout).
    const body = JSON.stringify({
      model: 'v1/hang',
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
    });
    const request = http.request(`${bed.url}/inference/v1/chat/completions`, {
      method: 'POST',
      agent: false,
      headers: { authorization: `Bearer ${bed.key}`, 'content-type': 'application/json' },
    });
    request.on('error', () => undefined);
    request.end(body);
    await eventually(
      () => bed.vendor1.requests.some((seen) => (seen.body as { model: string }).model === 'hang'),
      'upstream asked',
    );
    request.destroy();
    await eventually(() => bed.vendor1.aborted > 0, 'upstream call aborted');
  });
});
