import type { Command } from 'commander';

/**
 * The commands that work on the gateway's own database, without a running server and without a
 * token: `serve`, `migrate` and the bootstrap commands `groups`, `users` and `tokens`. They read
 * the server's configuration from the environment (INFRAGATE_DATA_DIR, DATABASE_URL …). The API
 * counterparts of the last three are `admin users`, `admin groups` and `auth tokens`.
 *
 * Their implementation loads the database drivers, so it is imported only when one of them runs.
 */

/** The command line `runAdminCommand` parses, rebuilt from what commander read. */
function adminArgv(command: Command, words: string[]): string[] {
  const argv = [...words];
  const values = command.opts();
  for (const option of command.options) {
    const value = values[option.attributeName()];
    if (value === undefined || value === false) continue;
    argv.push(option.long!);
    if (value !== true) argv.push(String(value));
  }
  return argv;
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** Runs an admin command in the server that holds the embedded database, else on the database itself. */
async function runLocally(argv: string[]): Promise<void> {
  const [{ loadConfig }, { runViaAdminSocket }, { runAdminCommand }, { openStorage }] = await Promise.all([
    import('../../config.js'),
    import('../admin-socket.js'),
    import('../admin-commands.js'),
    import('../../storage.js'),
  ]);
  const config = loadConfig();
  const stdin = argv.includes('--password-stdin') ? await readStdin() : '';
  // The embedded database belongs to a running server if there is one: ask it to run the command.
  const remote = config.databaseUrl ? undefined : await runViaAdminSocket(config.dataDir, argv, stdin);
  if (remote) {
    process.stdout.write(`${remote.stdout}\n`);
    return;
  }
  const [{ AuditRecorder }, { PrincipalResolver }, { SecondFactorPort }] = await Promise.all([
    import('../../core/audit-recorder.js'),
    import('../../core/auth/principal-resolver.js'),
    import('../../core/second-factors.js'),
  ]);
  const storage = await openStorage(config);
  try {
    const output = await runAdminCommand(
      {
        db: storage.database.db,
        audit: new AuditRecorder(),
        principals: new PrincipalResolver(storage.database.db),
        // Left unserved: no admin command resets a second factor (that is the API's, with the auth module).
        secondFactors: new SecondFactorPort(),
      },
      argv,
      stdin,
    );
    process.stdout.write(`${output.stdout}\n`);
  } finally {
    await storage.database.close();
  }
}

function adminCommand(parent: Command, verb: string, description: string): Command {
  const command = parent.command(verb).description(description);
  return command.action(() => runLocally(adminArgv(command, [parent.name(), verb])));
}

export function registerLocalAdmin(program: Command): void {
  program
    .command('serve')
    .description(
      'start the gateway (PORT, HOST, INFRAGATE_DATA_DIR, DATABASE_URL …); SIGTERM/SIGINT drain and stop',
    )
    .action(async () => {
      const [{ loadConfig }, { serve }] = await Promise.all([
        import('../../config.js'),
        import('../serve.js'),
      ]);
      await serve(loadConfig());
    });

  program
    .command('migrate')
    .description('apply pending database migrations')
    .action(async () => {
      const [{ loadConfig }, { openStorage }] = await Promise.all([
        import('../../config.js'),
        import('../../storage.js'),
      ]);
      const storage = await openStorage(loadConfig());
      await storage.database.close();
      process.stdout.write(
        storage.migrated.length ? `applied: ${storage.migrated.join(', ')}\n` : 'database is up to date\n',
      );
    });

  const local = ' in the local database (no server or token needed; the API: infragate admin';
  const groups = program.command('groups').description(`groups${local} groups)`);
  adminCommand(groups, 'create', 'create a group (an empty scope list is allowed)')
    .requiredOption('--name <name>', 'group name')
    .option('--scopes <a,b>', 'comma-separated scopes, e.g. logging:view,pages:*')
    .option('--json', 'print JSON');
  adminCommand(groups, 'list', 'list groups').alias('ls').option('--json', 'print JSON');

  const users = program.command('users').description(`users${local} users)`);
  adminCommand(users, 'create', 'create a user')
    .requiredOption('--email <email>', 'login email')
    .requiredOption('--name <name>', 'display name')
    .requiredOption('--group <group>', 'group name or id')
    .option('--password-stdin', 'read the password (8 characters or more) from standard input')
    .option('--json', 'print JSON');
  adminCommand(users, 'list', 'list users').alias('ls').option('--json', 'print JSON');

  const tokens = program
    .command('tokens')
    .description('API tokens issued from the local database (the API: infragate auth tokens)');
  adminCommand(tokens, 'create', 'create an API token; the token is printed alone on the last line')
    .requiredOption('--email <email>', 'the user the token acts as')
    .option('--name <name>', 'token name (default: cli)')
    .option('--expires <duration>', 'lifetime such as 90m, 12h, 30d or 2w (default: never)')
    .option('--scopes <a,b>', "narrow the token to these of the user's scopes (default: all of them)");
}
