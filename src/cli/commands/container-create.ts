import { CliError } from '../cli-error.js';
import { type Flag, text } from '../flags.js';
import type { BodyField } from '../resource.js';

/** The flags of `containers create` that say in a word what the body says in a structure. */

/** `NAME=value` pairs into `{NAME: value}` (the value may hold `=`; `NAME` alone is an empty value). */
function envObject(pairs: string[]): Record<string, string> {
  return Object.fromEntries(
    pairs.map((pair) => {
      const equals = pair.indexOf('=');
      if (equals === 0) throw new CliError(`--env takes NAME=value, not ${pair}`);
      return equals < 0 ? [pair, ''] : [pair.slice(0, equals), pair.slice(equals + 1)];
    }),
  );
}

const PUBLISH =
  /^(?:(?:(?<hostIp>\[[0-9a-f:.]+\]|[0-9.]+):)?(?<hostPort>\d*):)?(?<containerPort>\d+)(?:\/(?<protocol>tcp|udp|sctp))?$/i;

/** `[[hostIp:]hostPort:]containerPort[/protocol]`, as `docker run -p` writes it, into a port of the body. */
export function publishedPort(spec: string): Record<string, unknown> {
  const match = PUBLISH.exec(spec)?.groups;
  if (!match) throw new CliError(`--publish takes [[hostIp:]hostPort:]containerPort[/protocol], not ${spec}`);
  return {
    containerPort: Number(match.containerPort),
    ...(match.hostPort ? { hostPort: Number(match.hostPort) } : {}),
    ...(match.hostIp ? { hostIp: match.hostIp.replace(/^\[|\]$/g, '') } : {}),
    ...(match.protocol ? { protocol: match.protocol.toLowerCase() } : {}),
  };
}

/** `-e NAME=value`, repeatable: the `env` object of a create or an exec. */
export const envFlag: Flag<'env'> = {
  flags: '-e, --env <NAME=value>',
  field: 'env',
  description: 'an environment variable',
  repeatable: true,
  parse: envObject,
};

export const createFlags: Flag<BodyField<'/api/containerhost/nodes/{nodeId}/containers', 'POST'>>[] = [
  envFlag,
  {
    flags: '-p, --publish <[[ip:]hostPort:]port[/proto]>',
    field: 'ports',
    description: 'publish a container port on the host (no host port: any free one)',
    repeatable: true,
    parse: (specs: string[]) => specs.map(publishedPort),
  },
  {
    flags: '--network <network>',
    field: 'networks',
    description: 'attach to a network (the first at create, the others before the start)',
    repeatable: true,
  },
  text('--restart <policy>', 'restartPolicy', 'no, always, unless-stopped or on-failure'),
  { flags: '--start', field: 'start', description: 'start it once created' },
];
