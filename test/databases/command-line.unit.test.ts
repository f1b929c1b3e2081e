import { describe, expect, it } from 'vitest';
import { parseCommandLine, renderCommandLine } from '../../src/modules/databases/command-line.js';
import {
  type CommandSpec,
  classifyCommand,
  maskCredentials,
} from '../../src/modules/databases/command-policy.js';
import { convertReply } from '../../src/modules/databases/reply.js';

const words = (line: string) => {
  const parsed = parseCommandLine(line);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.args.map((arg) => arg.toString('utf8'));
};

describe('reading a command line like redis-cli', () => {
  it('splits on any whitespace and ignores leading and trailing space', () => {
    expect(words('  SET\tkey \n value  ')).toEqual(['SET', 'key', 'value']);
  });

  it('keeps empty quoted arguments', () => {
    expect(words(`SET k "" ''`)).toEqual(['SET', 'k', '', '']);
  });

  it('joins a quoted part to the text before it', () => {
    expect(words('SET k pre"fix value"')).toEqual(['SET', 'k', 'prefix value']);
  });

  it('reads \\xHH as a byte, and a lone \\x as x', () => {
    const parsed = parseCommandLine('"\\x00\\xff" "\\xZZ"');
    expect(parsed.ok && parsed.args.map((arg) => [...arg])).toEqual([[0, 255], [...Buffer.from('xZZ')]]);
  });

  it('reports unbalanced quotes and text glued to a closing quote', () => {
    expect(parseCommandLine('GET "a')).toEqual({ ok: false, error: 'unbalanced double quotes' });
    expect(parseCommandLine("GET 'a")).toEqual({ ok: false, error: 'unbalanced single quotes' });
    expect(parseCommandLine('GET "a"b').ok).toBe(false);
  });

  it('renders arguments back into a line that reads the same', () => {
    const parsed = parseCommandLine('SET "a key" "line\\nbreak" \'q"uote\' "\\xff" plain ""');
    if (!parsed.ok) throw new Error(parsed.error);
    const line = renderCommandLine(parsed.args);
    expect(line).toBe('SET "a key" "line\\nbreak" "q\\"uote" "\\xff" plain ""');
    expect(words(line)).toEqual(['SET', 'a key', 'line\nbreak', 'q"uote', '\ufffd', 'plain', '']);
  });
});

describe('masking credentials for the history', () => {
  it.each([
    [
      ['AUTH', 'pw'],
      ['AUTH', '***'],
    ],
    [
      ['auth', 'user', 'pw'],
      ['auth', '***', '***'],
    ],
    [
      ['HELLO', '3', 'AUTH', 'user', 'pw', 'SETNAME', 'x'],
      ['HELLO', '3', 'AUTH', 'user', '***', 'SETNAME', 'x'],
    ],
    [
      ['MIGRATE', 'h', '6379', 'k', '0', '100', 'AUTH', 'pw'],
      ['MIGRATE', 'h', '6379', 'k', '0', '100', 'AUTH', '***'],
    ],
    [
      ['MIGRATE', 'h', '6379', '', '0', '100', 'AUTH2', 'u', 'pw', 'KEYS', 'a'],
      ['MIGRATE', 'h', '6379', '', '0', '100', 'AUTH2', 'u', '***', 'KEYS', 'a'],
    ],
    [
      ['CONFIG', 'SET', 'requirepass', 'pw'],
      ['CONFIG', 'SET', 'requirepass', '***'],
    ],
    [
      ['ACL', 'SETUSER', 'bob', 'on', '>pw', '~*'],
      ['ACL', 'SETUSER', 'bob', 'on', '>***', '~*'],
    ],
    [
      ['SET', 'k', 'v'],
      ['SET', 'k', 'v'],
    ],
  ])('%j becomes %j', (input, expected) => {
    expect(maskCredentials(input)).toEqual(expected);
  });
});

describe('classifying commands from COMMAND INFO', () => {
  const spec = (name: string, flags: string[], categories: string[]): CommandSpec => ({
    name,
    arity: -1,
    flags,
    firstKey: 1,
    lastKey: 1,
    step: 1,
    categories,
    subcommands: [],
  });

  it('treats scripts that may write as writes and read-only scripts as reads', () => {
    expect(classifyCommand(spec('eval', ['noscript'], ['@slow', '@scripting']), ['eval'])).toMatchObject({
      commandClass: 'write',
    });
    expect(
      classifyCommand(spec('eval_ro', ['readonly'], ['@slow', '@scripting']), ['eval_ro']),
    ).toMatchObject({
      commandClass: 'read',
    });
  });

  it('treats PUBLISH as a write', () => {
    expect(
      classifyCommand(spec('publish', ['pubsub', 'fast'], ['@pubsub', '@fast']), ['publish']),
    ).toMatchObject({
      commandClass: 'write',
    });
  });
});

describe('converting replies to JSON', () => {
  it('keeps a __proto__ map key as plain data', () => {
    const map = JSON.parse('{"__proto__": "x", "a": 1}');
    const { result } = convertReply(map, 1000);
    expect(Object.keys(result as object)).toEqual(['__proto__', 'a']);
    expect(JSON.stringify(result)).toBe('{"__proto__":"x","a":1}');
  });

  it('cuts binary values so their base64 fits', () => {
    const converted = convertReply(Buffer.alloc(5000, 0xff), 1000);
    expect(converted.truncated).toBe(true);
    expect((converted.result as { base64: string }).base64.length).toBeLessThanOrEqual(1000);
  });

  it('never splits a character when cutting text', () => {
    const converted = convertReply(Buffer.from('é'.repeat(1000)), 101);
    expect(converted.result).toBe('é'.repeat(49));
  });
});
