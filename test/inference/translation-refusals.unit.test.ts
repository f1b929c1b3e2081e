import { describe, expect, it } from 'vitest';
import {
  createStreamTranslator,
  TranslationError,
  translateRequest,
  translateResponse,
} from '../../src/modules/inference/translation/index.js';

/** The refusal a translation throws, as {field, reason, side}. */
function refusal(translate: () => unknown): Pick<TranslationError, 'field' | 'reason' | 'side'> {
  try {
    translate();
  } catch (error) {
    if (error instanceof TranslationError)
      return { field: error.field, reason: error.reason, side: error.side };
    throw error;
  }
  throw new Error('the translation did not refuse');
}

const hi = [{ role: 'user', content: 'Hi' }];

describe('what a translation refuses, naming the field', () => {
  it('refuses more than one chat choice', () => {
    expect(
      refusal(() =>
        translateRequest('vendor1-chat', 'vendor2-messages', { model: 'm', messages: hi, n: 2 }, 'x'),
      ),
    ).toEqual({
      field: 'n',
      reason: 'more than one choice is not translated',
      side: 'caller',
    });
  });

  it('refuses structured output (response_format)', () => {
    const body = { model: 'm', messages: hi, response_format: { type: 'json_object' } };
    expect(refusal(() => translateRequest('vendor1-chat', 'vendor4-content', body, 'x')).field).toBe(
      'response_format',
    );
  });

  it('refuses a non-zero penalty but accepts a zero one', () => {
    expect(
      refusal(() =>
        translateRequest(
          'vendor1-chat',
          'vendor2-messages',
          { model: 'm', messages: hi, presence_penalty: 1 },
          'x',
        ),
      ).field,
    ).toBe('presence_penalty');
    expect(
      translateRequest(
        'vendor1-chat',
        'vendor2-messages',
        { model: 'm', messages: hi, frequency_penalty: 0 },
        'x',
      ),
    ).not.toHaveProperty('frequency_penalty');
  });

  it('refuses a vendor2 document block, naming its place in the conversation', () => {
    const body = {
      model: 'm',
      max_tokens: 5,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Summarise' },
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'x' } },
          ],
        },
      ],
    };
    expect(refusal(() => translateRequest('vendor2-messages', 'vendor1-chat', body, 'x'))).toMatchObject({
      field: 'messages[0].content[1].type',
      reason: 'content block document is not translated',
    });
  });

  it('refuses extended thinking and vendor2 server tools', () => {
    const base = { model: 'm', max_tokens: 5, messages: hi };
    expect(
      refusal(() =>
        translateRequest(
          'vendor2-messages',
          'vendor1-chat',
          { ...base, thinking: { type: 'enabled', budget_tokens: 1024 } },
          'x',
        ),
      ).field,
    ).toBe('thinking');
    const tools = [{ type: 'web_search_20250305', name: 'web_search' }];
    expect(
      refusal(() => translateRequest('vendor2-messages', 'vendor4-content', { ...base, tools }, 'x')).field,
    ).toBe('tools[0].type');
  });

  it('refuses vendor4 tools other than function declarations', () => {
    const body = { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }], tools: [{ googleSearch: {} }] };
    expect(refusal(() => translateRequest('vendor4-content', 'vendor1-chat', body, 'x')).field).toBe(
      'tools[0].googleSearch',
    );
  });

  it('refuses a vendor4 function response that answers no earlier call', () => {
    const body = {
      contents: [
        { role: 'user', parts: [{ functionResponse: { name: 'lookup', response: { output: 'x' } } }] },
      ],
    };
    expect(refusal(() => translateRequest('vendor4-content', 'vendor1-chat', body, 'x'))).toMatchObject({
      field: 'contents[0].parts[0].functionResponse.name',
    });
  });

  it('refuses tool call arguments that are not a JSON object', () => {
    const body = {
      model: 'm',
      messages: [
        {
          role: 'assistant',
          tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{"a":' } }],
        },
      ],
    };
    expect(refusal(() => translateRequest('vendor1-chat', 'vendor2-messages', body, 'x'))).toEqual({
      field: 'messages[0].tool_calls[0].function.arguments',
      reason: 'tool call arguments are not JSON',
      side: 'caller',
    });
  });

  it('refuses a tool result with an image toward vendor1-chat, whose tool messages are text', () => {
    const body = {
      model: 'm',
      max_tokens: 5,
      messages: [
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'shot', input: {} }] },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 't1',
              content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AA==' } }],
            },
          ],
        },
      ],
    };
    expect(refusal(() => translateRequest('vendor2-messages', 'vendor1-chat', body, 'x'))).toMatchObject({
      field: 'tool result t1',
    });
  });

  it('refuses a body not of the caller protocol shape', () => {
    expect(
      refusal(() =>
        translateRequest('vendor1-chat', 'vendor2-messages', { model: 'm', messages: 'Hi' }, 'x'),
      ),
    ).toEqual({
      field: 'messages',
      reason: 'must be an array',
      side: 'caller',
    });
    expect(
      refusal(() => translateRequest('vendor2-messages', 'vendor1-chat', { model: 'm', messages: hi }, 'x'))
        .field,
    ).toBe('max_tokens');
  });

  it('marks an upstream answer it cannot read as the upstream side', () => {
    expect(
      refusal(() => translateResponse('vendor1-chat', 'vendor2-messages', { choices: [] }, 'public')),
    ).toEqual({
      field: 'choices',
      reason: 'has no choice',
      side: 'upstream',
    });
    const translator = createStreamTranslator('vendor1-chat', 'vendor2-messages', 'public');
    expect(refusal(() => translator.push({ data: 'not json' }))).toMatchObject({
      field: 'data',
      side: 'upstream',
    });
  });
});
