import { csrfHeader, noteRefusal, UNREACHABLE } from './client';
import { ApiError } from './errors';

/** One Server-Sent Event of the gateway: its name and its `data:` line, parsed as JSON. */
export interface StreamEvent {
  event: string;
  data: unknown;
}

/**
 * Reads the text of an event stream in whatever pieces it arrives and calls `onEvent` for each
 * complete event (comments, the keep-alives, are skipped). The gateway's events carry one `data:`
 * line of JSON; several lines are joined as the format says.
 */
export function eventParser(onEvent: (event: StreamEvent) => void): (text: string) => void {
  let buffer = '';
  return (text) => {
    buffer += text.replaceAll('\r\n', '\n');
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (data.length === 0) continue;
      const joined = data.join('\n');
      let parsed: unknown = joined;
      try {
        parsed = JSON.parse(joined);
      } catch {
        // Not JSON: handed on as text.
      }
      onEvent({ event, data: parsed });
    }
  };
}

/**
 * Opens a stream of the API with `fetch` (so a POST, like an image pull, can stream too) and reads
 * it until it ends or `signal` aborts; a refusal before the stream opened throws an {@link ApiError}
 * as `call()` does. The session's cookie and CSRF token go with it.
 */
export async function readEventStream(
  url: string,
  init: { method?: 'GET' | 'POST'; body?: unknown; signal?: AbortSignal },
  onEvent: (event: StreamEvent) => void,
): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method ?? 'GET',
      credentials: 'same-origin',
      headers: {
        accept: 'text/event-stream',
        ...(init.body === undefined ? {} : { 'content-type': 'application/json', ...csrfHeader() }),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      ...(init.signal ? { signal: init.signal } : {}),
    });
  } catch {
    if (init.signal?.aborted) return;
    throw new ApiError(0, UNREACHABLE);
  }
  if (!response.ok || !response.body) {
    const body = await response.json().catch(() => undefined);
    noteRefusal(response.status, body);
    throw new ApiError(response.status, body);
  }
  const parse = eventParser(onEvent);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      parse(value);
    }
  } catch (error) {
    if (init.signal?.aborted) return;
    throw error;
  }
}
