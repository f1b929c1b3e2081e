import { describe, expect, it } from 'vitest';
import {
  createStreamTranslator,
  type TranslationError,
  translateRequest,
  translateResponse,
} from '../../src/modules/inference/translation/index.js';
import { chatStream, parsed, relay } from '../unit-support/translation-streams.fixtures.js';

/** vendor1-responses, the protocol of the catalog's vendor1 entries, to and from the others. */

describe('vendor1-responses requests', () => {
  it('reads instructions, input messages, images, function calls and their outputs', () => {
    const body = translateRequest(
      'vendor1-responses',
      'vendor1-chat',
      {
        model: 'public',
        instructions: 'Be brief.',
        input: [
          {
            role: 'user',
            content: [
              { type: 'input_text', text: 'What is this, and the weather?' },
              { type: 'input_image', image_url: 'https://img.example/a.png', detail: 'auto' },
            ],
          },
          { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
          { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
        ],
        tools: [
          {
            type: 'function',
            name: 'get_weather',
            parameters: { type: 'object', properties: {} },
            strict: true,
          },
        ],
        tool_choice: { type: 'function', name: 'get_weather' },
        max_output_tokens: 99,
      },
      'gpt-x',
    );
    expect(body).toEqual({
      model: 'gpt-x',
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this, and the weather?' },
            { type: 'image_url', image_url: { url: 'https://img.example/a.png' } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
      ],
      tools: [
        {
          type: 'function',
          function: { name: 'get_weather', parameters: { type: 'object', properties: {} } },
        },
      ],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      max_completion_tokens: 99,
    });
  });

  it('writes the whole conversation as input items, not stored upstream', () => {
    const body = translateRequest(
      'vendor2-messages',
      'vendor1-responses',
      {
        model: 'public',
        max_tokens: 10,
        system: 'Be brief.',
        stream: true,
        messages: [
          { role: 'user', content: 'Weather?' },
          {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 't1', name: 'get_weather', input: { city: 'Oslo' } }],
          },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'cold' }] },
        ],
      },
      'gpt-x',
    );
    expect(body).toEqual({
      model: 'gpt-x',
      instructions: 'Be brief.',
      input: [
        { role: 'user', content: [{ type: 'input_text', text: 'Weather?' }] },
        { type: 'function_call', call_id: 't1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
        { type: 'function_call_output', call_id: 't1', output: 'cold' },
      ],
      max_output_tokens: 10,
      stream: true,
      store: false,
    });
  });

  it('round-trips a chat conversation through vendor1-responses', () => {
    const chat = {
      model: 'public',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello!' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AA==' } },
          ],
        },
      ],
      temperature: 0.5,
    };
    const responses = translateRequest('vendor1-chat', 'vendor1-responses', chat, 'gpt-x');
    expect(translateRequest('vendor1-responses', 'vendor1-chat', responses, 'public')).toEqual(chat);
  });

  it('refuses a stored conversation and stop sequences, which vendor1-responses cannot carry', () => {
    const refused = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return (error as TranslationError).field;
      }
    };
    expect(
      refused(() =>
        translateRequest(
          'vendor1-responses',
          'vendor2-messages',
          { model: 'm', input: 'Hi', previous_response_id: 'resp_1' },
          'x',
        ),
      ),
    ).toBe('previous_response_id');
    expect(
      refused(() =>
        translateRequest(
          'vendor1-chat',
          'vendor1-responses',
          { model: 'm', messages: [{ role: 'user', content: 'Hi' }], stop: 'x' },
          'x',
        ),
      ),
    ).toBe('stop');
  });
});

describe('vendor1-responses answers', () => {
  it('reads output messages and function calls, and a completed response with a call as stop reason tool_calls', () => {
    const answer = translateResponse(
      'vendor1-responses',
      'vendor2-messages',
      {
        id: 'resp_1',
        object: 'response',
        status: 'completed',
        output: [
          { type: 'reasoning', id: 'rs_1', summary: [] },
          {
            type: 'message',
            id: 'msg_1',
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: 'Checking', annotations: [] }],
          },
          {
            type: 'function_call',
            id: 'fc_1',
            call_id: 'call_7',
            name: 'get_weather',
            arguments: '{"city":"Rome"}',
            status: 'completed',
          },
        ],
        usage: { input_tokens: 4, output_tokens: 6, total_tokens: 10 },
      },
      'public',
    );
    expect(answer).toMatchObject({
      content: [
        { type: 'text', text: 'Checking' },
        { type: 'tool_use', id: 'call_7', name: 'get_weather', input: { city: 'Rome' } },
      ],
      stop_reason: 'tool_use',
      usage: { input_tokens: 4, output_tokens: 6 },
    });
  });

  it('writes a length-limited answer as an incomplete response with reason max_output_tokens', () => {
    const answer = translateResponse(
      'vendor1-chat',
      'vendor1-responses',
      {
        choices: [{ index: 0, message: { role: 'assistant', content: 'Once' }, finish_reason: 'length' }],
        usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
      },
      'public',
    );
    expect(answer).toMatchObject({
      object: 'response',
      model: 'public',
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
      output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Once' }] }],
      usage: { input_tokens: 1, output_tokens: 2, total_tokens: 3 },
    });
  });

  it('streams to a responses caller the documented event sequence, ending with response.completed', () => {
    const events = relay(createStreamTranslator('vendor1-chat', 'vendor1-responses', 'public'), chatStream);
    expect(events.map((event) => event.event)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(parsed(events).map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
  });
});
