import {
  type CanonicalRequest,
  type CanonicalResponse,
  imageFromUrl,
  imageToUrl,
  joinText,
  type Message,
  newId,
  type Part,
  type StopReason,
  type ToolChoice,
  type Usage,
} from './canonical.js';
import { appendMessage, parseArguments } from './conversation.js';
import { type Json, type Reader, TranslationError } from './refusal.js';

/**
 * vendor1-chat: the chat completions API (POST /v1/chat/completions), read into and written from the
 * canonical shape. Field names follow the API reference (the `openai` SDK's ChatCompletion* types).
 */

const UNTRANSLATABLE = {
  logprobs: 'log probabilities have no equivalent in the other protocols',
  top_logprobs: 'log probabilities have no equivalent in the other protocols',
  response_format: 'structured output is not translated',
  audio: 'audio output is not translated',
  modalities: 'output modalities are not translated',
  functions: 'the deprecated functions field is not translated; use tools',
  function_call: 'the deprecated function_call field is not translated; use tool_choice',
  prediction: 'predicted outputs have no equivalent in the other protocols',
  web_search_options: 'built-in web search is not translated',
  reasoning_effort: 'reasoning settings are not translated',
  logit_bias: 'logit bias has no equivalent in the other protocols',
};

export function decodeChatRequest(body: Reader): CanonicalRequest {
  body.object();
  body.refuseFields(UNTRANSLATABLE);
  for (const penalty of ['presence_penalty', 'frequency_penalty']) {
    if ((body.at(penalty).optionalNumber() ?? 0) !== 0)
      body.at(penalty).refuse('penalties are not translated');
  }
  if ((body.at('n').optionalNumber() ?? 1) !== 1)
    body.at('n').refuse('more than one choice is not translated');
  const system: string[] = [];
  const messages: Message[] = [];
  for (const message of body.at('messages').items()) {
    const role = message.at('role').string();
    if (role === 'system' || role === 'developer') system.push(chatText(message.at('content')));
    else if (role === 'user') appendMessage(messages, 'user', userParts(message.at('content')));
    else if (role === 'assistant') appendMessage(messages, 'assistant', assistantParts(message));
    else if (role === 'tool') {
      const content = message.at('content');
      appendMessage(messages, 'user', [
        {
          type: 'tool_result',
          callId: message.at('tool_call_id').string(),
          content: [{ type: 'text', text: chatText(content) }],
        },
      ]);
    } else message.at('role').refuse(`role ${role} is not translated`);
  }
  const stop = body.at('stop');
  return {
    system: system.length ? system.join('\n\n') : undefined,
    messages,
    tools: body.at('tools').present ? body.at('tools').items().map(chatTool) : undefined,
    toolChoice: body.at('tool_choice').present ? chatToolChoice(body.at('tool_choice')) : undefined,
    parallelToolCalls: body.at('parallel_tool_calls').present
      ? body.at('parallel_tool_calls').value === true
      : undefined,
    maxTokens: body.at('max_completion_tokens').optionalNumber() ?? body.at('max_tokens').optionalNumber(),
    temperature: body.at('temperature').optionalNumber(),
    topP: body.at('top_p').optionalNumber(),
    stop: !stop.present
      ? undefined
      : typeof stop.value === 'string'
        ? [stop.value]
        : stop.items().map((s) => s.string()),
    stream: body.at('stream').value === true,
  };
}

/** A message's content: a string or an array of text parts (system, developer and tool messages). */
function chatText(content: Reader): string {
  if (typeof content.value === 'string') return content.value;
  return content
    .items()
    .map((part) => {
      if (part.at('type').string() !== 'text') part.at('type').refuse('only text parts are allowed here');
      return part.at('text').string();
    })
    .join('');
}

function userParts(content: Reader): Part[] {
  if (typeof content.value === 'string') return [{ type: 'text', text: content.value }];
  return content.items().map((part): Part => {
    const type = part.at('type').string();
    if (type === 'text') return { type: 'text', text: part.at('text').string() };
    if (type === 'image_url')
      return { type: 'image', source: imageFromUrl(part.at('image_url').at('url').string()) };
    return part.at('type').refuse(`content part ${type} is not translated`);
  });
}

function assistantParts(message: Reader): Part[] {
  const content = message.at('content');
  const parts: Part[] = [];
  if (typeof content.value === 'string') {
    if (content.value) parts.push({ type: 'text', text: content.value });
  } else if (content.present) {
    for (const part of content.items()) {
      const type = part.at('type').string();
      if (type === 'text') parts.push({ type: 'text', text: part.at('text').string() });
      else if (type === 'refusal') parts.push({ type: 'text', text: part.at('refusal').string() });
      else part.at('type').refuse(`content part ${type} is not translated`);
    }
  }
  if (message.at('tool_calls').present) {
    for (const call of message.at('tool_calls').items()) {
      if (call.at('type').string() !== 'function')
        call.at('type').refuse('only function tool calls are translated');
      const fn = call.at('function');
      const args = fn.at('arguments');
      parseArguments(args.string(), args.path);
      parts.push({
        type: 'tool_call',
        id: call.at('id').string(),
        name: fn.at('name').string(),
        arguments: args.string(),
      });
    }
  }
  return parts;
}

