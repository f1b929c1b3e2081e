#!/usr/bin/env node
import { CliError, describeError, runAdminCommand } from './cli/admin-commands.js';
import { runViaAdminSocket } from './cli/admin-socket.js';
import { serve } from './cli/serve.js';
import { runUpload } from './cli/upload.js';
import { loadConfig } from './config.js';
import { AuditRecorder } from './core/audit-recorder.js';
import { PrincipalResolver } from './core/auth/principal-resolver.js';
import { openStorage } from './storage.js';

const USAGE = `usage: infragate <command>

  serve                                              start the gateway (PORT, HOST, INFRAGATE_DATA_DIR, DATABASE_URL…)
  migrate                                            apply pending database migrations
  groups create --name G --scopes a,b                create a group (an empty scope list is allowed)
  groups list [--json]
  users create --email E --name N --group G [--password-stdin]
  users list [--json]
  tokens create --email E [--name N] [--expires 30d] print a new API token on the last line
  upload --node <name|id> <local-file> <remote-path>  upload a file through the API (resumable; see upload --help)
`;

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function main(argv: string[]): Promise<void> {
  const [command] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(USAGE);
    return;
  }
  // A client of the HTTP API (INFRAGATE_URL, INFRAGATE_TOKEN): needs no server configuration.
  if (command === 'upload') {
    process.stdout.write(`${await runUpload(argv.slice(1))}\n`);
    return;
  }
  const config = loadConfig();
  if (command === 'serve') return serve(config);
  if (command === 'migrate') {
    const storage = await openStorage(config);
    await storage.database.close();
    process.stdout.write(
      storage.migrated.length ? `applied: ${storage.migrated.join(', ')}\n` : 'database is up to date\n',
    );
    return;
  }
  if (!['groups', 'users', 'tokens'].includes(command))
    throw new CliError(`unknown command ${command}; see infragate --help`);

  const stdin = argv.includes('--password-stdin') ? await readStdin() : '';
  // The embedded database belongs to a running server if there is one: ask it to run the command.
  const remote = config.databaseUrl ? undefined : await runViaAdminSocket(config.dataDir, argv, stdin);
  if (remote) {
    process.stdout.write(`${remote.stdout}\n`);
    return;
  }
  const storage = await openStorage(config);
  try {
    const output = await runAdminCommand(
      {
        db: storage.database.db,
        audit: new AuditRecorder(),
        principals: new PrincipalResolver(storage.database.db),
      },
      argv,
      stdin,
    );
    process.stdout.write(`${output.stdout}\n`);
  } finally {
    await storage.database.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`infragate: ${describeError(error).split('\n').join('; ')}\n`);
  process.exit(1);
});
