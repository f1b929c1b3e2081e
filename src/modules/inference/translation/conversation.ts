import type { Message, Part } from './canonical.js';
import { type Json, TranslationError } from './refusal.js';

/**
 * Rules of a conversation that hold in every protocol: adjacent turns of one role are one turn (the
 * vendor2 and vendor4 protocols want tool results in one user turn, vendor1 gives one message each),
 * and a tool call's arguments are a JSON object.
 */

export function appendMessage(messages: Message[], role: Message['role'], parts: Part[]): void {
  // A turn with nothing in it (an assistant message with null content and no calls) is no turn:
  // vendor2 and vendor4 refuse an empty one.
  if (!parts.length) return;
  const last = messages.at(-1);
  if (last?.role === role) last.parts.push(...parts);
  else messages.push({ role, parts });
}

/** The arguments object of a tool call; `field` names where the JSON text came from. */
export function parseArguments(text: string, field: string, side: 'caller' | 'upstream' = 'caller'): Json {
  let value: unknown;
  try {
    value = JSON.parse(text || '{}');
  } catch {
    throw new TranslationError(field, 'tool call arguments are not JSON', side);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TranslationError(field, 'tool call arguments must be a JSON object', side);
  }
  return value as Json;
}

/** The function name of each earlier tool call, by its id (a vendor4 tool result names the function). */
export function toolCallNames(messages: Message[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const message of messages) {
    for (const part of message.parts) if (part.type === 'tool_call') names.set(part.id, part.name);
  }
  return names;
}
