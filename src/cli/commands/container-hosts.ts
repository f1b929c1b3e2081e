import type { Command } from 'commander';
import type { ApiContext } from '../api-command.js';
import { type Flag, fileText, nullable, text, whole } from '../flags.js';
import { crudCommands, idOf, resource } from '../resource.js';

/** Container hosts: Docker Engine endpoints (`/api/containerhost/nodes`). */
export const hosts = resource({ noun: 'host', list: '/api/containerhost/nodes', id: 'nodeId' });

/** `--host <name|id>`, the option of every command on a host's containers, networks, volumes, images. */
export const hostFlag: Flag = {
  flags: '--host <host>',
  field: 'host',
  description: 'container host (name or id; see infragate hosts ls)',
  required: true,
};

/** `{nodeId}` of the routes on the host `--host` names. */
export async function hostParams(context: ApiContext): Promise<{ nodeId: string }> {
  return { nodeId: await idOf(hosts, context, context.opts.host) };
}

/**
 * What a collection on a host (`containers`, `images`, …) adds to its resource: `--host`, and
 * names the API takes as they are.
 */
export const onHost = { parents: hostParams, lookup: 'as-is', scope: [hostFlag] } as const;

function hostFlags(required: boolean) {
  return [
    text('--name <name>', 'name', 'unique name of the host', required),
    text(
      '--endpoint <url>',
      'endpoint',
      'unix:///path.sock, tcp://host:port or ssh://user@host[:port]',
      required,
    ),
    fileText('--tls-ca <file>', 'tlsCa', 'PEM CA to verify a tcp:// engine'),
    fileText('--tls-cert <file>', 'tlsCert', 'PEM client certificate (with --tls-key)'),
    fileText('--tls-key <file>', 'tlsKey', 'PEM client key (with --tls-cert)'),
    fileText('--ssh-key <file>', 'sshPrivateKey', 'PEM private key for ssh://'),
    nullable('--helper-image <image>', 'helperImage', 'image of the volume-write helper container'),
  ];
}

const folders = resource({
  noun: 'folder',
  list: '/api/containerhost/folders',
  id: 'id',
  lookup: { by: 'name' },
});
const FOLDER_TYPES = 'container, image, network, volume or compose';

export function registerContainerHosts(program: Command): void {
  const area = program
    .command('hosts')
    .description('container hosts: Docker Engine endpoints the gateway manages (containerhost:view|manage)');
  crudCommands(area, hosts, {
    list: {
      columns: ['name', 'endpoint', 'transport', 'id'],
      filters: [text('--q <text>', 'q', 'substring of the name')],
    },
    get: 'show a host and ask its engine for its version',
    create: { flags: hostFlags(true), description: 'register a container host' },
    update: {
      flags: hostFlags(false),
      description: 'change a host (-F tlsCa=null clears a secret)',
    },
  });

  const folderArea = program
    .command('container-folders')
    .description('folders grouping containers, images, networks, volumes and compose projects in listings');
  crudCommands(folderArea, folders, {
    list: {
      columns: ['name', 'resourceType', 'sortOrder', 'id'],
      filters: [
        text('--type <type>', 'resourceType', `only folders of this resource type (${FOLDER_TYPES})`),
      ],
    },
    create: {
      flags: [
        text('--name <name>', 'name', 'folder name', true),
        text('--type <type>', 'resourceType', `resource type (${FOLDER_TYPES})`, true),
        whole('--sort-order <n>', 'sortOrder', 'position among folders'),
      ],
    },
    update: {
      method: 'PUT',
      flags: [
        text('--name <name>', 'name', 'new name'),
        whole('--sort-order <n>', 'sortOrder', 'new position'),
      ],
    },
  });
}
