import fs from 'node:fs';
import { Command } from 'commander';
import { packagePath } from '../package-root.js';
import { registerAdmin } from './commands/admin.js';
import { registerAgent } from './commands/agent.js';
import { registerApi } from './commands/api.js';
import { registerAudit } from './commands/audit.js';
import { registerAuth } from './commands/auth.js';
import { registerCertificates } from './commands/certificates.js';
import { registerCompletion } from './commands/completion.js';
import { registerContainerHosts } from './commands/container-hosts.js';
import { registerContainers } from './commands/containers.js';
import { registerDatabases } from './commands/databases.js';
import { registerImages, registerRegistryCredentials } from './commands/images.js';
import { registerInference } from './commands/inference.js';
import { registerLocalAdmin } from './commands/local-admin.js';
import { registerLogging } from './commands/logging.js';
import { registerNodes } from './commands/nodes.js';
import { registerNotifications } from './commands/notifications.js';
import { registerPages } from './commands/pages.js';
import { registerRepohost } from './commands/repohost.js';
import { registerSession } from './commands/session.js';
import { registerSiem } from './commands/siem.js';

function packageVersion(): string {
  const manifest = packagePath('package.json');
  return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/**
 * The `infragate` command tree. Every command has `--help`; errors surface as CommanderError (see
 * `exitOverride`) so the entry point prints them as one line. Settings made on the root before
 * the subcommands are added are inherited by all of them.
 */
export function buildProgram(): Command {
  const program = new Command('infragate')
    .description('Administration gateway: run the server, or manage every area through its HTTP API.')
    .version(packageVersion(), '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help for the command')
    .exitOverride()
    .configureOutput({ outputError: () => undefined })
    .showSuggestionAfterError();

  program.commandsGroup('Server and local database (no token needed):');
  registerLocalAdmin(program);
  registerAgent(program);

  program.commandsGroup('Session:');
  registerSession(program);

  program.commandsGroup('Any API operation:');
  registerApi(program);

  program.commandsGroup('Areas (through the API):');
  registerAdmin(program);
  registerAuth(program);
  registerLogging(program);
  registerContainerHosts(program);
  registerContainers(program);
  registerImages(program);
  registerRegistryCredentials(program);
  registerDatabases(program);
  registerCertificates(program);
  registerPages(program);
  registerRepohost(program);
  registerInference(program);
  registerNodes(program);
  registerAudit(program);
  registerSiem(program);
  registerNotifications(program);

  program.commandsGroup('Shell:');
  registerCompletion(program);
  program.helpCommand(true);
  return program;
}
