import {
  type CanonicalRequest,
  type CanonicalResponse,
  type ImageSource,
  joinText,
  type Message,
  newId,
  type Part,
  type StopReason,
  type Tool,
  type ToolChoice,
  type Usage,
} from './canonical.js';
import { appendMessage, parseArguments, toolCallNames } from './conversation.js';
import { type Json, type Reader, TranslationError } from './refusal.js';

/**
 * vendor4-content: generateContent and streamGenerateContent (POST /v1beta/models/{model}:…), read into
 * and written from the canonical shape. Field names follow the API reference (the `@google/genai` SDK's
 * REST types). The model and whether to stream travel in the URL, not in the body.
 */

const UNTRANSLATABLE = {
  cachedContent: 'cached content is not translated',
};

const UNTRANSLATABLE_CONFIG = {
  topK: 'topK has no equivalent in vendor1',
  responseSchema: 'structured output is not translated',
  responseJsonSchema: 'structured output is not translated',
  responseModalities: 'output modalities are not translated',
  thinkingConfig: 'thinking settings are not translated',
  speechConfig: 'speech output is not translated',
  logprobs: 'log probabilities are not translated',
  responseLogprobs: 'log probabilities are not translated',
  presencePenalty: 'penalties are not translated',
  frequencyPenalty: 'penalties are not translated',
};

/**
 * Reads a generateContent body; `stream` comes from the URL (streamGenerateContent). A function call
 * without an id (vendor4 does not need one) gets one here, and a function response without one answers
 * the earliest unanswered call of its name.
 */
export function decodeContentRequest(body: Reader, stream: boolean): CanonicalRequest {
  body.object();
  body.refuseFields(UNTRANSLATABLE);
  const config = body.at('generationConfig');
  if (config.present) {
    config.refuseFields(UNTRANSLATABLE_CONFIG);
    if ((config.at('candidateCount').optionalNumber() ?? 1) !== 1)
      config.at('candidateCount').refuse('more than one candidate is not translated');
    const mime = config.at('responseMimeType').optionalString();
    if (mime !== undefined && mime !== 'text/plain')
      config.at('responseMimeType').refuse('structured output is not translated');
  }
  const unanswered = new Map<string, string[]>();
  const messages: Message[] = [];
  body
    .at('contents')
    .items()
    .forEach((content, turn) => {
      const role = content.at('role').optionalString() ?? 'user';
      if (role !== 'user' && role !== 'model' && role !== 'function')
        content.at('role').refuse(`role ${role} is not translated`);
      const parts = content
        .at('parts')
        .items()
        .map((part, index) => contentPart(part, `call_${turn}_${index}`, unanswered));
      appendMessage(messages, role === 'model' ? 'assistant' : 'user', parts);
    });
  const system = body.at('systemInstruction');
  return {
    system: system.present
      ? system
          .at('parts')
          .items()
          .map((part) => part.at('text').string())
          .join('')
      : undefined,
    messages,
    tools: body.at('tools').present ? body.at('tools').items().flatMap(contentTools) : undefined,
    toolChoice: contentToolChoice(body.at('toolConfig')),
    maxTokens: config.present ? config.at('maxOutputTokens').optionalNumber() : undefined,
    temperature: config.present ? config.at('temperature').optionalNumber() : undefined,
    topP: config.present ? config.at('topP').optionalNumber() : undefined,
    stop:
      config.present && config.at('stopSequences').present
        ? config
            .at('stopSequences')
            .items()
            .map((s) => s.string())
        : undefined,
    stream,
  };
}

function contentPart(part: Reader, generatedId: string, unanswered: Map<string, string[]>): Part {
  if (part.at('thought').value === true) part.at('thought').refuse('thought parts are not translated');
  if (part.at('text').present) return { type: 'text', text: part.at('text').string() };
  if (part.at('inlineData').present) {
    const data = part.at('inlineData');
    const mediaType = data.at('mimeType').string();
    if (!mediaType.startsWith('image/')) data.at('mimeType').refuse('only images are translated');
    return { type: 'image', source: { kind: 'base64', mediaType, data: data.at('data').string() } };
  }
  if (part.at('fileData').present) {
    const file = part.at('fileData');
    const mediaType = file.at('mimeType').optionalString();
    if (mediaType !== undefined && !mediaType.startsWith('image/'))
      file.at('mimeType').refuse('only images are translated');
    return { type: 'image', source: { kind: 'url', url: file.at('fileUri').string() } };
  }
  if (part.at('functionCall').present) {
    const call = part.at('functionCall');
    const name = call.at('name').string();
    const id = call.at('id').optionalString() ?? generatedId;
    unanswered.set(name, [...(unanswered.get(name) ?? []), id]);
    return {
      type: 'tool_call',
      id,
      name,
      arguments: JSON.stringify(call.at('args').present ? call.at('args').object() : {}),
    };
  }
  if (part.at('functionResponse').present) {
    const response = part.at('functionResponse');
    const name = response.at('name').string();
    const pending = unanswered.get(name) ?? [];
    const callId =
      response.at('id').optionalString() ??
      pending.shift() ??
      response.at('name').refuse(`answers no earlier function call named ${name}`);
    const result = response.at('response').object();
    const keys = Object.keys(result);
    // vendor4's convention: {output} for a result, {error} for a failure; anything else as JSON text.
    const single =
      keys.length === 1 && typeof result[keys[0]!] === 'string' ? (result[keys[0]!] as string) : undefined;
    const isError = keys[0] === 'error' && single !== undefined;
    const text = single !== undefined && (keys[0] === 'output' || isError) ? single : JSON.stringify(result);
    return {
      type: 'tool_result',
      callId,
      name,
      content: [{ type: 'text', text }],
      ...(isError && { isError }),
    };
  }
  return part.refuse(
    'part kind is not translated (text, inlineData, fileData, functionCall, functionResponse are)',
  );
}

