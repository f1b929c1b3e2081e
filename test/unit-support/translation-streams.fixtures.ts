import type { SseEvent, StreamTranslator } from '../../src/modules/inference/translation/index.js';

/**
 * Upstream streams as each vendor's API reference documents them, all saying the same answer: "Hello",
 * then a get_weather({"city":"Paris"}) call, 10 tokens in and 20 out.
 */

const json = (event: string | undefined, data: object): SseEvent => ({
  ...(event && { event }),
  data: JSON.stringify(data),
});

export const messagesStream: SseEvent[] = [
  json('message_start', {
    type: 'message_start',
    message: {
      id: 'msg_up',
      type: 'message',
      role: 'assistant',
      model: 'claude-x',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 1 },
    },
  }),
  json('content_block_start', {
    type: 'content_block_start',
    index: 0,
    content_block: { type: 'text', text: '' },
  }),
  json('ping', { type: 'ping' }),
  json('content_block_delta', {
    type: 'content_block_delta',
    index: 0,
    delta: { type: 'text_delta', text: 'Hel' },
  }),
  json('content_block_delta', {
    type: 'content_block_delta',
    index: 0,
    delta: { type: 'text_delta', text: 'lo' },
  }),
  json('content_block_stop', { type: 'content_block_stop', index: 0 }),
  json('content_block_start', {
    type: 'content_block_start',
    index: 1,
    content_block: { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} },
  }),
  json('content_block_delta', {
    type: 'content_block_delta',
    index: 1,
    delta: { type: 'input_json_delta', partial_json: '{"city":' },
  }),
  json('content_block_delta', {
    type: 'content_block_delta',
    index: 1,
    delta: { type: 'input_json_delta', partial_json: '"Paris"}' },
  }),
  json('content_block_stop', { type: 'content_block_stop', index: 1 }),
  json('message_delta', {
    type: 'message_delta',
    delta: { stop_reason: 'tool_use', stop_sequence: null },
    usage: { output_tokens: 20 },
  }),
  json('message_stop', { type: 'message_stop' }),
];

const chunk = (delta: object, finish: string | null = null) =>
  json(undefined, {
    id: 'chatcmpl-up',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-x',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });

export const chatStream: SseEvent[] = [
  chunk({ role: 'assistant', content: '' }),
  chunk({ content: 'Hel' }),
  chunk({ content: 'lo' }),
  chunk({
    tool_calls: [
      { index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } },
    ],
  }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
  chunk({}, 'tool_calls'),
  json(undefined, {
    id: 'chatcmpl-up',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-x',
    choices: [],
    usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 },
  }),
  { data: '[DONE]' },
];

const candidate = (parts: object[], extra: object, usage: object) =>
  json(undefined, {
    candidates: [{ content: { role: 'model', parts }, index: 0, ...extra }],
    usageMetadata: usage,
    modelVersion: 'gemini-x',
  });

export const contentStream: SseEvent[] = [
  candidate([{ text: 'Hel' }], {}, { promptTokenCount: 10, candidatesTokenCount: 1, totalTokenCount: 11 }),
  candidate([{ text: 'lo' }], {}, { promptTokenCount: 10, candidatesTokenCount: 2, totalTokenCount: 12 }),
  candidate(
    [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }],
    { finishReason: 'STOP' },
    { promptTokenCount: 10, candidatesTokenCount: 20, totalTokenCount: 30 },
  ),
];

const response = (status: string, output: object[], usage: object | null) => ({
  id: 'resp_up',
  object: 'response',
  created_at: 1,
  status,
  error: null,
  incomplete_details: null,
  model: 'gpt-x',
  output,
  usage,
});
const message = {
  id: 'msg_up',
  type: 'message',
  status: 'completed',
  role: 'assistant',
  content: [{ type: 'output_text', text: 'Hello', annotations: [] }],
};
const call = {
  id: 'fc_up',
  type: 'function_call',
  status: 'completed',
  call_id: 'call_1',
  name: 'get_weather',
  arguments: '{"city":"Paris"}',
};
let sequence = 0;
const typed = (type: string, body: object) => json(type, { type, sequence_number: sequence++, ...body });

export const responsesStream: SseEvent[] = [
  typed('response.created', { response: response('in_progress', [], null) }),
  typed('response.in_progress', { response: response('in_progress', [], null) }),
  typed('response.output_item.added', {
    output_index: 0,
    item: { ...message, status: 'in_progress', content: [] },
  }),
  typed('response.content_part.added', {
    item_id: 'msg_up',
    output_index: 0,
    content_index: 0,
    part: { type: 'output_text', text: '', annotations: [] },
  }),
  typed('response.output_text.delta', {
    item_id: 'msg_up',
    output_index: 0,
    content_index: 0,
    delta: 'Hel',
    logprobs: [],
  }),
  typed('response.output_text.delta', {
    item_id: 'msg_up',
    output_index: 0,
    content_index: 0,
    delta: 'lo',
    logprobs: [],
  }),
  typed('response.output_text.done', {
    item_id: 'msg_up',
    output_index: 0,
    content_index: 0,
    text: 'Hello',
    logprobs: [],
  }),
  typed('response.content_part.done', {
    item_id: 'msg_up',
    output_index: 0,
    content_index: 0,
    part: message.content[0],
  }),
  typed('response.output_item.done', { output_index: 0, item: message }),
  typed('response.output_item.added', {
    output_index: 1,
    item: { ...call, status: 'in_progress', arguments: '' },
  }),
  typed('response.function_call_arguments.delta', { item_id: 'fc_up', output_index: 1, delta: '{"city":' }),
  typed('response.function_call_arguments.delta', { item_id: 'fc_up', output_index: 1, delta: '"Paris"}' }),
  typed('response.function_call_arguments.done', {
    item_id: 'fc_up',
    output_index: 1,
    name: 'get_weather',
    arguments: call.arguments,
  }),
  typed('response.output_item.done', { output_index: 1, item: call }),
  typed('response.completed', {
    response: response('completed', [message, call], {
      input_tokens: 10,
      output_tokens: 20,
      total_tokens: 30,
    }),
  }),
];

/** Every event the caller gets: those of each upstream event as it arrives, then the closing ones. */
export function relay(translator: StreamTranslator, events: SseEvent[]): SseEvent[] {
  return [...events.flatMap((event) => translator.push(event)), ...translator.end()];
}

export function parsed(events: SseEvent[]): Array<Record<string, unknown>> {
  return events.filter((event) => event.data !== '[DONE]').map((event) => JSON.parse(event.data));
}

/** The SSE text a server writes for these events. */
export function sseText(events: SseEvent[]): string {
  return events
    .map((event) => `${event.event ? `event: ${event.event}\n` : ''}data: ${event.data}\n\n`)
    .join('');
}
