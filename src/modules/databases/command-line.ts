/**
 * The console's command line, read the way redis-cli reads it (sdssplitargs): arguments split on
 * whitespace; "double quotes" understand \n \r \t \b \a \\ \" and \xHH; 'single quotes' only \';
 * a closing quote must be followed by whitespace or the end; "" is an empty argument.
 */

import { decodeUtf8 } from './reply.js';

export type ParsedCommandLine = { ok: true; args: Buffer[] } | { ok: false; error: string };

const isSpace = (char: string | undefined) =>
  char === ' ' || char === '\n' || char === '\r' || char === '\t' || char === '\v' || char === '\f';
const isHex = (char: string | undefined) => char !== undefined && /^[0-9a-fA-F]$/.test(char);
const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', a: '\x07' };
const GLUED_QUOTE = 'a closing quote must be followed by a space or the end of the line';
/** A closing quote at `at` must end the argument. */
const closesCleanly = (line: string, at: number) => at + 1 >= line.length || isSpace(line[at + 1]);

export function parseCommandLine(line: string): ParsedCommandLine {
  const args: Buffer[] = [];
  let i = 0;
  while (true) {
    while (isSpace(line[i])) i++;
    if (i >= line.length) return { ok: true, args };
    const bytes: number[] = [];
    const pushText = (text: string) => {
      for (const byte of Buffer.from(text, 'utf8')) bytes.push(byte);
    };
    let quote: '"' | "'" | null = null;
    let done = false;
    while (!done) {
      // Code points, not UTF-16 units, so a surrogate pair is never split.
      const char = String.fromCodePoint(line.codePointAt(i) ?? 0);
      if (i >= line.length) {
        if (quote) return { ok: false, error: `unbalanced ${quote === '"' ? 'double' : 'single'} quotes` };
        done = true;
      } else if (quote === '"') {
        if (char === '\\' && line[i + 1] === 'x' && isHex(line[i + 2]) && isHex(line[i + 3])) {
          bytes.push(Number.parseInt(line.slice(i + 2, i + 4), 16));
          i += 3;
        } else if (char === '\\' && i + 1 < line.length) {
          i++;
          const next = String.fromCodePoint(line.codePointAt(i)!);
          pushText(ESCAPES[next] ?? next);
          i += next.length - 1;
        } else if (char === '"') {
          if (!closesCleanly(line, i)) return { ok: false, error: GLUED_QUOTE };
          quote = null;
          done = true;
        } else pushText(char);
      } else if (quote === "'") {
        if (char === '\\' && line[i + 1] === "'") {
          bytes.push(0x27);
          i++;
        } else if (char === "'") {
          if (!closesCleanly(line, i)) return { ok: false, error: GLUED_QUOTE };
          quote = null;
          done = true;
        } else pushText(char);
      } else if (isSpace(char)) {
        done = true;
      } else if (char === '"' || char === "'") {
        quote = char;
      } else pushText(char);
      i += char.length;
    }
    args.push(Buffer.from(bytes));
  }
}

const PLAIN = /^[\x21-\x7e]+$/;

/** Renders arguments back into a line redis-cli would read the same way (for history). */
export function renderCommandLine(args: readonly (Buffer | string)[]): string {
  return args.map((arg) => renderArgument(arg)).join(' ');
}

/** One argument as redis-cli would need it typed: bare when plain, else double-quoted with escapes. */
export function renderArgument(arg: Buffer | string): string {
  if (typeof arg === 'string') return arg;
  const text = decodeUtf8(arg);
  if (text !== undefined && PLAIN.test(text) && !/["'\\]/.test(text)) return text;
  let out = '"';
  if (text !== undefined) {
    for (const char of text) {
      const code = char.codePointAt(0)!;
      if (char === '"' || char === '\\') out += `\\${char}`;
      else if (char === '\n') out += '\\n';
      else if (char === '\r') out += '\\r';
      else if (char === '\t') out += '\\t';
      else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
      else out += char;
    }
  } else {
    for (const byte of arg) {
      if (byte === 0x22 || byte === 0x5c) out += `\\${String.fromCharCode(byte)}`;
      else if (byte >= 0x20 && byte < 0x7f) out += String.fromCharCode(byte);
      else out += `\\x${byte.toString(16).padStart(2, '0')}`;
    }
  }
  return `${out}"`;
}