function contentTools(tool: Reader): Tool[] {
  const kinds = Object.keys(tool.object()).filter((key) => key !== 'functionDeclarations');
  if (kinds.length) tool.at(kinds[0]!).refuse('only function declarations are translated');
  return tool
    .at('functionDeclarations')
    .items()
    .map((declaration) => ({
      name: declaration.at('name').string(),
      description: declaration.at('description').optionalString(),
      parameters: declaration.at('parametersJsonSchema').present
        ? declaration.at('parametersJsonSchema').object()
        : declaration.at('parameters').present
          ? jsonSchema(declaration.at('parameters').object())
          : { type: 'object', properties: {} },
    }));
}

/** vendor4's `parameters` is an OpenAPI schema with upper-case type names; JSON Schema's are lower-case. */
function jsonSchema(schema: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'type' && typeof value === 'string') out.type = value.toLowerCase();
    else if (key === 'nullable') continue;
    else if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [name, jsonSchema(sub as Json)]),
      );
    } else if (key === 'items' && value && typeof value === 'object') out.items = jsonSchema(value as Json);
    else if (key === 'anyOf' && Array.isArray(value)) out.anyOf = value.map((sub) => jsonSchema(sub as Json));
    else out[key] = value;
  }
  if (schema.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  return out;
}

function contentToolChoice(toolConfig: Reader): ToolChoice | undefined {
  if (!toolConfig.present) return undefined;
  const config = toolConfig.at('functionCallingConfig');
  if (!config.present) return undefined;
  const mode = config.at('mode').optionalString() ?? 'AUTO';
  const allowed = config.at('allowedFunctionNames').present
    ? config
        .at('allowedFunctionNames')
        .items()
        .map((n) => n.string())
    : [];
  if (allowed.length > 1)
    config.at('allowedFunctionNames').refuse('more than one allowed function is not translated');
  if (mode === 'AUTO' || mode === 'MODE_UNSPECIFIED') return { type: 'auto' };
  if (mode === 'NONE') return { type: 'none' };
  if (mode === 'ANY')
    return allowed[0] !== undefined ? { type: 'tool', name: allowed[0] } : { type: 'required' };
  return config.at('mode').refuse(`mode ${mode} is not translated`);
}

function imagePart(source: ImageSource): Json {
  return source.kind === 'base64'
    ? { inlineData: { mimeType: source.mediaType, data: source.data } }
    : { fileData: { fileUri: source.url, ...mimeFromUrl(source.url) } };
}

const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

