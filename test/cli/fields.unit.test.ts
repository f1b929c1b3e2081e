import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandLine } from '../../src/cli/commands/databases.js';
import { fieldsToBody, fieldsToQuery } from '../../src/cli/fields.js';

const raw = (text: string) => ({ text, typed: false });
const typed = (text: string) => ({ text, typed: true });

describe('api fields (-f raw, -F typed)', () => {
  it('-f keeps every value a string', async () => {
    expect(await fieldsToBody([raw('a=1'), raw('b=true'), raw('c=null'), raw('d=x=y')])).toEqual({
      a: '1',
      b: 'true',
      c: 'null',
      d: 'x=y',
    });
  });

  it('-F turns true, false, null and numbers into JSON values and leaves other text alone', async () => {
    expect(
      await fieldsToBody([
        typed('a=1'),
        typed('b=-2.5'),
        typed('c=true'),
        typed('d=false'),
        typed('e=null'),
        typed('f=01'),
        typed('g=text'),
      ]),
    ).toEqual({ a: 1, b: -2.5, c: true, d: false, e: null, f: '01', g: 'text' });
  });

  it('-F key=@file reads the file', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-fields-')), 'value.txt');
    fs.writeFileSync(file, 'contents');
    expect(await fieldsToBody([typed(`a=@${file}`)])).toEqual({ a: 'contents' });
  });

  it('nests key[sub]=value and appends key[]=value', async () => {
    expect(
      await fieldsToBody([
        raw('tls[caPem]=pem'),
        typed('tls[rejectUnauthorized]=false'),
        raw('ids[]=a'),
        raw('ids[]=b'),
      ]),
    ).toEqual({
      tls: { caPem: 'pem', rejectUnauthorized: false },
      ids: ['a', 'b'],
    });
  });

  it('makes an empty array from key[] without a value', async () => {
    expect(await fieldsToBody([raw('scopes[]')])).toEqual({ scopes: [] });
  });

  it('refuses a field without = and a __proto__ key', async () => {
    await expect(fieldsToBody([raw('novalue')])).rejects.toThrow('field novalue is not key=value');
    await expect(fieldsToBody([raw('__proto__[x]=1')])).rejects.toThrow('names __proto__');
  });

  it('puts fields in a query string as given', async () => {
    expect((await fieldsToQuery([raw('q=a b'), typed('limit=5')])).toString()).toBe('q=a+b&limit=5');
  });
});

describe('kv run command lines', () => {
  it('leaves plain words alone', () => {
    expect(commandLine(['HGETALL', 'user:1'])).toBe('HGETALL user:1');
  });

  it('quotes words with spaces, quotes, backslashes or nothing in them, as redis-cli reads them', () => {
    expect(commandLine(['SET', 'k', 'two words'])).toBe('SET k "two words"');
    expect(commandLine(['SET', 'k', 'say "hi"'])).toBe('SET k "say \\"hi\\""');
    expect(commandLine(['SET', 'k', 'a\\b'])).toBe('SET k "a\\\\b"');
    expect(commandLine(['SET', 'k', ''])).toBe('SET k ""');
    expect(commandLine(['SET', 'k', "it's"])).toBe('SET k "it\'s"');
  });
});
