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
 * vendor4's generateContent API as its public reference documents it: `POST
 * /v1beta/models/{model}:generateContent` and `:streamGenerateContent?alt=sse` with `x-goog-api-key`;
 * candidates of `parts` (text, or a `functionCall` when `tools` declare functions and the last turn
 * holds no functionResponse), `finishReason`, `usageMetadata` (in the last chunk of a stream). Errors
 * are `{error: {code, message, status}}`.
 */
export async function startFakeVendor4(options: { apiKey: string }): Promise<FakeVendor> {
  const vendor = { requests: [] as SeenRequest[], aborted: 0 };
  const fake = await startFakeServer((request, response) => {
    const error = (code: number, status: string, message: string) =>
      sendJson(response, code, { error: { code, message, status } });
    if (request.headers['x-goog-api-key'] !== options.apiKey)
      return error(401, 'UNAUTHENTICATED', 'API key not valid');
    const match = /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)(\?alt=sse)?$/.exec(
      request.path,
    );
    if (request.method !== 'POST' || !match) return error(404, 'NOT_FOUND', 'Not found');
    const model = decodeURIComponent(match[1]!);
    if (answeredFault(model, response, fake)) return;
    type Part = { text?: string; functionResponse?: unknown };
    const contents = (request.body as { contents: { role?: string; parts: Part[] }[] }).contents;
    const tools = (request.body as { tools?: { functionDeclarations?: { name: string }[] }[] }).tools ?? [];
    const functions = tools.flatMap((tool) => tool.functionDeclarations ?? []);
    const textOf = (parts: Part[]) => parts.map((part) => part.text ?? '').join(' ');
    const last = contents.at(-1)!;
    const answeredTool = last.parts.some((part) => part.functionResponse !== undefined);
    const lastUser = textOf([...contents].reverse().find((content) => content.role !== 'model')?.parts ?? []);
    const callTool = functions.length > 0 && !answeredTool;
    const text = `echo: ${lastUser || 'function response received'}`;
    const promptTokenCount = contents.reduce((sum, content) => sum + words(textOf(content.parts)), 0);
    const candidatesTokenCount = callTool ? 3 : words(text);
    const usageMetadata = {
      promptTokenCount,
      candidatesTokenCount,
      totalTokenCount: promptTokenCount + candidatesTokenCount,
    };
    const candidate = (parts: unknown[], finishReason?: string) => ({
      content: { role: 'model', parts },
      index: 0,
      ...(finishReason ? { finishReason } : {}),
    });
    const parts = callTool
      ? [{ functionCall: { name: functions[0]!.name, args: { text: lastUser } } }]
      : [{ text }];
    if (match[2] === 'generateContent')
      return sendJson(response, 200, {
        candidates: [candidate(parts, 'STOP')],
        usageMetadata,
        modelVersion: model,
      });
    if (!match[3])
      return error(400, 'INVALID_ARGUMENT', 'this fake streams server-sent events only (alt=sse)');
    const pieces = callTool ? [parts] : text.split(/(?<= )/).map((piece) => [{ text: piece }]);
    sendEvents(
      response,
      pieces.map((piece, index) => ({
        data:
          index === pieces.length - 1
            ? { candidates: [candidate(piece, 'STOP')], usageMetadata, modelVersion: model }
            : { candidates: [candidate(piece)], modelVersion: model },
      })),
      model,
    );
  }, vendor);
  return fake;
}
