import { describe, expect, it } from 'vitest';
import { translateRequest } from '../../src/modules/inference/translation/index.js';
import { imageMessages, toolConversation, weather } from '../unit-support/translation-requests.fixtures.js';

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
