import fsp from 'node:fs/promises';
import { CliError } from './cli-error.js';

/**
 * Request fields given on the command line the way `gh api` takes them:
 * `-f key=value` is always a string; `-F key=value` is typed: `true`, `false`, `null` and numbers
 * become JSON values, `@path` is the text of a file (`@-` standard input), anything else a string.
 * `key[sub]=v` nests objects, `key[]=v` appends to an array, `key[]` alone makes an empty array.
 */

export interface FieldArgument {
  text: string;
  typed: boolean;
}

/** Commander collector for a repeatable option. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** Splits `key=value` (the value may contain `=`); a bare `key[]` has no value. */
function split(text: string): { key: string; value: string | undefined } {
  const at = text.indexOf('=');
  if (at === -1) {
    if (text.endsWith('[]')) return { key: text, value: undefined };
    throw new CliError(`field ${text} is not key=value`);
  }
  const key = text.slice(0, at);
  if (!key) throw new CliError(`field ${text} has no key`);
  return { key, value: text.slice(at + 1) };
}

/** `a[b][]` → `['a', 'b', '']` (an empty part appends to an array). */
function keyPath(key: string): string[] {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match) throw new CliError(`field key ${key} is not name, name[sub] or name[]`);
  const parts = [match[1]!];
  for (const part of match[2]!.matchAll(/\[([^[\]]*)\]/g)) parts.push(part[1]!);
  // Assigning it would set the prototype of the object instead of a field.
  if (parts.includes('__proto__')) throw new CliError(`field key ${key} names __proto__`);
  return parts;
}

let stdinBytes: Promise<Buffer> | undefined;

/** Standard input as bytes, read once (several `@-` fields share it). */
export function readStdinBytesOnce(): Promise<Buffer> {
  stdinBytes ??= (async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  })();
  return stdinBytes;
}

/** Standard input as text, read once. */
export async function readStdinOnce(): Promise<string> {
  return (await readStdinBytesOnce()).toString('utf8');
}

/** The text of `path`, or of standard input for `-`. */
export async function readTextArgument(path: string, what: string): Promise<string> {
  if (path === '-') return readStdinOnce();
  return fsp.readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new CliError(`cannot read ${what} ${path}: ${error.code ?? error.message}`);
  });
}

async function typedValue(value: string): Promise<unknown> {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (value === 'null') return null;
  if (/^-?(0|[1-9]\d*)(\.\d+)?$/.test(value)) return Number(value);
  if (value.startsWith('@')) return readTextArgument(value.slice(1), 'field file');
  return value;
}

function place(target: Record<string, unknown>, parts: string[], value: unknown, key: string): void {
  let node: Record<string, unknown> | unknown[] = target;
  parts.forEach((part, index) => {
    const last = index === parts.length - 1;
    const next = parts[index + 1];
    if (Array.isArray(node)) {
      if (part !== '') throw new CliError(`field ${key} mixes an array and an object`);
      if (last) {
        if (value !== undefined) node.push(value);
        return;
      }
      const child = next === '' ? [] : {};
      node.push(child);
      node = child;
      return;
    }
    if (part === '') throw new CliError(`field ${key} mixes an array and an object`);
    if (last) {
      node[part] = value;
      return;
    }
    const wanted = next === '' ? 'array' : 'object';
    const existing = node[part];
    const fits =
      wanted === 'array'
        ? Array.isArray(existing)
        : existing && typeof existing === 'object' && !Array.isArray(existing);
    if (!fits) node[part] = wanted === 'array' ? [] : {};
    node = node[part] as Record<string, unknown> | unknown[];
  });
}

/** The JSON object the fields describe. */
export async function fieldsToBody(fields: FieldArgument[]): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    const { key, value } = split(field.text);
    const parts = keyPath(key);
    const resolved = value === undefined ? undefined : field.typed ? await typedValue(value) : value;
    place(body, parts, resolved, key);
  }
  return body;
}

/** Fields as query parameters (values as given; `@file` read for typed ones). */
export async function fieldsToQuery(fields: FieldArgument[]): Promise<URLSearchParams> {
  const params = new URLSearchParams();
  for (const field of fields) {
    const { key, value } = split(field.text);
    if (value === undefined) continue;
    const resolved = field.typed && value.startsWith('@') ? await typedValue(value) : value;
    params.append(key, String(resolved));
  }
  return params;
}

/** `-f`/`-F` option values as field arguments, raw ones first. */
export function fieldArguments(raw: string[] | undefined, typed: string[] | undefined): FieldArgument[] {
  return [
    ...(raw ?? []).map((text) => ({ text, typed: false })),
    ...(typed ?? []).map((text) => ({ text, typed: true })),
  ];
}
