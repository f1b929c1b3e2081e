import { describe, expect, it } from 'vitest';
import { translateRequest } from '../../src/modules/inference/translation/index.js';

const weather = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Weather of a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

/** A vendor2 request with an image as base64 and one by URL. */
const imageMessages = {
  model: 'public',
  max_tokens: 10,
  messages: [
    {
      role: 'user',
      content: [
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
        { type: 'image', source: { type: 'url', url: 'https://img.example/c.JPG?size=2' } },
      ],
    },
  ],
};

/** A chat conversation that called a tool and got its result. */
const toolConversation = {
  model: 'public',
  messages: [
    { role: 'user', content: 'Weather in Paris and Rome?' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
    { role: 'tool', tool_call_id: 'call_2', content: 'rainy' },
  ],
  tools: [weather],
};

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

describe('requests to vendor4-content', () => {
  it('answers the body and whether to stream, with systemInstruction, model turns and generationConfig', () => {
    const translated = translateRequest(
      'vendor1-chat',
      'vendor4-content',
      {
        model: 'public',
        stream: true,
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hello' },
          { role: 'assistant', content: 'Hi!' },
          { role: 'user', content: 'Bye' },
        ],
        max_tokens: 64,
        temperature: 1,
        top_p: 0.5,
        stop: ['\n\n'],
      },
      'gemini-x',
    );
    expect(translated).toEqual({
      stream: true,
      body: {
        systemInstruction: { parts: [{ text: 'Be brief.' }] },
        contents: [
          { role: 'user', parts: [{ text: 'Hello' }] },
          { role: 'model', parts: [{ text: 'Hi!' }] },
          { role: 'user', parts: [{ text: 'Bye' }] },
        ],
        generationConfig: { maxOutputTokens: 64, temperature: 1, topP: 0.5, stopSequences: ['\n\n'] },
      },
    });
  });

  it('declares the tools with their JSON Schema and a named tool choice as mode ANY with that one name', () => {
    const { body } = translateRequest(
      'vendor1-chat',
      'vendor4-content',
      {
        model: 'public',
        messages: [{ role: 'user', content: 'Weather?' }],
        tools: [weather],
        tool_choice: { type: 'function', function: { name: 'get_weather' } },
      },
      'gemini-x',
    );
    expect(body.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'get_weather',
            description: 'Weather of a city',
            parametersJsonSchema: weather.function.parameters,
          },
        ],
      },
    ]);
    expect(body.toolConfig).toEqual({
      functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] },
    });
  });

  it('answers a tool call with a functionResponse named after the called function', () => {
    const { body } = translateRequest('vendor1-chat', 'vendor4-content', toolConversation, 'gemini-x');
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather in Paris and Rome?' }] },
      {
        role: 'model',
        parts: [
          { functionCall: { name: 'get_weather', args: { city: 'Paris' } } },
          { functionCall: { name: 'get_weather', args: { city: 'Rome' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'get_weather', response: { output: 'sunny' } } },
          { functionResponse: { name: 'get_weather', response: { output: 'rainy' } } },
        ],
      },
    ]);
  });

  it('sends a base64 image as inlineData and an image URL as fileData with the type its extension names', () => {
    const { body } = translateRequest('vendor2-messages', 'vendor4-content', imageMessages, 'gemini-x');
    expect(body.contents).toEqual([
      {
        role: 'user',
        parts: [
          { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
          { fileData: { fileUri: 'https://img.example/c.JPG?size=2', mimeType: 'image/jpeg' } },
        ],
      },
    ]);
  });
});

describe('vendor4-content requests to the other protocols', () => {
  const geminiConversation = {
    systemInstruction: { parts: [{ text: 'Be brief.' }] },
    contents: [
      { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
      { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temperature: 21 } } }] },
    ],
    tools: [
      {
        functionDeclarations: [
          { name: 'get_weather', parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } } } },
        ],
      },
    ],
    toolConfig: { functionCallingConfig: { mode: 'ANY' } },
  };

  it('takes streaming from the caller URL, gives function calls ids and pairs each response with its call by name', () => {
    const body = translateRequest('vendor4-content', 'vendor1-chat', geminiConversation, 'gpt-x', {
      stream: true,
    });
    expect(body).toMatchObject({
      stream: true,
      tool_choice: 'required',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1_0',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1_0', content: '{"temperature":21}' },
      ],
    });
  });

  it('turns an OpenAPI parameters schema (upper-case types) into JSON Schema', () => {
    const body = translateRequest('vendor4-content', 'vendor2-messages', geminiConversation, 'claude-x');
    expect(body.tools).toEqual([
      { name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } },
    ]);
  });

  it('reads a functionResponse of {error} as a failed tool result', () => {
    const body = translateRequest(
      'vendor4-content',
      'vendor2-messages',
      {
        contents: [
          { role: 'user', parts: [{ text: 'Go' }] },
          { role: 'model', parts: [{ functionCall: { id: 'fc-9', name: 'lookup', args: {} } }] },
          {
            role: 'user',
            parts: [{ functionResponse: { id: 'fc-9', name: 'lookup', response: { error: 'timeout' } } }],
          },
        ],
      },
      'claude-x',
    );
    expect(body.messages).toContainEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'fc-9', content: 'timeout', is_error: true }],
    });
  });
});

describe('round trips', () => {
  it('chat → messages → chat gives back the tool conversation', () => {
    const messages = translateRequest(
      'vendor1-chat',
      'vendor2-messages',
      { ...toolConversation, max_tokens: 300 },
      'claude-x',
    );
    const back = translateRequest('vendor2-messages', 'vendor1-chat', messages, 'public');
    expect(back).toEqual({
      model: 'public',
      messages: toolConversation.messages,
      tools: toolConversation.tools,
      max_completion_tokens: 300,
    });
  });

  it('chat → vendor4 → chat gives back the tool conversation, ids aside', () => {
    const { body } = translateRequest(
      'vendor1-chat',
      'vendor4-content',
      { ...toolConversation, max_tokens: 300 },
      'gemini-x',
    );
    const back = translateRequest('vendor4-content', 'vendor1-chat', body, 'public');
    const [user, assistant, ...results] = toolConversation.messages;
    expect(back).toEqual({
      model: 'public',
      messages: [
        user,
        {
          ...assistant,
          tool_calls: assistant!.tool_calls!.map((call, i) => ({ ...call, id: `call_1_${i}` })),
        },
        ...results.map((result, i) => ({ ...result, tool_call_id: `call_1_${i}` })),
      ],
      tools: toolConversation.tools,
      max_completion_tokens: 300,
    });
  });

  it('messages → vendor4 → messages gives back images, text and the system prompt', () => {
    const original = {
      model: 'claude-x',
      max_tokens: 20,
      system: 'Describe.',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image', source: { type: 'base64', media_type: 'image/gif', data: 'R0lGOD' } },
          ],
        },
      ],
    };
    const { body } = translateRequest('vendor2-messages', 'vendor4-content', original, 'gemini-x');
    expect(translateRequest('vendor4-content', 'vendor2-messages', body, 'claude-x')).toEqual(original);
  });
});
