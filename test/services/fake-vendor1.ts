import type http from 'node:http';
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
 * vendor1's API as its public reference documents it: `GET /v1/models`, `POST /v1/chat/completions`
 * (a whole chat.completion or chat.completion.chunk events ending in `[DONE]`, tool calls when
 * `tools` are given and the last message is not a tool result, usage in the last chunk with
 * `stream_options.include_usage`) and `POST /v1/embeddings` (float or base64 vectors). Answers echo
 * the last user text; tokens are counted as words. Errors are `{error: {message, type, param, code}}`.
 */
export async function startFakeVendor1(options: { apiKey: string }): Promise<FakeVendor> {
  const vendor = { requests: [] as SeenRequest[], aborted: 0 };
  const fake = await startFakeServer((request, response) => {
    if (request.headers.authorization !== `Bearer ${options.apiKey}`)
      return sendJson(response, 401, {
        error: {
          message: 'Incorrect API key provided',
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      });
    if (request.method === 'GET' && request.path === '/v1/models')
      return sendJson(response, 200, {
        object: 'list',
        data: [{ id: 'gpt-test', object: 'model', created: 1700000000, owned_by: 'vendor1' }],
      });
    const body = request.body as Record<string, unknown>;
    if (request.path === '/v1/chat/completions') return chat(body, response, fake);
    if (request.path === '/v1/embeddings') return embeddings(body, response);
    sendJson(response, 404, {
      error: { message: 'Unknown path', type: 'invalid_request_error', param: null, code: null },
    });
  }, vendor);
  return fake;
}

type Message = { role: string; content?: unknown };

const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((part: { text?: string }) => part.text ?? '').join(' ')
      : '';

function chat(body: Record<string, unknown>, response: http.ServerResponse, fake: FakeVendor) {
  const model = String(body.model);
  if (answeredFault(model, response, fake)) return;
  const messages = body.messages as Message[];
  const last = messages.at(-1);
  const tools = (body.tools as { function: { name: string } }[] | undefined) ?? [];
  const lastUser = textOf([...messages].reverse().find((message) => message.role === 'user')?.content);
  const callTool = tools.length > 0 && last?.role !== 'tool';
  const text = callTool ? null : `echo: ${lastUser}`;
  const toolCall = callTool
    ? {
        id: 'call_1',
        type: 'function',
        function: { name: tools[0]!.function.name, arguments: JSON.stringify({ text: lastUser }) },
      }
    : undefined;
  const promptTokens = messages.reduce((sum, message) => sum + words(textOf(message.content)), 0);
  const completionTokens = text ? words(text) : 3;
  const usage = {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
  const finish = callTool ? 'tool_calls' : 'stop';
  const base = { id: 'chatcmpl-1', created: 1700000000, model, system_fingerprint: null };
  if (body.stream !== true)
    return sendJson(response, 200, {
      ...base,
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: text,
            refusal: null,
            ...(toolCall ? { tool_calls: [toolCall] } : {}),
          },
          logprobs: null,
          finish_reason: finish,
        },
      ],
      usage,
    });
  const chunk = (delta: unknown, finishReason: string | null) => ({
    data: {
      ...base,
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    },
  });
  const deltas = toolCall
    ? [
        chunk(
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { index: 0, ...toolCall, function: { name: toolCall.function.name, arguments: '' } },
            ],
          },
          null,
        ),
        chunk({ tool_calls: [{ index: 0, function: { arguments: toolCall.function.arguments } }] }, null),
      ]
    : [
        chunk({ role: 'assistant', content: '' }, null),
        ...text!.split(/(?<= )/).map((piece) => chunk({ content: piece }, null)),
      ];
  const includeUsage =
    (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
  sendEvents(
    response,
    [
      ...deltas,
      chunk({}, finish),
      ...(includeUsage ? [{ data: { ...base, object: 'chat.completion.chunk', choices: [], usage } }] : []),
      { data: '[DONE]' },
    ],
    model,
  );
}

function embeddings(body: Record<string, unknown>, response: http.ServerResponse): void {
  const inputs = Array.isArray(body.input) ? (body.input as string[]) : [String(body.input)];
  const vector = (text: string) => [text.length, words(text), 0.5];
  const encode = (values: number[]) => Buffer.from(new Float32Array(values).buffer).toString('base64');
  const tokens = inputs.reduce((sum, text) => sum + words(text), 0);
  sendJson(response, 200, {
    object: 'list',
    model: body.model,
    data: inputs.map((text, index) => ({
      object: 'embedding',
      index,
      embedding: body.encoding_format === 'base64' ? encode(vector(text)) : vector(text),
    })),
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  });
}
