/** One Server-Sent Event: its name (`message` when the stream gave none) and its JSON data. */
export interface StreamEvent {
  event: string;
  data: unknown;
}

/** One event block (the lines between blank lines); comments and unnamed fields are ignored. */
function parseBlock(block: string): StreamEvent | undefined {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon === 0) continue;
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length === 0) return undefined;
  const text = data.join('\n');
  try {
    return { event, data: JSON.parse(text) };
  } catch {
    return { event, data: text };
  }
}

/** The events of a `text/event-stream` body, each as soon as its block is complete. */
export async function* readEvents(body: AsyncIterable<Buffer | string>): AsyncGenerator<StreamEvent> {
  const decoder = new TextDecoder();
  let pending = '';
  for await (const chunk of body) {
    pending += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    for (let end = pending.search(/\r?\n\r?\n/); end >= 0; end = pending.search(/\r?\n\r?\n/)) {
      const block = pending.slice(0, end);
      pending = pending.slice(end).replace(/^\r?\n\r?\n/, '');
      const event = parseBlock(block);
      if (event) yield event;
    }
  }
  const last = parseBlock(pending);
  if (last) yield last;
}
