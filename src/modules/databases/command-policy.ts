import type { RequiredScope } from '../../core/auth/scopes.js';

/**
 * What a console command is allowed to be, decided from the server's own `COMMAND INFO` entry:
 * its flags and ACL categories say whether it reads, writes or administers, or cannot answer a
 * single request at all.
 */

/** One `COMMAND INFO` entry (Redis 7 form; Redis 6 lacks subcommands and tips). */
export interface CommandSpec {
  name: string;
  arity: number;
  flags: string[];
  firstKey: number;
  lastKey: number;
  step: number;
  categories: string[];
  subcommands: CommandSpec[];
}

/** What a command does, each with the scope that allows it. */
export const COMMAND_CLASSES = ['read', 'write', 'admin'] as const;
export type CommandClass = (typeof COMMAND_CLASSES)[number];

export type Classification =
  | { allowed: true; commandClass: CommandClass; scope: RequiredScope }
  | { allowed: false; reason: string; explanation: string };

const CLASS_SCOPE: Record<CommandClass, RequiredScope> = {
  read: 'databases:read',
  write: 'databases:write',
  admin: 'databases:admin',
};

/** Commands that turn the connection into a stream: they never answer one request with one reply. */
const STREAMING = new Set([
  'subscribe',
  'psubscribe',
  'ssubscribe',
  'unsubscribe',
  'punsubscribe',
  'sunsubscribe',
  'monitor',
  'sync',
  'psync',
]);

/**
 * Commands that change the state of the connection they run on. Console commands share pooled
 * connections, so these would leak into other callers' commands (or do nothing useful).
 */
const CONNECTION_STATE = new Set([
  'select',
  'multi',
  'exec',
  'discard',
  'watch',
  'unwatch',
  'auth',
  'hello',
  'reset',
  'quit',
  'readonly',
  'readwrite',
  'client|reply',
  'client|tracking',
  'client|caching',
  'client|setname',
  'client|setinfo',
  'client|no-evict',
  'client|no-touch',
]);

/** Picks the subcommand entry (`config|set`) when the server lists subcommands. */
export function resolveSpec(spec: CommandSpec, args: readonly string[]): CommandSpec {
  if (spec.subcommands.length === 0 || args.length < 2) return spec;
  const wanted = `${spec.name}|${args[1]!.toLowerCase()}`;
  return spec.subcommands.find((sub) => sub.name === wanted) ?? spec;
}

/** `args` are the command's words lowercased where they are keywords (only used for keywords). */
export function classifyCommand(spec: CommandSpec, args: readonly string[]): Classification {
  const name = spec.name.toLowerCase();
  const has = (flag: string) => spec.flags.includes(flag);
  const inCategory = (category: string) => spec.categories.includes(category);
  const base = name.split('|')[0]!;

  if (STREAMING.has(base) || STREAMING.has(name)) {
    return {
      allowed: false,
      reason: 'STREAMING_COMMAND',
      explanation: `${displayName(spec)} turns the connection into a stream of messages and cannot answer a single request; use redis-cli for it`,
    };
  }
  if (CONNECTION_STATE.has(name) || CONNECTION_STATE.has(base)) {
    return {
      allowed: false,
      reason: 'CONNECTION_STATE_COMMAND',
      explanation: `${displayName(spec)} changes the state of the connection; the console runs every command on its own, over shared connections (choose the database number with the registered dbIndex instead of SELECT)`,
    };
  }
  if (isBlocking(spec, args)) {
    return {
      allowed: false,
      reason: 'BLOCKING_COMMAND',
      explanation: `${displayName(spec)} blocks the connection waiting for data and cannot answer within one request; use its non-blocking form (e.g. LPOP instead of BLPOP, XREAD without BLOCK)`,
    };
  }
  if (has('admin') || inCategory('@admin') || inCategory('@dangerous')) {
    return { allowed: true, commandClass: 'admin', scope: CLASS_SCOPE.admin };
  }
  const readOnly = has('readonly');
  if (
    has('write') ||
    has('may_replicate') ||
    inCategory('@write') ||
    (!readOnly && (inCategory('@pubsub') || inCategory('@scripting')))
  ) {
    return { allowed: true, commandClass: 'write', scope: CLASS_SCOPE.write };
  }
  return { allowed: true, commandClass: 'read', scope: CLASS_SCOPE.read };
}

function isBlocking(spec: CommandSpec, args: readonly string[]): boolean {
  const blocking = spec.flags.includes('blocking') || spec.categories.includes('@blocking');
  if (!blocking) return false;
  // XREAD and XREADGROUP only block with a BLOCK argument.
  if (spec.name === 'xread' || spec.name === 'xreadgroup') {
    const streamsAt = args.findIndex((arg) => arg.toLowerCase() === 'streams');
    const options = streamsAt === -1 ? args : args.slice(0, streamsAt);
    return options.some((arg) => arg.toLowerCase() === 'block');
  }
  return true;
}

export function displayName(spec: CommandSpec): string {
  return spec.name.toUpperCase().replace('|', ' ');
}

/**
 * Key count for the audit trail from the key positions the server declares; undefined when the
 * keys move with the arguments (the caller asks the server with COMMAND GETKEYS).
 */
export function declaredKeyCount(spec: CommandSpec, argCount: number): number | undefined {
  if (spec.flags.includes('movablekeys')) return undefined;
  if (spec.firstKey <= 0) return 0;
  const last = spec.lastKey < 0 ? argCount + spec.lastKey : spec.lastKey;
  if (last < spec.firstKey) return 0;
  const step = spec.step > 0 ? spec.step : 1;
  return Math.floor((Math.min(last, argCount - 1) - spec.firstKey) / step) + 1;
}

const MASK = '***';

/**
 * Credentials in a command replaced by `***` (for history): AUTH, HELLO … AUTH, MIGRATE … AUTH /
 * AUTH2, CONFIG SET requirepass / masterauth and ACL SETUSER password rules.
 */
export function maskCredentials(words: readonly string[]): string[] {
  const masked = [...words];
  const lower = words.map((word) => word.toLowerCase());
  const command = lower[0];
  if (command === 'auth') {
    for (let i = 1; i < masked.length; i++) masked[i] = MASK;
  } else if (command === 'hello' || command === 'migrate') {
    for (let i = 1; i < masked.length; i++) {
      if (lower[i] === 'auth' && i + 1 < masked.length) {
        // HELLO … AUTH username password; MIGRATE … AUTH password.
        const secretAt = command === 'hello' ? i + 2 : i + 1;
        if (secretAt < masked.length) masked[secretAt] = MASK;
        if (command === 'hello' && secretAt >= masked.length) masked[i + 1] = MASK;
      } else if (lower[i] === 'auth2' && i + 2 < masked.length) {
        masked[i + 2] = MASK;
      }
    }
  } else if (command === 'config' && lower[1] === 'set') {
    for (let i = 2; i + 1 < masked.length; i += 2) {
      if (['requirepass', 'masterauth', 'masteruser'].includes(lower[i]!)) masked[i + 1] = MASK;
    }
  } else if (command === 'acl' && lower[1] === 'setuser') {
    for (let i = 3; i < masked.length; i++) {
      if (/^[<>#!]/.test(words[i]!)) masked[i] = `${words[i]![0]}${MASK}`;
    }
  }
  return masked;
}
