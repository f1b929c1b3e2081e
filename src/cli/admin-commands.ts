import { type ParseArgsConfig, parseArgs } from 'node:util';
import { systemActor } from '../core/actor.js';
import { tokenScopes } from '../core/auth/scope-input.js';
import { createApiToken } from '../core/auth/tokens.js';
import type { Deps } from '../core/deps.js';
import { parseDuration } from '../core/duration.js';
import { UserService } from '../modules/users/users.js';
import { CliError } from './cli-error.js';
import { alignColumns } from './output.js';

/** What the admin commands run on: the server's deps, or the same four opened by the CLI itself. */
export type AdminContext = Pick<Deps, 'db' | 'audit' | 'principals' | 'secondFactors'>;

export interface CommandOutput {
  stdout: string;
}

const ADMIN_COMMANDS = [
  'groups create',
  'groups list',
  'users create',
  'users list',
  'tokens create',
] as const;

/** `--scopes a, b,c` → `['a', 'b', 'c']`; undefined when the flag is not given. */
const scopeList = (value: string | boolean | undefined): string[] | undefined =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((scope) => scope.trim())
        .filter(Boolean)
    : undefined;

function table(rows: Record<string, unknown>[], columns: string[]): string {
  return alignColumns([columns, ...rows.map((row) => columns.map((column) => String(row[column] ?? '')))]);
}

function list(rows: Record<string, unknown>[], columns: string[], json: boolean): CommandOutput {
  return { stdout: json ? JSON.stringify(rows, null, 2) : table(rows, columns) };
}

/**
 * The administrative CLI commands. They run in the CLI process when it can open the database, or in
 * the running server's process over its admin socket when the embedded database is held by it.
 */
export async function runAdminCommand(
  context: AdminContext,
  argv: string[],
  stdin: string,
): Promise<CommandOutput> {
  const [noun, verb, ...rest] = argv;
  const users = new UserService(context);
  const actor = systemActor();
  const parse = (options: NonNullable<ParseArgsConfig['options']>) =>
    parseArgs({
      args: rest,
      options: { ...options, json: { type: 'boolean' } },
      strict: true,
      allowPositionals: false,
    }).values as Record<string, string | boolean | undefined>;

  switch (`${noun} ${verb}`) {
    case 'groups create': {
      const values = parse({ name: { type: 'string' }, scopes: { type: 'string' } });
      if (typeof values.name !== 'string') throw new CliError('groups create needs --name');
      const group = await users.createGroup(actor, {
        name: values.name,
        scopes: scopeList(values.scopes) ?? [],
      });
      return {
        stdout: values.json
          ? JSON.stringify(group, null, 2)
          : `created group ${group.name} (${group.id}) scopes: ${group.scopes.join(',') || '(none)'}`,
      };
    }
    case 'groups list': {
      const values = parse({});
      const groups = await users.listGroups();
      return list(
        groups.map((g) => ({ ...g, scopes: values.json ? g.scopes : g.scopes.join(',') })),
        ['name', 'scopes', 'userCount', 'id'],
        Boolean(values.json),
      );
    }
    case 'users create': {
      const values = parse({
        email: { type: 'string' },
        name: { type: 'string' },
        group: { type: 'string' },
        'password-stdin': { type: 'boolean' },
      });
      for (const required of ['email', 'name', 'group']) {
        if (typeof values[required] !== 'string') throw new CliError(`users create needs --${required}`);
      }
      const password = values['password-stdin'] ? stdin.replace(/\r?\n$/, '') : undefined;
      if (password !== undefined && password.length < 8)
        throw new CliError('password must be at least 8 characters');
      const user = await users.createUser(actor, {
        email: values.email as string,
        name: values.name as string,
        group: values.group as string,
        password,
      });
      return {
        stdout: values.json
          ? JSON.stringify(user, null, 2)
          : `created user ${user.email} (${user.id}) in group ${user.groupName}`,
      };
    }
    case 'users list': {
      const values = parse({});
      const rows: Record<string, unknown>[] = [];
      for (let page = 1; ; page++) {
        const result = await users.listUsers({ page, limit: 100 });
        rows.push(...result.data);
        if (page >= result.pagination.totalPages) break;
      }
      return list(rows, ['email', 'name', 'groupName', 'disabled', 'id'], Boolean(values.json));
    }
    case 'tokens create': {
      const values = parse({
        email: { type: 'string' },
        name: { type: 'string' },
        expires: { type: 'string' },
        scopes: { type: 'string' },
      });
      if (typeof values.email !== 'string') throw new CliError('tokens create needs --email');
      const user = await users.findUserByEmail(values.email);
      if (!user) throw new CliError(`no user with email ${values.email}`);
      if (user.disabled) throw new CliError(`user ${user.email} is disabled`);
      let expiresAt: Date | null = null;
      if (typeof values.expires === 'string') {
        const seconds = parseDuration(values.expires);
        if (seconds === undefined)
          throw new CliError('--expires takes a duration such as 90m, 12h, 30d or 2w');
        expiresAt = new Date(Date.now() + seconds * 1000);
      }
      const requested = scopeList(values.scopes);
      const issued = await createApiToken(
        context.db,
        context.audit,
        actor,
        {
          userId: user.id,
          name: typeof values.name === 'string' ? values.name : 'cli',
          expiresAt,
          scopes: requested ? tokenScopes(requested, user.scopes) : null,
        },
        { userEmail: user.email, via: 'cli' },
      );
      const expiry = issued.expiresAt ? `expires ${issued.expiresAt.toISOString()}` : 'never expires';
      const scopes = issued.scopes
        ? `scopes ${issued.scopes.join(',') || '(none)'}`
        : "all of the user's scopes";
      return {
        stdout: `token ${issued.id} for ${user.email} (${expiry}; ${scopes}); it is shown once:\n${issued.token}`,
      };
    }
    default:
      throw new CliError(
        `unknown command: ${argv.join(' ')} (expected one of: ${ADMIN_COMMANDS.join(', ')})`,
      );
  }
}