function mimeFromUrl(url: string): { mimeType?: string } {
  const extension = /\.([a-z]+)(?:[?#]|$)/i.exec(url)?.[1]?.toLowerCase();
  const mimeType = extension ? IMAGE_TYPES[extension] : undefined;
  return mimeType ? { mimeType } : {};
}

function functionCallPart(
  part: Extract<Part, { type: 'tool_call' }>,
  side: 'caller' | 'upstream',
  withId: boolean,
): Json {
  const args = parseArguments(part.arguments, `tool call ${part.id}`, side);
  return { functionCall: { ...(withId && { id: part.id }), name: part.name, args } };
}

/** `names`: each earlier tool call's function name by id, for the function responses. */
function requestPart(part: Part, names: Map<string, string>): Json {
  switch (part.type) {
    case 'text':
      return { text: part.text };
    case 'image':
      return imagePart(part.source);
    // Ids are the caller's; vendor4 matches a response to its call by the function's name.
    case 'tool_call':
      return functionCallPart(part, 'caller', false);
    case 'tool_result': {
      const name = part.name ?? names.get(part.callId);
      if (name === undefined)
        throw new TranslationError(`tool result ${part.callId}`, 'answers no earlier tool call');
      if (part.content.some((item) => item.type === 'image')) {
        throw new TranslationError(
          `tool result ${part.callId}`,
          'vendor4-content function responses carry text only',
        );
      }
      const text = joinText(part.content);
      return { functionResponse: { name, response: part.isError ? { error: text } : { output: text } } };
    }
  }
}

export function encodeContentRequest(request: CanonicalRequest): Json {
  const names = toolCallNames(request.messages);
  const contents = request.messages.map((message) => ({
    role: message.role === 'assistant' ? 'model' : 'user',
    parts: message.parts.map((part) => requestPart(part, names)),
  }));
  const config = {
    ...(request.maxTokens !== undefined && { maxOutputTokens: request.maxTokens }),
    ...(request.temperature !== undefined && { temperature: request.temperature }),
    ...(request.topP !== undefined && { topP: request.topP }),
    ...(request.stop && { stopSequences: request.stop }),
  };
  const choice = request.toolChoice;
  return {
    contents,
    ...(request.system !== undefined && { systemInstruction: { parts: [{ text: request.system }] } }),
    ...(request.tools && {
      tools: [
        {
          functionDeclarations: request.tools.map((tool) => ({
            name: tool.name,
            ...(tool.description !== undefined && { description: tool.description }),
            parametersJsonSchema: tool.parameters,
          })),
        },
      ],
    }),
    ...(choice && {
      toolConfig: {
        functionCallingConfig:
          choice.type === 'tool'
            ? { mode: 'ANY', allowedFunctionNames: [choice.name] }
            : { mode: choice.type === 'required' ? 'ANY' : choice.type.toUpperCase() },
      },
    }),
    ...(Object.keys(config).length && { generationConfig: config }),
  };
}

const FINISH_REASONS: Record<string, StopReason> = {
  STOP: 'end',
  MAX_TOKENS: 'max_tokens',
  SAFETY: 'content_filter',
  RECITATION: 'content_filter',
  BLOCKLIST: 'content_filter',
  PROHIBITED_CONTENT: 'content_filter',
  SPII: 'content_filter',
  IMAGE_SAFETY: 'content_filter',
};

/** vendor4 says STOP also when the answer ends in function calls; the other protocols say so. */
export function contentStopReason(finish: Reader, hasToolCalls: boolean): StopReason {
  const reason = FINISH_REASONS[finish.string()];
  if (reason === undefined) finish.refuse(`finish reason ${finish.string()} is not translated`);
  return reason === 'end' && hasToolCalls ? 'tool_calls' : reason;
}

export const STOP_TO_FINISH: Record<StopReason, string> = {
  end: 'STOP',
  stop_sequence: 'STOP',
  tool_calls: 'STOP',
  max_tokens: 'MAX_TOKENS',
  content_filter: 'SAFETY',
};

/** The parts of one candidate's content that the translation carries (thoughts are left out). */
export function candidateParts(candidate: Reader): CanonicalResponse['content'] {
  const parts = candidate.at('content').present ? candidate.at('content').at('parts') : undefined;
  if (!parts?.present) return [];
  return parts.items().flatMap((part): CanonicalResponse['content'] => {
    if (part.at('thought').value === true) return [];
    if (part.at('text').present) return [{ type: 'text', text: part.at('text').string() }];
    if (part.at('functionCall').present) {
      const call = part.at('functionCall');
      return [
        {
          type: 'tool_call',
          id: call.at('id').optionalString() ?? newId('call_'),
          name: call.at('name').string(),
          arguments: JSON.stringify(call.at('args').present ? call.at('args').object() : {}),
        },
      ];
    }
    return part.refuse('part kind is not translated');
  });
}

export function decodeContentResponse(body: Reader): CanonicalResponse {
  const usage = { inputTokens: 0, outputTokens: 0, ...contentUsage(body) };
  const candidate = body.at('candidates').present ? body.at('candidates').items()[0] : undefined;
  // A prompt blocked before any candidate: promptFeedback.blockReason and no candidates.
  if (!candidate) return { content: [], stopReason: 'content_filter', usage };
  const content = candidateParts(candidate);
  const hasCalls = content.some((part) => part.type === 'tool_call');
  return { content, stopReason: contentStopReason(candidate.at('finishReason'), hasCalls), usage };
}

export function contentUsageBody(usage: Usage): Json {
  return {
    promptTokenCount: usage.inputTokens,
    candidatesTokenCount: usage.outputTokens,
    totalTokenCount: usage.inputTokens + usage.outputTokens,
  };
}

export function encodeContentResponse(response: CanonicalResponse, model: string): Json {
  const parts = response.content.map((part) =>
    part.type === 'text' ? { text: part.text } : functionCallPart(part, 'upstream', true),
  );
  return {
    candidates: [
      { content: { role: 'model', parts }, finishReason: STOP_TO_FINISH[response.stopReason], index: 0 },
    ],
    usageMetadata: contentUsageBody(response.usage),
    modelVersion: model,
    responseId: newId(''),
  };
}

/** usageMetadata of an answer or of a stream chunk (cumulative); thinking tokens are output tokens. */
export function contentUsage(body: Reader): Partial<Usage> {
  const usage = body.at('usageMetadata');
  if (!usage.present) return {};
  const prompt = usage.at('promptTokenCount').optionalNumber();
  const candidates = usage.at('candidatesTokenCount').optionalNumber();
  const thoughts = usage.at('thoughtsTokenCount').optionalNumber();
  return {
    ...(prompt !== undefined && { inputTokens: prompt }),
    ...((candidates !== undefined || thoughts !== undefined) && {
      outputTokens: (candidates ?? 0) + (thoughts ?? 0),
    }),
  };
}
