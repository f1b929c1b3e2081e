import type { Command } from 'commander';
import type { ApiContext } from '../api-command.js';
import { type Flag, fileText, nullable, text, whole } from '../flags.js';
import { crudCommands, type Resource, recordRoute } from '../resource.js';

/** Container hosts: Docker Engine endpoints (`/api/containerhost/nodes`). */
export const hosts: Resource = { noun: 'host', route: '/api/containerhost/nodes' };

/** `--host <name|id>`, the option of every command on a host's containers, networks, volumes, images. */
export const hostFlag: Flag = {
  flags: '--host <host>',
  field: 'host',
  description: 'container host (name or id; see infragate hosts ls)',
  required: true,
};

/** `/api/containerhost/nodes/<id of --host>/<collection>` */
export async function underHost(context: ApiContext, collection: string): Promise<string> {
  return `${await recordRoute(hosts, context, context.opts.host)}/${collection}`;
}

/** A collection on a host (`containers`, `images`, …), whose names the API takes as they are. */
export const onHost = (noun: string, collection: string): Resource => ({
  noun,
  route: (context) => underHost(context, collection),
  lookup: 'as-is',
  scope: [hostFlag],
});

function hostFlags(required: boolean): Flag[] {
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

const folders: Resource = { noun: 'folder', route: '/api/containerhost/folders', lookup: { by: 'name' } };
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
