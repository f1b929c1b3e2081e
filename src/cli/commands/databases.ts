import type { Command } from 'commander';
import { apiAction } from '../api-command.js';
import { bool, fileText, nullable, stdinSecret, text, whole } from '../flags.js';
import { crudCommands, recordParams, resource } from '../resource.js';

/** Registered key-value databases (`/api/databases`) and their console (`kv`). */
const databases = resource({ noun: 'database', list: '/api/databases', id: 'id' });

function databaseFlags(creating: boolean) {
  return [
    text('--name <name>', 'name', 'unique name', creating),
    text('--db-url <url>', 'url', 'redis://host[:port][/db] or rediss://… (no credentials in it)', creating),
    nullable('--username <user>', 'username', 'ACL user'),
    stdinSecret('password-stdin', 'password', 'read the password from standard input'),
    whole('--db-index <n>', 'dbIndex', 'database number 0-1023'),
    bool('allow-dangerous', 'allowDangerous', 'allow admin/dangerous commands (with databases:admin)'),
    fileText('--tls-ca <file>', 'tls.caPem', 'PEM CA bundle to trust (rediss:// only)'),
    text('--tls-server-name <name>', 'tls.serverName', 'name to verify and send as SNI (rediss:// only)'),
  ];
}

/**
 * A command line for the console, which reads it like redis-cli: words that need it are quoted
 * so each shell argument stays one argument (spaces, quotes, backslashes, empty strings).
 */
export function commandLine(words: string[]): string {
  return words
    .map((word) =>
      /^[^\s"'\\]+$/.test(word)
        ? word
        : `"${word
            .replace(/[\\"]/g, (char) => `\\${char}`)
            .replace(/\n/g, '\\n')
            .replace(/\r/g, '\\r')
            .replace(/\t/g, '\\t')}"`,
    )
    .join(' ');
}

export function registerDatabases(program: Command): void {
  const area = program
    .command('databases')
    .description('registered key-value databases (databases:view|manage)');
  crudCommands(area, databases, {
    list: {
      columns: ['name', 'url', 'dbIndex', 'hasPassword', 'allowDangerous', 'id'],
      filters: [text('--q <text>', 'q', 'substring of the name')],
    },
    get: 'show a database with a live reachability check',
    create: {
      flags: databaseFlags(true),
      fromArgs: () => ({ type: 'keyvalue' }),
      description: 'register a key-value database',
    },
    update: {
      flags: databaseFlags(false),
      description: 'change a database (-F password=null removes the password)',
    },
  });

  const kv = program.command('kv').description('the key-value console of a registered database');
  apiAction(
    kv
      .command('run <database> <words...>')
      .description('run one command, e.g. infragate kv run cache HGETALL user:1')
      // Words such as `-x` belong to the command; only infragate's own options are read (put `--`
      // before the command when it has a word such as `--json`).
      .allowUnknownOption(),
    async (context) => {
      const [database, words]: [string, string[]] = context.args;
      const { data } = await context.api.call('POST', '/api/databases/{id}/keyvalue/command', {
        path: await recordParams(databases, context, database),
        json: { command: commandLine(words) },
      });
      if (context.out.json) context.out.record(data);
      else
        context.out.line(
          typeof data.result === 'string' ? data.result : JSON.stringify(data.result, null, 2),
        );
    },
  );
  apiAction(
    kv
      .command('history <database>')
      .description('recent console commands on a database')
      .option('--limit <n>', 'how many (1-50, default 50)'),
    async (context) => {
      const { data } = await context.api.call('GET', '/api/databases/{id}/keyvalue/history', {
        path: await recordParams(databases, context, context.args[0]),
        query: { limit: context.opts.limit },
      });
      context.out.list(data, ['createdAt', 'status', 'durationMs', 'command', 'error']);
    },
  );
}
