import {
  answeredFault,
  type FakeVendor,
  type SeenRequest,
  sendEvents,
  sendJson,
  startFakeServer,
  words,
} from './fake-vendor-server.js';

/**
 * vendor2's Messages API as its public reference documents it: `POST /v1/messages` with `x-api-key` (or a bearer key)
 * and `anthropic-version`, a whole message or the event sequence (message_start, content_block_start,
 * ping, content_block_delta with text_delta or input_json_delta, content_block_stop, message_delta,
 * message_stop), a `tool_use` block when `tools` are given and the last turn holds no tool_result.
 * Errors are `{type: "error", error: {type, message}}`.
 */
export async function startFakeVendor2(options: { apiKey: string }): Promise<FakeVendor> {
  const vendor = { requests: [] as SeenRequest[], aborted: 0 };
  const fake = await startFakeServer((request, response) => {
    const error = (status: number, type: string, message: string) =>
      sendJson(response, status, { type: 'error', error: { type, message } });
    // The reference's x-api-key, or the bearer form the newer SDKs send.
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if ((request.headers['x-api-key'] ?? bearer) !== options.apiKey)
      return error(401, 'authentication_error', 'invalid x-api-key');
    if (!request.headers['anthropic-version'])
      return error(400, 'invalid_request_error', 'anthropic-version header is required');
    if (request.method !== 'POST' || request.path !== '/v1/messages')
      return error(404, 'not_found_error', 'Not found');
    const body = request.body as Record<string, unknown>;
    const model = String(body.model);
    if (answeredFault(model, response, fake)) return;
    type Block = { type: string; text?: string };
    const messages = body.messages as { role: string; content: string | Block[] }[];
    const textOf = (content: string | Block[]) =>
      typeof content === 'string' ? content : content.map((block) => block.text ?? '').join(' ');
    const last = messages.at(-1)!;
    const toolResultLast =
      Array.isArray(last.content) && last.content.some((block) => block.type === 'tool_result');
    const tools = (body.tools as { name: string }[] | undefined) ?? [];
    const lastUser = textOf(
      [...messages].reverse().find((message) => message.role === 'user' && !toolResultLast)?.content ?? '',
    );
    const callTool = tools.length > 0 && !toolResultLast;
    const text = `echo: ${lastUser || 'tool result received'}`;
    const block = callTool
      ? { type: 'tool_use', id: 'toolu_1', name: tools[0]!.name, input: { text: lastUser } }
      : { type: 'text', text };
    const inputTokens = messages.reduce((sum, message) => sum + words(textOf(message.content)), 0);
    const outputTokens = callTool ? 3 : words(text);
    const stopReason = callTool ? 'tool_use' : 'end_turn';
    const message = { id: 'msg_1', type: 'message', role: 'assistant', model };
    if (body.stream !== true)
      return sendJson(response, 200, {
        ...message,
        content: [block],
        stop_reason: stopReason,
        stop_sequence: null,
        usage: { input_tokens: inputTokens, output_tokens: outputTokens },
      });
    const deltas = callTool
      ? [{ type: 'input_json_delta', partial_json: JSON.stringify({ text: lastUser }) }]
      : text.split(/(?<= )/).map((piece) => ({ type: 'text_delta', text: piece }));
    sendEvents(
      response,
      [
        {
          event: 'message_start',
          data: {
            type: 'message_start',
            message: {
              ...message,
              content: [],
              stop_reason: null,
              stop_sequence: null,
              usage: { input_tokens: inputTokens, output_tokens: 1 },
            },
          },
        },
        {
          event: 'content_block_start',
          data: {
            type: 'content_block_start',
            index: 0,
            content_block: callTool ? { ...block, input: {} } : { type: 'text', text: '' },
          },
        },
        { event: 'ping', data: { type: 'ping' } },
        ...deltas.map((delta) => ({
          event: 'content_block_delta',
          data: { type: 'content_block_delta', index: 0, delta },
        })),
        { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
        {
          event: 'message_delta',
          data: {
            type: 'message_delta',
            delta: { stop_reason: stopReason, stop_sequence: null },
            usage: { output_tokens: outputTokens },
          },
        },
        { event: 'message_stop', data: { type: 'message_stop' } },
      ],
      model,
    );
  }, vendor);
  return fake;
}
