import type { Command } from 'commander';
import { apiAction } from '../api-command.js';
import { CliError } from '../cli-error.js';
import { addFlags, bodyFromFlags, stdinSecret, text } from '../flags.js';
import { PullProgress } from '../pull-progress.js';
import {
  deleteCommand,
  getCommand,
  lsCommand,
  resource,
  resourceCommand,
  updateCommand,
} from '../resource.js';
import { hostParams, onHost } from './container-hosts.js';

/**
 * Images of a container host: list, inspect, pull (with a progress bar), delete, prune; and the
 * registry credentials its pulls use.
 */

const images = resource({
  noun: 'image',
  list: '/api/containerhost/nodes/{nodeId}/images',
  id: 'imageId',
  ...onHost,
});

const pullFlags = [
  text(
    '--username <name>',
    'credentials.username',
    'registry user for this pull only (else the stored credentials)',
  ),
  stdinSecret(
    'password-stdin',
    'credentials.password',
    'read the registry password of --username from standard input',
  ),
];

function registerPull(area: Command): void {
  const command = resourceCommand(
    area,
    images,
    'pull <image>',
    'pull an image onto the host, showing progress on stderr (e.g. registry.example:5000/team/app:1.4)',
  );
  addFlags(command, pullFlags);
  apiAction(command, async (context) => {
    if (Boolean(context.opts.username) !== Boolean(context.opts.passwordStdin))
      throw new CliError('--username and --password-stdin go together');
    const json = { image: context.args[0], ...(await bodyFromFlags(context, pullFlags)) };
    const progress = new PullProgress();
    try {
      const events = context.api.events('POST', '/api/containerhost/nodes/{nodeId}/images/pull', {
        path: await hostParams(context),
        json,
        main: 'progress',
      });
      for await (const event of events) {
        if (event.main) progress.update(event.data);
        else if (event.event === 'pulled') {
          progress.finish();
          context.out.record(event.data);
        }
      }
    } finally {
      progress.finish();
    }
  });
}

export function registerImages(program: Command): void {
  const area = program.command('images').description('images of a container host (--host)');
  lsCommand(area, images, {
    columns: ['repoTags', 'size', 'createdAt', 'id'],
    filters: [text('--q <text>', 'q', 'substring of the id or a tag')],
  });
  getCommand(area, images, 'inspect an image (id or reference such as library/nginx:1.27)');
  registerPull(area);
  deleteCommand(area, images, {
    description: 'delete an image (by id), or untag it (by one of several names)',
    flags: [{ flags: '--force', field: 'force', description: 'also one with several names or in use' }],
  });
  apiAction(
    resourceCommand(area, images, 'prune', 'delete the dangling images (untagged and unused)'),
    async (context) => {
      const answer = await context.api.call('POST', '/api/containerhost/nodes/{nodeId}/images/prune', {
        path: await hostParams(context),
      });
      context.out.record(answer.data);
    },
  );
}

/** `registry-credentials`: a host's stored logins, one per registry; the password goes in, never out. */
export function registerRegistryCredentials(program: Command): void {
  const area = program
    .command('registry-credentials')
    .description('registry logins a container host pulls with (--host; passwords are write-only)');
  const credentials = resource({
    noun: 'registry',
    list: '/api/containerhost/nodes/{nodeId}/registry-credentials',
    id: 'registry',
    ...onHost,
  });
  lsCommand(area, credentials, {
    columns: ['registry', 'username', 'updatedAt'],
    description: 'list the registries the host has credentials for (never the passwords)',
  });
  updateCommand(area, credentials, {
    name: 'set',
    method: 'PUT',
    flags: [
      text('--username <name>', 'username', 'registry user', true),
      {
        ...stdinSecret('password-stdin', 'password', 'read the password or access token from standard input'),
        required: true,
      },
    ],
    description: "store (or replace) a registry's credentials, e.g. set registry.example:5000 --username ci",
  });
  deleteCommand(area, credentials, {
    description: "delete a registry's stored credentials",
    done: 'deleted the credentials of',
  });
}
