import { describe, expect, it } from 'vitest';
import { translateRequest } from '../../src/modules/inference/translation/index.js';
import { imageMessages, toolConversation, weather } from '../unit-support/translation-requests.fixtures.js';

describe('vendor1-chat requests to vendor2-messages', () => {
  it('moves system and developer messages into system and keeps the turns in order', () => {
    const body = translateRequest(
      'vendor1-chat',
      'vendor2-messages',
      {
        model: 'public',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'developer', content: [{ type: 'text', text: 'Answer in French.' }] },
          { role: 'user', content: 'Hello' },
          { role: 'assistant', content: 'Bonjour' },
          { role: 'user', content: 'Ça va ?' },
        ],
      },
      'claude-x',
    );
    expect(body).toEqual({
      model: 'claude-x',
      max_tokens: 4096,
      system: 'Be brief.\n\nAnswer in French.',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Hello' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Bonjour' }] },
        { role: 'user', content: [{ type: 'text', text: 'Ça va ?' }] },
      ],
    });
  });

  it('carries max tokens, temperature, top_p and stop sequences', () => {
    const body = translateRequest(
      'vendor1-chat',
      'vendor2-messages',
      {
        model: 'public',
        messages: [{ role: 'user', content: 'Hi' }],
        max_completion_tokens: 100,
        temperature: 0.2,
        top_p: 0.9,
        stop: 'END',
      },
      'claude-x',
    );
    expect(body).toMatchObject({ max_tokens: 100, temperature: 0.2, top_p: 0.9, stop_sequences: ['END'] });
  });

  it('turns an image by URL and a base64 data URL into url and base64 image sources', () => {
    const body = translateRequest(
      'vendor1-chat',
      'vendor2-messages',
      {
        model: 'public',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Compare' },
              { type: 'image_url', image_url: { url: 'https://img.example/a.png' } },
              { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/AAA=' } },
            ],
          },
        ],
      },
      'claude-x',
    );
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Compare' },
          { type: 'image', source: { type: 'url', url: 'https://img.example/a.png' } },
          { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/AAA=' } },
        ],
      },
    ]);
  });

  it('turns function tools, a required tool choice and parallel_tool_calls false into tools and tool_choice any', () => {
    const body = translateRequest(
      'vendor1-chat',
      'vendor2-messages',
      {
        model: 'public',
        messages: [{ role: 'user', content: 'Weather?' }],
        tools: [weather],
        tool_choice: 'required',
        parallel_tool_calls: false,
      },
      'claude-x',
    );
    expect(body.tools).toEqual([
      { name: 'get_weather', description: 'Weather of a city', input_schema: weather.function.parameters },
    ]);
    expect(body.tool_choice).toEqual({ type: 'any', disable_parallel_tool_use: true });
  });

  it('names one function as the tool choice', () => {
    const body = translateRequest(
      'vendor1-chat',
      'vendor2-messages',
      {
        model: 'public',
        messages: [{ role: 'user', content: 'Weather?' }],
        tools: [weather],
        tool_choice: { type: 'function', function: { name: 'get_weather' } },
      },
      'claude-x',
    );
    expect(body.tool_choice).toEqual({ type: 'tool', name: 'get_weather' });
  });

  it('turns tool calls into tool_use blocks and consecutive tool messages into one user turn of tool_result blocks', () => {
    const body = translateRequest('vendor1-chat', 'vendor2-messages', toolConversation, 'claude-x');
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: 'call_2', name: 'get_weather', input: { city: 'Rome' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_1', content: 'sunny' },
          { type: 'tool_result', tool_use_id: 'call_2', content: 'rainy' },
        ],
      },
    ]);
  });

  it('asks a chat upstream for the usage of a streamed answer', () => {
    const body = translateRequest(
      'vendor2-messages',
      'vendor1-chat',
      {
        model: 'public',
        max_tokens: 50,
        stream: true,
        messages: [{ role: 'user', content: 'Hi' }],
      },
      'gpt-x',
    );
    expect(body).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
      max_completion_tokens: 50,
    });
  });
});

describe('vendor2-messages requests to vendor1-chat', () => {
  it('turns the system blocks, tool_use and tool_result (with is_error) into system, tool_calls and tool messages', () => {
    const body = translateRequest(
      'vendor2-messages',
      'vendor1-chat',
      {
        model: 'public',
        max_tokens: 200,
        system: [{ type: 'text', text: 'You are terse.' }],
        messages: [
          { role: 'user', content: 'Weather in Paris?' },
          {
            role: 'assistant',
            content: [
              { type: 'text', text: 'Checking.' },
              { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
            ],
          },
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                tool_use_id: 'toolu_1',
                content: [{ type: 'text', text: 'no data' }],
                is_error: true,
              },
              { type: 'text', text: 'And Rome?' },
            ],
          },
        ],
        tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: {} } }],
        tool_choice: { type: 'auto', disable_parallel_tool_use: true },
      },
      'gpt-x',
    );
    expect(body).toEqual({
      model: 'gpt-x',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: 'Checking.',
          tool_calls: [
            {
              id: 'toolu_1',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_1', content: 'no data' },
        { role: 'user', content: 'And Rome?' },
      ],
      tools: [
        {
          type: 'function',
          function: { name: 'get_weather', parameters: { type: 'object', properties: {} } },
        },
      ],
      tool_choice: 'auto',
      parallel_tool_calls: false,
      max_completion_tokens: 200,
    });
  });

  it('turns url and base64 image sources into image_url parts (base64 as a data URL)', () => {
    const body = translateRequest('vendor2-messages', 'vendor1-chat', imageMessages, 'gpt-x');
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          { type: 'image_url', image_url: { url: 'https://img.example/c.JPG?size=2' } },
        ],
      },
    ]);
  });
});
