import { describe, expect, it } from 'vitest';
import { replyNode, scalarText } from './reply-node';

describe('a key-value reply as the console shows it', () => {
  it('reads a string, an integer and nil', () => {
    expect(replyNode('hello', 'string')).toEqual({ kind: 'string', text: 'hello' });
    expect(replyNode(2, 'integer')).toEqual({ kind: 'integer', value: 2 });
    expect(replyNode(null, 'null')).toEqual({ kind: 'nil' });
  });

  it('keeps a whole double a double when the gateway says so', () => {
    expect(replyNode(3, 'double')).toEqual({ kind: 'double', value: 3 });
  });

  it('reads a hash as a map of its fields', () => {
    expect(replyNode({ name: 'Ada', lang: 'en' }, 'map')).toEqual({
      kind: 'map',
      entries: [
        ['name', { kind: 'string', text: 'Ada' }],
        ['lang', { kind: 'string', text: 'en' }],
      ],
    });
  });

  it('reads bytes that are not UTF-8 as binary, also inside a list', () => {
    expect(replyNode({ base64: '/w==' }, 'binary')).toEqual({ kind: 'binary', base64: '/w==' });
    expect(replyNode(['a', { base64: '/w==' }, 1.5, null], 'array')).toEqual({
      kind: 'list',
      items: [
        { kind: 'string', text: 'a' },
        { kind: 'binary', base64: '/w==' },
        { kind: 'double', value: 1.5 },
        { kind: 'nil' },
      ],
    });
  });

  it('keeps a hash whose only field is named base64 a hash', () => {
    expect(replyNode({ base64: 'x' }, 'map')).toEqual({
      kind: 'map',
      entries: [['base64', { kind: 'string', text: 'x' }]],
    });
  });

  it('summarises scalars the way redis-cli prints them', () => {
    expect(scalarText({ kind: 'integer', value: 2 })).toBe('(integer) 2');
    expect(scalarText({ kind: 'nil' })).toBe('(nil)');
    expect(scalarText({ kind: 'list', items: [] })).toBe('(empty list)');
  });
});
