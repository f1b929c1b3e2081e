import fs from 'node:fs';
import path from 'node:path';

/** What a kind's parse answers for a text it does not accept. */
const REFUSED = Symbol('refused');
type Refused = typeof REFUSED;

export type Env = Record<string, string | undefined>;

export const MiB = 1024 * 1024;
export const GiB = 1024 * MiB;

/** How a setting reads its variable, and what README's configuration table says of it. */
export interface Kind<T> {
  /** What the setting is for: README's Meaning column. */
  doc: string;
  /** What the variable takes: README's Accepts column and the end of the message refusing a text. */
  accepts: string;
  /** README's Default column. */
  shownDefault: string;
  /** A refused text stays out of the message: it may hold a password or a key. */
  secret?: boolean;
  /** The value when the variable is unset or empty, and in place of a refused text. */
  unset(): T;
  parse(text: string): NonNullable<T> | Refused;
  /** Problems of an accepted value beyond its form (a file that cannot be read), as whole lines. */
  check?(value: NonNullable<T>): string[];
}

/**
 * One environment variable: its name and its kind (made by the functions below). The section files
 * of src/config/ declare them; src/config.ts nests them into the configuration's shape.
 */
export class Setting<T> {
  constructor(
    readonly env: string,
    readonly kind: Kind<T>,
    /** The heading README lists it under (given by section()). */
    readonly section = '',
  ) {}

  listedUnder(section: string): Setting<T> {
    return new Setting(this.env, this.kind, section);
  }

  /** The value of the variable in `env`; what is wrong with it goes to `reading`, one line each. */
  read(env: Env, reading: Reading): T {
    const text = env[this.env];
    if (text === undefined || text === '') return this.kind.unset();
    const value = this.kind.parse(text);
    if (value === REFUSED) {
      const shown = this.kind.secret ? this.env : `${this.env}=${text}`;
      reading.problems.push(`${shown} is invalid: expected ${this.kind.accepts}`);
      reading.refused.add(this.env);
      return this.kind.unset();
    }
    reading.problems.push(...(this.kind.check?.(value) ?? []));
    return value;
  }
}

/** What reading the settings found wrong: the lines to report, and the variables whose text was refused. */
export interface Reading {
  problems: string[];
  refused: Set<string>;
}

/** Settings by the property names of their values, nested like the configuration they make. */
export type Settings = { readonly [name: string]: Setting<unknown> | Settings };

/** The configuration `settings` make: the same property names, each holding its setting's value. */
export type ValuesOf<S> = { -readonly [K in keyof S]: S[K] extends Setting<infer T> ? T : ValuesOf<S[K]> };

/** Reads every setting, in declaration order, so that all bad values are reported at once. */
export function readSettings<S extends Settings>(settings: S, env: Env, reading: Reading): ValuesOf<S> {
  const entries = Object.entries(settings).map(([name, entry]) => [
    name,
    entry instanceof Setting ? entry.read(env, reading) : readSettings(entry, env, reading),
  ]);
  return Object.fromEntries(entries) as ValuesOf<S>;
}

/** Every setting of a tree, in declaration order (the order of README's table). */
export function settingsIn(settings: Settings): Setting<unknown>[] {
  return Object.values(settings).flatMap((entry) => (entry instanceof Setting ? [entry] : settingsIn(entry)));
}

/** The settings of one heading of README's configuration table. */
export function section<S extends { readonly [name: string]: Setting<unknown> }>(
  title: string,
  settings: S,
): S {
  return Object.fromEntries(
    Object.entries(settings).map(([name, setting]) => [name, setting.listedUnder(title)]),
  ) as S;
}

interface Described {
  doc: string;
  /** README's Default column when the setting has no default: what leaving it unset means. */
  unset?: string;
}

/** The Default column and the unset value of a setting that has `fallback` (or none). */
function defaulted<T>(fallback: T, unset: string | undefined) {
  const shownDefault = unset ?? (fallback === undefined ? 'unset' : `\`${String(fallback)}\``);
  return { shownDefault, unset: () => fallback };
}

