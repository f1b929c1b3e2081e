import type { Command } from 'commander';
import { apiAction } from '../api-command.js';
import { bool, nullable, text, whole } from '../flags.js';
import { putLocalFile } from '../local-files.js';
import {
  actionCommand,
  createCommand,
  deleteCommand,
  getCommand,
  lsCommand,
  recordParams,
  resource,
  resourceCommand,
} from '../resource.js';
import { createFlags } from './container-create.js';
import { registerContainerFiles } from './container-files.js';
import { hostFlag, hostParams, onHost } from './container-hosts.js';
import { registerContainerStreams } from './container-streams.js';

/** What runs on a container host: containers (with health checks), networks, volumes. */

const containers = resource({
  noun: 'container',
  list: '/api/containerhost/nodes/{nodeId}/containers',
  id: 'containerId',
  ...onHost,
});
/** The same containers, named as their health checks are saved: by name. */
const containersByName = resource({
  noun: 'container',
  list: '/api/containerhost/nodes/{nodeId}/containers',
  id: 'containerName',
  ...onHost,
});
const networks = resource({
  noun: 'network',
  list: '/api/containerhost/nodes/{nodeId}/networks',
  id: 'networkId',
  ...onHost,
});
const volumes = resource({
  noun: 'volume',
  list: '/api/containerhost/nodes/{nodeId}/volumes',
  id: 'name',
  ...onHost,
});
const nameFilter = text('--q <text>', 'q', 'substring of the name');

const healthFlags = [
  bool('enabled', 'enabled', 'run the check on its schedule'),
  text('--scheme <scheme>', 'scheme', 'http or https'),
  whole('--host-port <port>', 'hostPort', 'probe this port on the host'),
  whole('--container-port <port>', 'containerPort', 'probe this port of the container'),
  text('--path <path>', 'path', 'request path, e.g. /healthz'),
  whole('--status-min <code>', 'statusMin', 'lowest healthy status'),
  whole('--status-max <code>', 'statusMax', 'highest healthy status'),
  nullable('--expected-body <text>', 'expectedBody', 'text the body must contain'),
  text('--body-match <mode>', 'bodyMatchMode', 'includes, exact, starts_with or ends_with'),
  whole('--interval <seconds>', 'intervalSeconds', 'seconds between scheduled checks'),
  whole('--timeout <seconds>', 'timeoutSeconds', 'deadline of one probe'),
  whole('--slow-threshold <ms>', 'slowThreshold', 'latency past which a probe counts as slow'),
];

function registerHealth(parent: Command): void {
  const health = parent
    .command('health')
    .description("a container's HTTP health check (saved per container name)");
  actionCommand(health, containersByName, {
    name: 'get',
    method: 'GET',
    path: '/health-check',
    description: 'show the saved check',
  });
  actionCommand(health, containersByName, {
    name: 'set',
    method: 'PUT',
    path: '/health-check',
    flags: healthFlags,
    description: 'save the check (fields left out keep their defaults)',
  });
  actionCommand(health, containersByName, {
    name: 'delete',
    method: 'DELETE',
    path: '/health-check',
    description: 'remove the check',
    done: 'health check deleted',
  });
  actionCommand(health, containersByName, {
    name: 'test',
    path: '/health-check/test',
    flags: healthFlags,
    description: 'probe the container once now (flags override the saved check)',
  });
  const results = resource({
    noun: 'result',
    list: '/api/containerhost/nodes/{nodeId}/containers/{containerName}/health-check/results',
    parents: async (context) => ({ ...(await hostParams(context)), containerName: context.args[0] }),
    scope: [hostFlag],
  });
  lsCommand(health, results, {
    name: 'results <container>',
    columns: ['checkedAt', 'status', 'httpStatus', 'responseMs', 'slow', 'error'],
    description: 'recent results of the scheduled check',
  });
}

const stopTimeout = whole('--timeout <seconds>', 'timeout', 'seconds between SIGTERM and SIGKILL (0-300)');

