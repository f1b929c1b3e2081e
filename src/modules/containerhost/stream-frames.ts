import { StringDecoder } from 'node:string_decoder';
import type { LogLine, OutputStream } from './schemas/container-streams.js';

// What the engine's byte streams carry, decoded: the multiplexed stdout/stderr frames of logs and exec,
// lines of text, and newline-delimited JSON (stats, pull progress). Pure code, no engine in sight.

/** One piece of a container's output and the stream it came on. */
export interface OutputChunk {
  stream: OutputStream;
  payload: Buffer;
}

const HEADER_BYTES = 8;
const STREAM_OF: Record<number, OutputStream> = { 1: 'stdout', 2: 'stderr' };

/**
 * Splits the engine's multiplexed stream (a container without a TTY): each frame is an 8-byte header —
 * the stream (1 stdout, 2 stderr), three zero bytes, the payload length as a big-endian uint32 — then
 * the payload. Frames arrive cut anywhere, so the decoder keeps what it has not finished. A container
 * with a TTY sends raw bytes instead; `tty` passes them through as stdout.
 */
export class FrameDecoder {
  private pending: Buffer = Buffer.alloc(0);

  constructor(private readonly tty = false) {}

  push(chunk: Buffer): OutputChunk[] {
    if (this.tty) return chunk.length > 0 ? [{ stream: 'stdout', payload: chunk }] : [];
    this.pending = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
    const out: OutputChunk[] = [];
    while (this.pending.length >= HEADER_BYTES) {
      const size = this.pending.readUInt32BE(4);
      if (this.pending.length < HEADER_BYTES + size) break;
      const payload = this.pending.subarray(HEADER_BYTES, HEADER_BYTES + size);
      // stdin echoes (0) and anything unknown are not output.
      const stream = STREAM_OF[this.pending[0]!];
      if (stream && payload.length > 0) out.push({ stream, payload });
      this.pending = this.pending.subarray(HEADER_BYTES + size);
    }
    return out;
  }
}

/** One line of output; a line longer than `maxLineChars` is cut into several. */
export interface OutputLine {
  stream: OutputStream;
  text: string;
}

/**
 * Cuts each stream's output into lines (UTF-8 decoded across chunk boundaries, `\r\n` or `\n`). A line
 * that never ends is emitted in pieces of `maxLineChars`, so a container writing without newlines
 * cannot grow the buffer without bound.
 */
export class LineSplitter {
  private readonly partial: Record<OutputStream, string> = { stdout: '', stderr: '' };
  private readonly decoders: Record<OutputStream, StringDecoder> = {
    stdout: new StringDecoder('utf8'),
    stderr: new StringDecoder('utf8'),
  };

  constructor(private readonly maxLineChars = 64 * 1024) {}

  push({ stream, payload }: OutputChunk): OutputLine[] {
    const text = this.partial[stream] + this.decoders[stream].write(payload);
    const pieces = text.split('\n');
    this.partial[stream] = pieces.pop()!;
    const lines = pieces.map((piece) => ({ stream, text: piece.replace(/\r$/, '') }));
    while (this.partial[stream].length > this.maxLineChars) {
      lines.push({ stream, text: this.partial[stream].slice(0, this.maxLineChars) });
      this.partial[stream] = this.partial[stream].slice(this.maxLineChars);
    }
    return lines;
  }

  /** The unfinished last line of each stream, once the output has ended. */
  flush(): OutputLine[] {
    return (['stdout', 'stderr'] as const).flatMap((stream) => {
      const rest = this.partial[stream] + this.decoders[stream].end();
      this.partial[stream] = '';
      return rest ? [{ stream, text: rest.replace(/\r$/, '') }] : [];
    });
  }
}

const TIMESTAMP_PREFIX = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})) ?/;

/** Splits the timestamp the engine puts before each line (logs are always read with timestamps). */
export function logLine({ stream, text }: OutputLine, keepTimestamp: boolean): LogLine {
  const match = TIMESTAMP_PREFIX.exec(text);
  return {
    stream,
    timestamp: match && keepTimestamp ? match[1]! : null,
    line: match ? text.slice(match[0].length) : text,
  };
}

/**
 * Parses newline-delimited JSON as it arrives (stats samples, pull progress): complete lines are parsed,
 * blank ones skipped, a line that is not JSON is handed over as `{text}` rather than dropped.
 */
export class JsonLines {
  private partial = '';
  private readonly decoder = new StringDecoder('utf8');

  push(chunk: Buffer): unknown[] {
    const pieces = (this.partial + this.decoder.write(chunk)).split('\n');
    this.partial = pieces.pop()!;
    return pieces.flatMap(parseLine);
  }

  flush(): unknown[] {
    const rest = this.partial + this.decoder.end();
    this.partial = '';
    return parseLine(rest);
  }
}

function parseLine(line: string): unknown[] {
  const trimmed = line.trim();
  if (!trimmed) return [];
  try {
    return [JSON.parse(trimmed)];
  } catch {
    return [{ text: trimmed }];
  }
}
