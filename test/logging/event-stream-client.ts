export interface StreamEvent {
  event: string;
  id: string | undefined;
  // biome-ignore lint/suspicious/noExplicitAny: tests read event payloads freely
  data: any;
}

/** A Server-Sent Events client over fetch: the answer's status, then events one at a time. */
export interface EventStreamClient {
  status: number;
  /** The next event; rejects when the stream ends first. */
  next(): Promise<StreamEvent>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

export async function openEventStreamClient(url: string, token: string): Promise<EventStreamClient> {
  const abort = new AbortController();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: abort.signal });
  const events: StreamEvent[] = [];
  const waiting: { resolve: (event: StreamEvent) => void; reject: (error: Error) => void }[] = [];
  let finished = false;
  const deliver = () => {
    while (events.length > 0 && waiting.length > 0) waiting.shift()!.resolve(events.shift()!);
    if (finished) for (const waiter of waiting.splice(0)) waiter.reject(new Error('the stream ended'));
  };
  const ended = (async () => {
    if (!response.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const fields = new Map<string, string>();
          for (const line of frame.split('\n')) {
            if (line.startsWith(':')) continue;
            const colon = line.indexOf(':');
            fields.set(line.slice(0, colon), line.slice(colon + 1).trimStart());
          }
          if (!fields.has('data')) continue;
          events.push({
            event: fields.get('event') ?? 'message',
            id: fields.get('id'),
            data: JSON.parse(fields.get('data')!),
          });
          deliver();
        }
      }
    } catch {
      // Aborted by close().
    }
    finished = true;
    deliver();
  })();
  return {
    status: response.status,
    next: () =>
      new Promise((resolve, reject) => {
        waiting.push({ resolve, reject });
        deliver();
      }),
    ended,
    close: () => abort.abort(),
  };
}
