import {
  type CanonicalRequest,
  type CanonicalResponse,
  type ImageSource,
  joinText,
  type Message,
  newId,
  type Part,
  type StopReason,
  type ToolChoice,
  type Usage,
} from './canonical.js';
import { appendMessage, parseArguments } from './conversation.js';
import type { Json, Reader } from './refusal.js';

/**
 * vendor2-messages: the messages API (POST /v1/messages), read into and written from the canonical
 * shape. Field names follow the API reference (the `@anthropic-ai/sdk` Message* types).
 */

/** vendor2 requires max_tokens; a caller of another protocol may leave it out. */
export const DEFAULT_MAX_TOKENS = 4096;

const UNTRANSLATABLE = {
  top_k: 'top_k has no equivalent in vendor1',
  thinking: 'extended thinking is not translated',
  container: 'containers are not translated',
  mcp_servers: 'MCP servers are not translated',
  context_management: 'context management is not translated',
  output_config: 'output configuration is not translated',
};

export function decodeMessagesRequest(body: Reader): CanonicalRequest {
  body.object();
  body.refuseFields(UNTRANSLATABLE);
  const messages: Message[] = [];
  for (const message of body.at('messages').items()) {
    const role = message.at('role').string();
    if (role !== 'user' && role !== 'assistant')
      return message.at('role').refuse(`role ${role} is not translated`);
    appendMessage(messages, role, blocks(message.at('content')));
  }
  const system = body.at('system');
  return {
    system: !system.present
      ? undefined
      : typeof system.value === 'string'
        ? system.value
        : textBlocks(system),
    messages,
    tools: body.at('tools').present ? body.at('tools').items().map(messagesTool) : undefined,
    ...toolChoice(body.at('tool_choice')),
    maxTokens: body.at('max_tokens').number(),
    temperature: body.at('temperature').optionalNumber(),
    topP: body.at('top_p').optionalNumber(),
    stop: body.at('stop_sequences').present
      ? body
          .at('stop_sequences')
          .items()
          .map((s) => s.string())
      : undefined,
    stream: body.at('stream').value === true,
  };
}

function textBlocks(content: Reader): string {
  return content
    .items()
    .map((block) => {
      if (block.at('type').string() !== 'text') block.at('type').refuse('only text blocks are allowed here');
      return block.at('text').string();
    })
    .join('');
}

function image(source: Reader): ImageSource {
  const type = source.at('type').string();
  if (type === 'base64')
    return { kind: 'base64', mediaType: source.at('media_type').string(), data: source.at('data').string() };
  if (type === 'url') return { kind: 'url', url: source.at('url').string() };
  return source.at('type').refuse(`image source ${type} is not translated`);
}

function blocks(content: Reader): Part[] {
  if (typeof content.value === 'string') return [{ type: 'text', text: content.value }];
  return content.items().map((block): Part => {
    const type = block.at('type').string();
    if (type === 'text') return { type: 'text', text: block.at('text').string() };
    if (type === 'image') return { type: 'image', source: image(block.at('source')) };
    if (type === 'tool_use') {
      return {
        type: 'tool_call',
        id: block.at('id').string(),
        name: block.at('name').string(),
        arguments: JSON.stringify(block.at('input').object()),
      };
    }
    if (type === 'tool_result') {
      const result = block.at('content');
      return {
        type: 'tool_result',
        callId: block.at('tool_use_id').string(),
        content: !result.present
          ? []
          : typeof result.value === 'string'
            ? [{ type: 'text', text: result.value }]
            : result.items().map((item) => {
                const itemType = item.at('type').string();
                if (itemType === 'text') return { type: 'text', text: item.at('text').string() };
                if (itemType === 'image') return { type: 'image', source: image(item.at('source')) };
                return item.at('type').refuse(`tool result content ${itemType} is not translated`);
              }),
        isError: block.at('is_error').value === true || undefined,
      };
    }
    return block.at('type').refuse(`content block ${type} is not translated`);
  });
}

function messagesTool(tool: Reader) {
  const type = tool.at('type').optionalString();
  if (type !== undefined && type !== 'custom')
    tool.at('type').refuse(`server tool ${type} is not translated`);
  return {
    name: tool.at('name').string(),
    description: tool.at('description').optionalString(),
    parameters: tool.at('input_schema').object(),
  };
}

function toolChoice(choice: Reader): { toolChoice?: ToolChoice; parallelToolCalls?: boolean } {
  if (!choice.present) return {};
  const type = choice.at('type').string();
  const parallel = choice.at('disable_parallel_tool_use').value === true ? { parallelToolCalls: false } : {};
  if (type === 'auto' || type === 'none') return { toolChoice: { type }, ...parallel };
  if (type === 'any') return { toolChoice: { type: 'required' }, ...parallel };
  if (type === 'tool') return { toolChoice: { type: 'tool', name: choice.at('name').string() }, ...parallel };
  return choice.at('type').refuse(`tool choice ${type} is not known`);
}