function chatTool(tool: Reader) {
  if (tool.at('type').string() !== 'function') tool.at('type').refuse('only function tools are translated');
  const fn = tool.at('function');
  return {
    name: fn.at('name').string(),
    description: fn.at('description').optionalString(),
    parameters: fn.at('parameters').present
      ? fn.at('parameters').object()
      : { type: 'object', properties: {} },
  };
}

function chatToolChoice(choice: Reader): ToolChoice {
  if (choice.value === 'auto' || choice.value === 'none' || choice.value === 'required')
    return { type: choice.value };
  if (choice.at('type').string() !== 'function')
    choice.at('type').refuse('only function tool choices are translated');
  return { type: 'tool', name: choice.at('function').at('name').string() };
}

export function encodeChatRequest(request: CanonicalRequest, model: string): Json {
  const messages: Json[] = [];
  if (request.system !== undefined) messages.push({ role: 'system', content: request.system });
  for (const message of request.messages) {
    if (message.role === 'assistant') {
      const text = joinText(message.parts);
      const calls = message.parts.flatMap((part) =>
        part.type === 'tool_call'
          ? [{ id: part.id, type: 'function', function: { name: part.name, arguments: part.arguments } }]
          : [],
      );
      messages.push({
        role: 'assistant',
        content: text || null,
        ...(calls.length ? { tool_calls: calls } : {}),
      });
      continue;
    }
    const rest: Json[] = [];
    for (const part of message.parts) {
      if (part.type === 'tool_result') {
        if (part.content.some((item) => item.type === 'image')) {
          throw new TranslationError(
            `tool result ${part.callId}`,
            'vendor1-chat tool results carry text only',
          );
        }
        messages.push({ role: 'tool', tool_call_id: part.callId, content: joinText(part.content) });
      } else if (part.type === 'text') rest.push({ type: 'text', text: part.text });
      else if (part.type === 'image')
        rest.push({ type: 'image_url', image_url: { url: imageToUrl(part.source) } });
    }
    if (rest.length) {
      const onlyText = rest.length === 1 && rest[0]!.type === 'text';
      messages.push({ role: 'user', content: onlyText ? rest[0]!.text : rest });
    }
  }
  const choice = request.toolChoice;
  return {
    model,
    messages,
    ...(request.tools && {
      tools: request.tools.map((tool) => ({
        type: 'function',
        function: { name: tool.name, description: tool.description, parameters: tool.parameters },
      })),
    }),
    ...(choice && {
      tool_choice:
        choice.type === 'tool' ? { type: 'function', function: { name: choice.name } } : choice.type,
    }),
    ...(request.parallelToolCalls !== undefined && { parallel_tool_calls: request.parallelToolCalls }),
    ...(request.maxTokens !== undefined && { max_completion_tokens: request.maxTokens }),
    ...(request.temperature !== undefined && { temperature: request.temperature }),
    ...(request.topP !== undefined && { top_p: request.topP }),
    ...(request.stop && { stop: request.stop }),
    // The usage of a streamed answer comes only when asked for; the plane records it.
    ...(request.stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  };
}

const FINISH_TO_STOP: Record<string, StopReason> = {
  stop: 'end',
  length: 'max_tokens',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  content_filter: 'content_filter',
};

export function chatStopReason(finish: Reader): StopReason {
  const reason = FINISH_TO_STOP[finish.string()];
  return reason ?? finish.refuse(`finish reason ${finish.string()} is not known`);
}

export const STOP_TO_FINISH: Record<StopReason, string> = {
  end: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  tool_calls: 'tool_calls',
  content_filter: 'content_filter',
};

export function decodeChatResponse(body: Reader): CanonicalResponse {
  const choice = body.at('choices').items()[0] ?? body.at('choices').refuse('has no choice');
  const message = choice.at('message');
  const content: CanonicalResponse['content'] = [];
  const text = message.at('content').optionalString();
  if (text) content.push({ type: 'text', text });
  const refusal = message.at('refusal').optionalString();
  if (refusal) content.push({ type: 'text', text: refusal });
  if (message.at('tool_calls').present) {
    for (const call of message.at('tool_calls').items()) {
      const fn = call.at('function');
      content.push({
        type: 'tool_call',
        id: call.at('id').string(),
        name: fn.at('name').string(),
        arguments: fn.at('arguments').string(),
      });
    }
  }
  return {
    content,
    stopReason: refusal ? 'content_filter' : chatStopReason(choice.at('finish_reason')),
    usage: { inputTokens: 0, outputTokens: 0, ...chatUsage(body) },
  };
}

export function encodeChatResponse(response: CanonicalResponse, model: string): Json {
  const text = joinText(response.content);
  const calls = response.content.flatMap((part) =>
    part.type === 'tool_call'
      ? [{ id: part.id, type: 'function', function: { name: part.name, arguments: part.arguments } }]
      : [],
  );
  return {
    id: newId('chatcmpl-'),
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: text || null,
          refusal: null,
          ...(calls.length ? { tool_calls: calls } : {}),
        },
        logprobs: null,
        finish_reason: STOP_TO_FINISH[response.stopReason],
      },
    ],
    usage: chatUsageBody(response.usage),
  };
}

export function chatUsageBody(usage: Usage): Json {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}

/** A full answer's or the final chunk's `usage`. */
export function chatUsage(body: Reader): Partial<Usage> {
  const usage = body.at('usage');
  if (!usage.present) return {};
  return {
    inputTokens: usage.at('prompt_tokens').number(),
    outputTokens: usage.at('completion_tokens').number(),
  };
}