/** Create, the state changes (start, stop, restart, kill, pause, unpause) and removal. */
function registerLifecycle(area: Command): void {
  createCommand(area, containers, {
    args: '<name> <image> [cmd...]',
    fromArgs: ([name, image, cmd]) => ({
      name,
      image,
      ...(cmd.length > 0 ? { cmd } : {}),
    }),
    flags: createFlags,
    description:
      'create a container from an image on the host (-F for the other fields, e.g. -F memoryBytes=268435456)',
  });
  const states = [
    { name: 'start', description: 'start a container (an already running one is success)', done: 'started' },
    {
      name: 'stop',
      description: 'stop a container (an already stopped one is success)',
      done: 'stopped',
      flags: [stopTimeout],
    },
    { name: 'restart', description: 'restart a container', done: 'restarted', flags: [stopTimeout] },
    {
      name: 'kill',
      description: 'send a signal to a running container (default SIGKILL)',
      done: 'signalled',
      flags: [text('--signal <signal>', 'signal', 'SIGTERM, HUP, 9, …')],
    },
    { name: 'pause', description: 'pause the processes of a running container', done: 'paused' },
    { name: 'unpause', description: 'resume a paused container', done: 'unpaused' },
  ] as const;
  for (const state of states) actionCommand(area, containers, { ...state, path: `/${state.name}` as const });
  actionCommand(area, containers, {
    name: 'recreate',
    path: '/recreate',
    flags: [{ flags: '--pull', field: 'pull', description: 'pull the image again first' }],
    description: 'replace a container with a new one of the same configuration (running again if it ran)',
  });
  deleteCommand(area, containers, {
    description: 'remove a container',
    done: 'removed',
    flags: [
      { flags: '--force', field: 'force', description: 'also a running one (it is killed)' },
      { flags: '--volumes', field: 'removeVolumes', description: 'also its anonymous volumes' },
    ],
  });
}

export function registerContainers(program: Command): void {
  const area = program.command('containers').description('containers of a container host (--host)');
  lsCommand(area, containers, {
    columns: ['name', 'image', 'state', 'status', 'id'],
    filters: [nameFilter, { flags: '--all', field: 'all', description: 'include stopped containers' }],
  });
  getCommand(area, containers, 'inspect a container (by name or id)');
  registerLifecycle(area);
  registerContainerStreams(area, containers);
  registerContainerFiles(area, containers);
  actionCommand(area, containers, {
    name: 'move-file <from> <to>',
    path: '/files/move',
    fromArgs: ([fromPath, toPath]) => ({ fromPath, toPath }),
    description: 'move a file inside a running container (mv, absolute paths)',
    done: 'moved',
  });
  registerHealth(area);

  const networkArea = program.command('networks').description('networks of a container host (--host)');
  lsCommand(networkArea, networks, {
    columns: ['name', 'driver', 'scope', 'builtIn', 'id'],
    filters: [nameFilter],
  });
  getCommand(networkArea, networks, 'inspect a network and its containers');
  createCommand(networkArea, networks, {
    args: '<name>',
    fromArgs: ([name]) => ({ name }),
    flags: [
      text('--driver <driver>', 'driver', 'network driver (default bridge)'),
      bool('internal', 'internal', 'no route to the outside'),
      text('--subnet <cidr>', 'subnet', 'e.g. 10.42.0.0/24'),
    ],
  });
  deleteCommand(networkArea, networks, { description: 'delete a network no container is attached to' });
  actionCommand(networkArea, networks, {
    name: 'connect <container>',
    path: '/connect',
    fromArgs: ([containerId]) => ({ containerId }),
    flags: [
      {
        flags: '--alias <name>',
        field: 'aliases',
        description: 'a name the container has on this network',
        repeatable: true,
      },
    ],
    description: 'connect a container to a network',
    done: 'connected',
  });
  actionCommand(networkArea, networks, {
    name: 'disconnect <container>',
    path: '/disconnect',
    fromArgs: ([containerId]) => ({ containerId }),
    query: [{ flags: '--force', field: 'force', description: 'also from bridge, host or none' }],
    description: 'disconnect a container from a network',
    done: 'disconnected',
  });

  const volumeArea = program.command('volumes').description('volumes of a container host (--host)');
  lsCommand(volumeArea, volumes, { columns: ['name', 'driver', 'mountpoint'], filters: [nameFilter] });
  getCommand(volumeArea, volumes);
  createCommand(volumeArea, volumes, {
    args: '<name>',
    fromArgs: ([name]) => ({ name }),
    flags: [text('--driver <driver>', 'driver', 'volume driver (default local)')],
  });
  deleteCommand(volumeArea, volumes, {
    flags: [{ flags: '--force', field: 'force', description: 'first remove the containers that use it' }],
  });
  apiAction(
    resourceCommand(
      volumeArea,
      volumes,
      'write <volume> <path> <file>',
      'write a local file (- for standard input) to a path in the volume',
    ),
    async (context) => {
      const [volume, path, file]: [string, string, string] = context.args;
      const params = await recordParams(volumes, context, volume);
      await putLocalFile(context, { file, path, where: `${volume}:${path}` }, (upload) =>
        context.api.call('PUT', '/api/containerhost/nodes/{nodeId}/volumes/{name}/files/write', {
          path: params,
          ...upload,
        }),
      );
    },
  );
}
