import type { Command } from 'commander';
import { ApiClient } from './api-client.js';
import { CliError } from './cli-error.js';
import { readSavedLogin } from './config-file.js';
import { Output } from './output.js';

/** Where a setting came from, most specific first. */
export type SettingSource = 'flag' | 'environment' | 'saved login';

export interface ApiTarget {
  url: string;
  token: string;
  urlFrom: SettingSource;
  tokenFrom: SettingSource;
}

/**
 * The gateway and token to use: `--url`/`--token`, else INFRAGATE_URL/INFRAGATE_TOKEN, else the
 * saved login. The saved token is only ever sent to the saved URL, never to another gateway.
 */
export async function resolveTarget(
  options: { url?: string; token?: string },
  env: NodeJS.ProcessEnv = process.env,
): Promise<ApiTarget> {
  const saved = await readSavedLogin(env);
  const url = pick<string>([
    [options.url, 'flag'],
    [env.INFRAGATE_URL, 'environment'],
    [saved?.url, 'saved login'],
  ]);
  if (!url) throw new CliError('set INFRAGATE_URL or pass --url');
  const savedTokenApplies = saved !== undefined && sameGateway(saved.url, url.value);
  const token = pick<string>([
    [options.token, 'flag'],
    [env.INFRAGATE_TOKEN, 'environment'],
    [savedTokenApplies ? saved.token : undefined, 'saved login'],
  ]);
  if (!token) throw new CliError('set INFRAGATE_TOKEN or pass --token');
  return { url: url.value, token: token.value, urlFrom: url.from, tokenFrom: token.from };
}

function pick<T>(
  candidates: [T | undefined, SettingSource][],
): { value: T; from: SettingSource } | undefined {
  const found = candidates.find(([value]) => value !== undefined && value !== '');
  return found ? { value: found[0] as T, from: found[1] } : undefined;
}

function sameGateway(a: string, b: string): boolean {
  return a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
}

/** What an API command's action works with. */
export interface ApiContext {
  api: ApiClient;
  out: Output;
  target: ApiTarget;
  /** The command's options (commander's camelCase keys). */
  // biome-ignore lint/suspicious/noExplicitAny: option values are typed by each command's own flags
  opts: Record<string, any>;
  /** The command's arguments, in order (variadic ones as arrays): `const [a, b]: [string, string[]] = args`. */
  // biome-ignore lint/suspicious/noExplicitAny: argument values are typed by each command's own arguments
  args: any;
}

/** Adds the options every API command takes. */
function withApiOptions(command: Command): Command {
  return command
    .option('--url <url>', 'gateway base URL (default: $INFRAGATE_URL, else the saved login)')
    .option('--token <token>', 'API token (default: $INFRAGATE_TOKEN, else the saved login)')
    .option('--json', 'print JSON (the default when stdout is not a terminal)');
}

/** Makes `command` an API command: the shared options, then `handler` with a connected client. */
export function apiAction(command: Command, handler: (context: ApiContext) => Promise<void>): Command {
  return withApiOptions(command).action(async (...params: unknown[]) => {
    const self = params.at(-1) as Command;
    const opts = self.opts();
    const target = await resolveTarget(opts);
    await handler({
      api: new ApiClient(target.url, target.token),
      out: Output.forOptions(opts),
      target,
      opts,
      args: self.processedArgs,
    });
  });
}