interface Bounds extends Described {
  min: number;
  max: number;
}

export function integer(env: string, options: Bounds & { default: number }): Setting<number>;
export function integer(env: string, options: Bounds): Setting<number | undefined>;
export function integer(
  env: string,
  { doc, unset, min, max, default: fallback }: Bounds & { default?: number },
) {
  return new Setting(env, {
    doc,
    accepts: `an integer from ${min} to ${max}`,
    ...defaulted(fallback, unset),
    parse: (text) => {
      const value = Number(text);
      return /^\d+$/.test(text) && value >= min && value <= max ? value : REFUSED;
    },
  });
}

export function boolean(env: string, { doc, default: fallback }: Described & { default: boolean }) {
  return new Setting(env, {
    doc,
    accepts: 'true or false',
    ...defaulted(fallback, undefined),
    parse: (text) => {
      if (['1', 'true', 'yes'].includes(text)) return true;
      return ['0', 'false', 'no'].includes(text) ? false : REFUSED;
    },
  });
}

export function oneOf<const T extends string>(
  env: string,
  allowed: readonly T[],
  { doc, default: fallback }: Described & { default: T },
) {
  return new Setting<T>(env, {
    doc,
    accepts: `one of ${allowed.join(', ')}`,
    ...defaulted(fallback, undefined),
    parse: (text) => ((allowed as readonly string[]).includes(text) ? (text as T) : REFUSED),
  });
}

interface Text extends Described {
  /** What the text is, e.g. 'an https:// URL'. */
  accepts: string;
  /** The value a text stands for, or undefined to refuse it; without it, any text is taken as given. */
  parse?: (text: string) => string | undefined;
  secret?: boolean;
}

export function text(env: string, options: Text & { default: string }): Setting<string>;
export function text(env: string, options: Text): Setting<string | undefined>;
export function text(
  env: string,
  { doc, unset, accepts, parse, secret, default: fallback }: Text & { default?: string },
) {
  return new Setting(env, {
    doc,
    accepts,
    secret,
    ...defaulted(fallback, unset),
    parse: (given) => (parse ? (parse(given) ?? REFUSED) : given),
  });
}

interface List extends Described {
  /** What the entries are, e.g. 'IP addresses with optional ports, comma-separated'. */
  accepts: string;
  /** The value an entry stands for, or undefined to refuse the list. */
  entry: (text: string) => string | undefined;
}

/** Comma-separated entries, trimmed; one bad entry refuses the whole list. */
export function list(env: string, options: List & { default: string[] }): Setting<string[]>;
export function list(env: string, options: List): Setting<string[] | undefined>;
export function list(
  env: string,
  { doc, unset, accepts, entry, default: fallback }: List & { default?: string[] },
) {
  return new Setting(env, {
    doc,
    accepts,
    ...defaulted(fallback, unset),
    parse: (given) => {
      const entries = given.split(',').map((part) => entry(part.trim()));
      return entries.every((value) => value !== undefined) ? entries : REFUSED;
    },
  });
}

/** A directory, resolved against the working directory when the configuration is read. */
export function directory(env: string, { doc, default: fallback }: Described & { default: string }) {
  return new Setting(env, {
    doc,
    accepts: 'a directory path',
    shownDefault: `\`${fallback}\``,
    unset: () => path.resolve(fallback),
    parse: (given) => path.resolve(given),
  });
}

/**
 * An optional file, resolved against the working directory. `problems` checks what it holds (whole
 * lines); without it the file only has to exist.
 */
export function file(
  env: string,
  { doc, unset, problems }: Described & { problems?: (file: string) => string[] },
) {
  return new Setting<string | undefined>(env, {
    doc,
    accepts: 'a file path',
    ...defaulted(undefined, unset),
    parse: (given) => path.resolve(given),
    check: (resolved) =>
      problems?.(resolved) ??
      (fs.existsSync(resolved) ? [] : [`${env}=${resolved} is invalid: no such file`]),
  });
}
