import type { Command } from 'commander';
import type { ApiContext } from './api-command.js';
import { CliError } from './cli-error.js';
import { FLAG_FIELDS, type FlagValues } from './field-paths.js';
import { collect, readStdinOnce, readTextArgument } from './fields.js';

/**
 * Typed command-line flags that become fields of a request body (or query parameters). Each area
 * declares its flags once with these constructors; `addFlags` puts them on a command and
 * `bodyFromFlags` reads them back. `Field` is the field's name, which the command that sends the
 * flags checks against its operation in the API document.
 */
export interface Flag<Field extends string = string> {
  /** Commander flag syntax, e.g. `--name <name>`. */
  flags: string;
  description: string;
  /** Body field; dots nest (`tls.caPem`). */
  field: Field;
  required?: boolean;
  /** Also `--no-…` (booleans: unset means "leave as is"). */
  negatable?: boolean;
  /** May be given several times; `parse` gets the list. */
  repeatable?: boolean;
  /** The option's value as the body wants it. */
  // biome-ignore lint/suspicious/noExplicitAny: commander hands over strings, booleans or arrays
  parse?: (value: any, context: ApiContext) => unknown | Promise<unknown>;
}

/** The commander option key of a flag (`--db-index <n>` → `dbIndex`). */
function optionKey(flags: string): string {
  const long = /--([a-z0-9-]+)/i.exec(flags)![1]!;
  return long.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

export function integer(text: string, flag: string): number {
  if (!/^-?\d+$/.test(text)) throw new CliError(`${flag} takes a whole number, not ${text}`);
  return Number(text);
}

export const text = <Field extends string>(
  flags: string,
  field: Field,
  description: string,
  required = false,
): Flag<Field> => ({
  flags,
  field,
  description,
  required,
});

export const whole = <Field extends string>(
  flags: string,
  field: Field,
  description: string,
): Flag<Field> => ({
  flags,
  field,
  description,
  parse: (value: string) => integer(value, flags.split(' ')[0]!),
});

/** `--name` sets true, `--no-name` false, neither leaves the field out. */
export const bool = <Field extends string>(name: string, field: Field, description: string): Flag<Field> => ({
  flags: `--${name}`,
  field,
  description,
  negatable: true,
});

/** `a, b,c` → `['a', 'b', 'c']`; an empty string is an empty list. */
export function commaList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** A comma-separated list flag. */
export const list = <Field extends string>(
  flags: string,
  field: Field,
  description: string,
  required = false,
): Flag<Field> => ({
  flags,
  field,
  description,
  required,
  parse: commaList,
});

/** The text of a file (`-` for standard input). */
export const fileText = <Field extends string>(
  flags: string,
  field: Field,
  description: string,
  required = false,
): Flag<Field> => ({
  flags,
  field,
  description,
  required,
  parse: (path: string) => readTextArgument(path, flags.split(' ')[0]!),
});

/** The `…-stdin` flag that took standard input in this run (it holds one secret). */
let stdinTakenBy: string | undefined;

/** A secret read from standard input (one trailing newline dropped), never from the command line. */
export const stdinSecret = <Field extends string>(
  name: string,
  field: Field,
  description: string,
): Flag<Field> => ({
  flags: `--${name}`,
  field,
  description,
  parse: async () => {
    if (stdinTakenBy && stdinTakenBy !== name)
      throw new CliError(
        `--${stdinTakenBy} and --${name} both read standard input; give one of them per run`,
      );
    stdinTakenBy = name;
    const secret = (await readStdinOnce()).replace(/\r?\n$/, '');
    if (!secret) throw new CliError(`--${name} read nothing from standard input`);
    return secret;
  },
});

/** A reference to another record, turned into its id (`resolve` looks it up). */
export const idFlag = <Field extends string>(
  flags: string,
  field: Field,
  description: string,
  resolve: (context: ApiContext, ref: string) => Promise<string>,
): Flag<Field> => ({ flags, field, description, parse: (ref: string, context) => resolve(context, ref) });

/** A value where `none` means null (clears the field). */
export const nullable = <Field extends string>(
  flags: string,
  field: Field,
  description: string,
): Flag<Field> => ({
  flags,
  field,
  description: `${description} (none: clear it)`,
  parse: (value: string) => (value === 'none' ? null : value),
});

export function addFlags(command: Command, flags: readonly Flag[]): Command {
  for (const flag of flags) {
    if (flag.repeatable) command.option(flag.flags, `${flag.description} (repeatable)`, collect);
    else if (flag.required) command.requiredOption(flag.flags, flag.description);
    else command.option(flag.flags, flag.description);
    if (flag.negatable)
      command.option(`--no-${flag.flags.slice(2)}`, `the opposite of --${flag.flags.slice(2)}`);
  }
  return command;
}

function setPath(body: Record<string, unknown>, field: string, value: unknown): void {
  const parts = field.split('.');
  let node = body;
  for (const part of parts.slice(0, -1)) {
    if (!node[part] || typeof node[part] !== 'object') node[part] = {};
    node = node[part] as Record<string, unknown>;
  }
  node[parts.at(-1)!] = value;
}

/** The body fields set by the given flags (flags left out are left out of the body). */
export async function bodyFromFlags<Field extends string>(
  context: ApiContext,
  flags: readonly Flag<Field>[],
): Promise<FlagValues<Field>> {
  const body: FlagValues<Field> = { [FLAG_FIELDS]: flags.map((flag) => flag.field) };
  for (const flag of flags) {
    const value = context.opts[optionKey(flag.flags)];
    if (value === undefined) continue;
    setPath(body, flag.field, flag.parse ? await flag.parse(value, context) : value);
  }
  return body;
}
