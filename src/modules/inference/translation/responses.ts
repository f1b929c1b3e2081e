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
 * vendor1-responses: the responses API (POST /v1/responses), read into and written from the canonical
 * shape. Field names follow the API reference (the `openai` SDK's Response* types). The gateway keeps
 * no conversation state, so every request carries its whole input (`store: false` upstream).
 */

const UNTRANSLATABLE = {
  previous_response_id: 'stored conversations are not translated; send the whole input',
  conversation: 'stored conversations are not translated; send the whole input',
  background: 'background responses are not translated',
  prompt: 'stored prompts are not translated',
  reasoning: 'reasoning settings are not translated',
  top_logprobs: 'log probabilities have no equivalent in the other protocols',
  max_tool_calls: 'a tool call limit has no equivalent in the other protocols',
};

export function decodeResponsesRequest(body: Reader): CanonicalRequest {
  body.object();
  body.refuseFields(UNTRANSLATABLE);
  const format = body.at('text').at('format').at('type').optionalString();
  if (format !== undefined && format !== 'text')
    body.at('text').at('format').refuse('structured output is not translated');
  const system: string[] = [];
  const instructions = body.at('instructions').optionalString();
  if (instructions !== undefined) system.push(instructions);
  const messages: Message[] = [];
  const input = body.at('input');
  if (typeof input.value === 'string') appendMessage(messages, 'user', [{ type: 'text', text: input.value }]);
  else {
    for (const item of input.items()) {
      const type = item.at('type').optionalString() ?? 'message';
      if (type === 'message') {
        const role = item.at('role').string();
        if (role === 'system' || role === 'developer')
          system.push(joinText(inputContent(item.at('content'))));
        else if (role === 'user' || role === 'assistant')
          appendMessage(messages, role, inputContent(item.at('content')));
        else item.at('role').refuse(`role ${role} is not translated`);
      } else if (type === 'function_call') {
        const args = item.at('arguments');
        parseArguments(args.string(), args.path);
        appendMessage(messages, 'assistant', [
          {
            type: 'tool_call',
            id: item.at('call_id').string(),
            name: item.at('name').string(),
            arguments: args.string(),
          },
        ]);
      } else if (type === 'function_call_output') {
        const output = item.at('output');
        const content =
          typeof output.value === 'string'
            ? [{ type: 'text' as const, text: output.value }]
            : inputContent(output);
        appendMessage(messages, 'user', [
          { type: 'tool_result', callId: item.at('call_id').string(), content },
        ]);
      } else item.at('type').refuse(`input item ${type} is not translated`);
    }
  }
  return {
    system: system.length ? system.join('\n\n') : undefined,
    messages,
    tools: body.at('tools').present ? body.at('tools').items().map(responsesTool) : undefined,
    toolChoice: body.at('tool_choice').present ? responsesToolChoice(body.at('tool_choice')) : undefined,
    parallelToolCalls: body.at('parallel_tool_calls').present
      ? body.at('parallel_tool_calls').value === true
      : undefined,
    maxTokens: body.at('max_output_tokens').optionalNumber(),
    temperature: body.at('temperature').optionalNumber(),
    topP: body.at('top_p').optionalNumber(),
    stream: body.at('stream').value === true,
  };
}

type ContentPart = Extract<Part, { type: 'text' | 'image' }>;

function inputContent(content: Reader): ContentPart[] {
  if (typeof content.value === 'string') return [{ type: 'text', text: content.value }];
  return content.items().map((part): ContentPart => {
    const type = part.at('type').string();
    if (type === 'input_text' || type === 'output_text')
      return { type: 'text', text: part.at('text').string() };
    if (type === 'refusal') return { type: 'text', text: part.at('refusal').string() };
    if (type === 'input_image') {
      if (part.at('file_id').present) part.at('file_id').refuse('uploaded files are not translated');
      return { type: 'image', source: imageFromUrl(part.at('image_url').string()) };
    }
    return part.at('type').refuse(`content part ${type} is not translated`);
  });
}

function responsesTool(tool: Reader) {
  if (tool.at('type').string() !== 'function') tool.at('type').refuse('only function tools are translated');
  return {
    name: tool.at('name').string(),
    description: tool.at('description').optionalString(),
    parameters: tool.at('parameters').present
      ? tool.at('parameters').object()
      : { type: 'object', properties: {} },
  };
}

function responsesToolChoice(choice: Reader): ToolChoice {
  if (choice.value === 'auto' || choice.value === 'none' || choice.value === 'required')
    return { type: choice.value };
  if (choice.at('type').string() !== 'function')
    choice.at('type').refuse('only function tool choices are translated');
  return { type: 'tool', name: choice.at('name').string() };
}

function contentItem(part: ContentPart): Json {
  return part.type === 'text'
    ? { type: 'input_text', text: part.text }
    : { type: 'input_image', image_url: imageToUrl(part.source), detail: 'auto' };
}

export function encodeResponsesRequest(request: CanonicalRequest, model: string): Json {
  if (request.stop) throw new TranslationError('stop', 'vendor1-responses has no stop sequences');
  const input: Json[] = [];
  for (const message of request.messages) {
    const content: ContentPart[] = [];
    const flush = () => {
      if (!content.length) return;
      input.push(
        message.role === 'assistant'
          ? { role: 'assistant', content: joinText(content.splice(0)) }
          : { role: 'user', content: content.splice(0).map(contentItem) },
      );
    };
    for (const part of message.parts) {
      if (part.type === 'text' || part.type === 'image') {
        content.push(part);
        continue;
      }
      flush();
      if (part.type === 'tool_call') {
        input.push({ type: 'function_call', call_id: part.id, name: part.name, arguments: part.arguments });
      } else {
        const onlyText = part.content.every((item) => item.type === 'text');
        input.push({
          type: 'function_call_output',
          call_id: part.callId,
          output: onlyText ? joinText(part.content) : part.content.map(contentItem),
        });
      }
    }
    flush();
  }
  const choice = request.toolChoice;
  return {
    model,
    input,
    ...(request.system !== undefined && { instructions: request.system }),
    ...(request.tools && {
      tools: request.tools.map((tool) => ({
        type: 'function',
        name: tool.name,
        ...(tool.description !== undefined && { description: tool.description }),
        parameters: tool.parameters,
        strict: false,
      })),
    }),
    ...(choice && {
      tool_choice: choice.type === 'tool' ? { type: 'function', name: choice.name } : choice.type,
    }),
    ...(request.parallelToolCalls !== undefined && { parallel_tool_calls: request.parallelToolCalls }),
    ...(request.maxTokens !== undefined && { max_output_tokens: request.maxTokens }),
    ...(request.temperature !== undefined && { temperature: request.temperature }),
    ...(request.topP !== undefined && { top_p: request.topP }),
    ...(request.stream && { stream: true }),
    store: false,
  };
}

/** An answer's status and incomplete_details as a stop reason. */
export function responsesStopReason(response: Reader, hasToolCalls: boolean): StopReason {
  const status = response.at('status').optionalString() ?? 'completed';
  if (status === 'completed') return hasToolCalls ? 'tool_calls' : 'end';
  if (status === 'incomplete') {
    const reason = response.at('incomplete_details').at('reason').optionalString();
    if (reason === 'max_output_tokens') return 'max_tokens';
    if (reason === 'content_filter') return 'content_filter';
  }
  return response.at('status').refuse(`status ${status} is not translated`);
}

export function decodeResponsesResponse(body: Reader): CanonicalResponse {
  const content: CanonicalResponse['content'] = [];
  for (const item of body.at('output').items()) {
    const type = item.at('type').string();
    if (type === 'message') {
      for (const part of item.at('content').items()) {
        const partType = part.at('type').string();
        if (partType === 'output_text') content.push({ type: 'text', text: part.at('text').string() });
        else if (partType === 'refusal') content.push({ type: 'text', text: part.at('refusal').string() });
        else part.at('type').refuse(`content part ${partType} is not translated`);
      }
    } else if (type === 'function_call') {
      content.push({
        type: 'tool_call',
        id: item.at('call_id').string(),
        name: item.at('name').string(),
        arguments: item.at('arguments').string(),
      });
    } else if (type !== 'reasoning') item.at('type').refuse(`output item ${type} is not translated`);
  }
  const hasCalls = content.some((part) => part.type === 'tool_call');
  return {
    content,
    stopReason: responsesStopReason(body, hasCalls),
    usage: { inputTokens: 0, outputTokens: 0, ...responsesUsage(body) },
  };
}

/** The response object: the whole answer, and what a stream's response.* events carry. */
export function responseObject(init: {
  id: string;
  model: string;
  createdAt: number;
  output: Json[];
  stopReason?: StopReason;
  usage?: Usage;
}): Json {
  const incomplete =
    init.stopReason === 'max_tokens'
      ? 'max_output_tokens'
      : init.stopReason === 'content_filter'
        ? 'content_filter'
        : undefined;
  return {
    id: init.id,
    object: 'response',
    created_at: init.createdAt,
    status: init.stopReason === undefined ? 'in_progress' : incomplete ? 'incomplete' : 'completed',
    error: null,
    incomplete_details: incomplete ? { reason: incomplete } : null,
    instructions: null,
    model: init.model,
    output: init.output,
    parallel_tool_calls: true,
    temperature: null,
    tool_choice: 'auto',
    tools: [],
    top_p: null,
    usage: init.usage
      ? {
          input_tokens: init.usage.inputTokens,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: init.usage.outputTokens,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: init.usage.inputTokens + init.usage.outputTokens,
        }
      : null,
  };
}

export function messageItem(id: string, text: string, status: 'in_progress' | 'completed'): Json {
  return {
    id,
    type: 'message',
    status,
    role: 'assistant',
    content: status === 'completed' ? [{ type: 'output_text', text, annotations: [] }] : [],
  };
}

export function functionCallItem(
  id: string,
  call: { id: string; name: string; arguments: string },
  status: 'in_progress' | 'completed',
): Json {
  return { id, type: 'function_call', status, call_id: call.id, name: call.name, arguments: call.arguments };
}

export function encodeResponsesResponse(response: CanonicalResponse, model: string): Json {
  const text = joinText(response.content);
  const output = [
    ...(text ? [messageItem(newId('msg_'), text, 'completed')] : []),
    ...response.content.flatMap((part) =>
      part.type === 'tool_call' ? [functionCallItem(newId('fc_'), part, 'completed')] : [],
    ),
  ];
  return responseObject({
    id: newId('resp_'),
    model,
    createdAt: Math.floor(Date.now() / 1000),
    output,
    stopReason: response.stopReason,
    usage: response.usage,
  });
}

/** An answer's usage, or a response.completed/incomplete/failed event's (in its response). */
export function responsesUsage(body: Reader): Partial<Usage> {
  const usage = body.at('response').present ? body.at('response').at('usage') : body.at('usage');
  if (!usage.present) return {};
  return { inputTokens: usage.at('input_tokens').number(), outputTokens: usage.at('output_tokens').number() };
}
