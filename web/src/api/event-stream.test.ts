import { describe, expect, it } from 'vitest';
import { eventParser, type StreamEvent } from './event-stream';

function parseAll(...pieces: string[]): StreamEvent[] {
  const events: StreamEvent[] = [];
  const parse = eventParser((event) => events.push(event));
  for (const piece of pieces) parse(piece);
  return events;
}

describe('reading an event stream', () => {
  it('gives each event its name and JSON data', () => {
    expect(parseAll('event: log\ndata: {"line":"hi"}\n\nevent: end\ndata: {}\n\n')).toEqual([
      { event: 'log', data: { line: 'hi' } },
      { event: 'end', data: {} },
    ]);
  });

  it('waits for the rest of an event split across pieces', () => {
    expect(parseAll('event: lo', 'g\ndata: {"li', 'ne":"a"}\n', '\n')).toEqual([
      { event: 'log', data: { line: 'a' } },
    ]);
  });

  it('skips comments and events without data', () => {
    expect(parseAll(': keep-alive\n\n: opened\n\nevent: x\n\n')).toEqual([]);
  });

  it('reads CRLF line ends and names an unnamed event message', () => {
    expect(parseAll('data: plain text\r\n\r\n')).toEqual([{ event: 'message', data: 'plain text' }]);
  });
});
