import type { Command } from 'commander';
import { apiAction } from '../api-command.js';
import { CliError } from '../cli-error.js';
import { addFlags, bodyFromFlags, type Flag, stdinSecret, text } from '../flags.js';
import { actionCommand, crudCommands, resource } from '../resource.js';

/** Repository-host connectors (GitLab API v4): tested before they are saved, the token write-only. */
export const connectors = resource({
  noun: 'connector',
  list: '/api/integrations/repohost/connectors',
  id: 'id',
});

const hostToken = stdinSecret(
  'host-token-stdin',
  'token',
  "read the repository host's access token from standard input",
);

/** `--allow group:11:platform` or `project:1001:platform/service-1`, repeatable. */
const allowlist: Flag<'allowlist'> = {
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

const connectorFlags = (creating: boolean) => [
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
  const previewFlags = [
    text('--base-url <url>', 'baseUrl', 'the host, e.g. https://gitlab.example.com', true),
    { ...hostToken, required: true },
  ];
  apiAction(
    addFlags(
      area
        .command('preview-test')
        .description(
          'test a URL and token without saving anything: capabilities, user, visible groups and projects',
        ),
      previewFlags,
    ),
    async (context) => {
      const answer = await context.api.call('POST', '/api/integrations/repohost/connectors/preview-test', {
        json: await bodyFromFlags(context, previewFlags),
      });
      context.out.record(answer.data);
    },
  );
}