function imageBlock(source: ImageSource): Json {
  return {
    type: 'image',
    source:
      source.kind === 'url'
        ? { type: 'url', url: source.url }
        : { type: 'base64', media_type: source.mediaType, data: source.data },
  };
}

/** `side`: whose JSON a tool call's arguments are (a request's are the caller's, an answer's the upstream's). */
function contentBlock(part: Part, side: 'caller' | 'upstream' = 'caller'): Json {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      return imageBlock(part.source);
    case 'tool_call':
      return {
        type: 'tool_use',
        id: part.id,
        name: part.name,
        input: parseArguments(part.arguments, `tool call ${part.id}`, side),
      };
    case 'tool_result': {
      const onlyText = part.content.every((item) => item.type === 'text');
      return {
        type: 'tool_result',
        tool_use_id: part.callId,
        content: onlyText ? joinText(part.content) : part.content.map((item) => contentBlock(item)),
        ...(part.isError && { is_error: true }),
      };
    }
  }
}

export function encodeMessagesRequest(request: CanonicalRequest, model: string): Json {
  const choice = request.toolChoice;
  const disableParallel = request.parallelToolCalls === false ? { disable_parallel_tool_use: true } : {};
  return {
    model,
    max_tokens: request.maxTokens ?? DEFAULT_MAX_TOKENS,
    ...(request.system !== undefined && { system: request.system }),
    messages: request.messages.map((message) => ({
      role: message.role,
      content: message.parts.map((part) => contentBlock(part)),
    })),
    ...(request.tools && {
      tools: request.tools.map((tool) => ({
        name: tool.name,
        ...(tool.description !== undefined && { description: tool.description }),
        input_schema: tool.parameters,
      })),
    }),
    ...((choice || request.parallelToolCalls === false) && {
      tool_choice: {
        ...(!choice || choice.type === 'auto'
          ? { type: 'auto' }
          : choice.type === 'required'
            ? { type: 'any' }
            : choice.type === 'none'
              ? { type: 'none' }
              : { type: 'tool', name: choice.name }),
        ...(choice?.type !== 'none' && disableParallel),
      },
    }),
    ...(request.temperature !== undefined && { temperature: request.temperature }),
    ...(request.topP !== undefined && { top_p: request.topP }),
    ...(request.stop && { stop_sequences: request.stop }),
    ...(request.stream && { stream: true }),
  };
}

const STOP_REASONS: Record<string, StopReason> = {
  end_turn: 'end',
  pause_turn: 'end',
  max_tokens: 'max_tokens',
  model_context_window_exceeded: 'max_tokens',
  stop_sequence: 'stop_sequence',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
};

export function messagesStopReason(reason: Reader): StopReason {
  return STOP_REASONS[reason.string()] ?? reason.refuse(`stop reason ${reason.string()} is not known`);
}

export const STOP_TO_MESSAGES: Record<StopReason, string> = {
  end: 'end_turn',
  max_tokens: 'max_tokens',
  stop_sequence: 'stop_sequence',
  tool_calls: 'tool_use',
  content_filter: 'refusal',
};

export function decodeMessagesResponse(body: Reader): CanonicalResponse {
  const content: CanonicalResponse['content'] = [];
  for (const block of body.at('content').items()) {
    const type = block.at('type').string();
    if (type === 'text') content.push({ type: 'text', text: block.at('text').string() });
    else if (type === 'tool_use') {
      content.push({
        type: 'tool_call',
        id: block.at('id').string(),
        name: block.at('name').string(),
        arguments: JSON.stringify(block.at('input').object()),
      });
    }
    // Thinking blocks are the model's reasoning, which the other protocols' answers do not carry.
    else if (type !== 'thinking' && type !== 'redacted_thinking')
      block.at('type').refuse(`content block ${type} is not translated`);
  }
  return {
    content,
    stopReason: messagesStopReason(body.at('stop_reason')),
    stopSequence: body.at('stop_sequence').optionalString(),
    usage: { inputTokens: 0, outputTokens: 0, ...messagesUsage(body.at('usage')) },
  };
}

export function encodeMessagesResponse(response: CanonicalResponse, model: string): Json {
  return {
    id: newId('msg_'),
    type: 'message',
    role: 'assistant',
    model,
    content: response.content.map((part) => contentBlock(part, 'upstream')),
    stop_reason: STOP_TO_MESSAGES[response.stopReason],
    stop_sequence: response.stopSequence ?? null,
    usage: { input_tokens: response.usage.inputTokens, output_tokens: response.usage.outputTokens },
  };
}

/** A `usage` object (an answer's, message_start's message's or message_delta's); cache reads count as input. */
export function messagesUsage(usage: Reader): Partial<Usage> {
  if (!usage.present) return {};
  const input = ['input_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'].map((field) =>
    usage.at(field).optionalNumber(),
  );
  const output = usage.at('output_tokens').optionalNumber();
  return {
    ...(input[0] !== undefined && { inputTokens: input.reduce<number>((sum, n) => sum + (n ?? 0), 0) }),
    ...(output !== undefined && { outputTokens: output }),
  };
}
