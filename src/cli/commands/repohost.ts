import type { Command } from 'commander';
import { apiAction } from '../api-command.js';
import { CliError } from '../cli-error.js';
import { type Flag, stdinSecret, text } from '../flags.js';
import { actionCommand, crudCommands, type Resource, unwrap } from '../resource.js';

/** Repository-host connectors (GitLab API v4): tested before they are saved, the token write-only. */
export const connectors: Resource = { noun: 'connector', route: '/api/integrations/repohost/connectors' };

const hostToken = stdinSecret(
  'host-token-stdin',
  'token',
  "read the repository host's access token from standard input",
);

/** `--allow group:11:platform` or `project:1001:platform/service-1`, repeatable. */
const allowlist: Flag = {
  flags: '--allow <type:remoteId:fullPath>',
  field: 'allowlist',
  description: 'an allowlist entry: group or project, its numeric id and full path',
  repeatable: true,
  parse: (entries: string[]) =>
    entries.map((entry) => {
      const [entryType, remoteId, ...path] = entry.split(':');
      if ((entryType !== 'group' && entryType !== 'project') || !remoteId || path.length === 0)
        throw new CliError(`--allow ${entry} is not group:<id>:<path> or project:<id>:<path>`);
      return { entryType, remoteId, fullPath: path.join(':') };
    }),
};

const connectorFlags = (creating: boolean): Flag[] => [
  text('--name <name>', 'name', 'unique name', creating),
  text('--base-url <url>', 'baseUrl', 'the host, e.g. https://gitlab.example.com', creating),
  { ...hostToken, required: creating },
  allowlist,
];

export function registerRepohost(program: Command): void {
  const area = program
    .command('repohost')
    .description('repository-host connectors, GitLab API v4 (integrations:view|manage)');
  crudCommands(area, connectors, {
    list: {
      columns: ['name', 'baseUrl', 'lastTestOk', 'tokenExpiresAt', 'id'],
      filters: [text('--q <text>', 'q', 'substring of the name')],
    },
    create: { flags: connectorFlags(true), description: 'test and save a connector' },
    update: {
      flags: connectorFlags(false),
      description: 'change a connector (a new URL, token or allowlist is tested first)',
    },
  });
  actionCommand(area, connectors, {
    name: 'test',
    path: '/test',
    description: 're-test a connector with its stored token',
  });
  apiAction(
    area
      .command('preview-test')
      .description(
        'test a URL and token without saving anything: capabilities, user, visible groups and projects',
      )
      .requiredOption('--base-url <url>', 'the host, e.g. https://gitlab.example.com')
      .requiredOption(`${hostToken.flags}`, hostToken.description),
    async (context) => {
      const token = await hostToken.parse!(true, context);
      const answer = await context.api.call('POST', `${connectors.route}/preview-test`, {
        json: { baseUrl: context.opts.baseUrl, token },
      });
      context.out.record(unwrap(answer));
    },
  );
}
