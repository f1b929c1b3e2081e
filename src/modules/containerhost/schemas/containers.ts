import { type Static, Type } from 'typebox';
import { NamedObject, StringEnum } from '../../../core/http-schemas.js';

/** Creating a container and the lifecycle actions on it (start, restart, kill, pause, remove, recreate). */

export const RESTART_POLICIES = ['no', 'always', 'unless-stopped', 'on-failure'] as const;
export const PORT_PROTOCOLS = ['tcp', 'udp', 'sctp'] as const;
export const MOUNT_TYPES = ['volume', 'bind'] as const;

/** Engine names of containers, networks and volumes (Docker's rule), at most the 64 a path key takes. */
export const ENGINE_NAME_PATTERN = '^[a-zA-Z0-9][a-zA-Z0-9_.-]*$';
export const EngineName = (description: string) =>
  Type.String({ minLength: 1, maxLength: 64, pattern: ENGINE_NAME_PATTERN, description });

const Argument = Type.String({ maxLength: 4096 });
const Arguments = (description: string) => Type.Array(Argument, { minItems: 1, maxItems: 256, description });

/** Environment variables by name; a name is 1-256 characters without `=` (checked by the service). */
export const Environment = Type.Record(Type.String(), Type.String({ maxLength: 32_768 }), {
  maxProperties: 256,
  description: 'variables by name, e.g. {"LOG_LEVEL": "info"}',
});

/** Labels by key; a key is 1-512 characters (checked by the service). */
export const Labels = Type.Record(Type.String(), Type.String({ maxLength: 4096 }), { maxProperties: 256 });

const Port = Type.Integer({ minimum: 1, maximum: 65535 });
const AbsolutePath = (description: string) => Type.String({ minLength: 1, maxLength: 4096, description });

export const ContainerCreation = Type.Object({
  name: EngineName('container name'),
  image: Type.String({
    minLength: 1,
    maxLength: 512,
    description: 'image reference; it must be on the node',
  }),
  cmd: Type.Optional(Arguments("command and arguments; default the image's")),
  entrypoint: Type.Optional(Arguments("entrypoint; default the image's")),
  env: Type.Optional(Environment),
  labels: Type.Optional(Labels),
  ports: Type.Optional(
    Type.Array(
      Type.Object({
        containerPort: Port,
        hostPort: Type.Optional(
          Type.Integer({ minimum: 0, maximum: 65535, description: '0 or absent: any free port' }),
        ),
        hostIp: Type.Optional(
          Type.String({ minLength: 1, maxLength: 45, description: 'IP address to publish on' }),
        ),
        protocol: Type.Optional(StringEnum(PORT_PROTOCOLS, undefined, { default: 'tcp' })),
      }),
      { maxItems: 100 },
    ),
  ),
  mounts: Type.Optional(
    Type.Array(
      Type.Object({
        type: StringEnum(MOUNT_TYPES),
        source: Type.String({
          minLength: 1,
          maxLength: 4096,
          description: 'volume name, or an absolute path on the node for a bind mount',
        }),
        target: AbsolutePath('absolute path in the container'),
        readOnly: Type.Optional(Type.Boolean({ default: false })),
      }),
      { maxItems: 50 },
    ),
  ),
  networks: Type.Optional(
    Type.Array(EngineName('network name or id'), { minItems: 1, maxItems: 16, uniqueItems: true }),
  ),
  restartPolicy: Type.Optional(StringEnum(RESTART_POLICIES)),
  memoryBytes: Type.Optional(
    Type.Integer({
      minimum: 6 * 1024 * 1024,
      maximum: 2 ** 50,
      description: 'memory limit in bytes (at least 6 MiB)',
    }),
  ),
  cpus: Type.Optional(Type.Number({ minimum: 0.01, maximum: 1024, description: 'CPU limit, e.g. 1.5' })),
  start: Type.Optional(Type.Boolean({ default: false, description: 'start the container once created' })),
});

/** Seconds the engine waits after SIGTERM before SIGKILL. */
const StopTimeout = Type.Optional(
  Type.Integer({ minimum: 0, maximum: 300, description: "seconds before SIGKILL; default the engine's" }),
);
/** The body of stop and restart. */
export const StopOptions = NamedObject('StopOptions', { timeout: StopTimeout });

export const KillOptions = Type.Object({
  signal: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 16,
      pattern: '^(SIG)?[A-Z][A-Z0-9+-]*$|^[0-9]{1,2}$',
      description: 'signal name or number; default SIGKILL',
    }),
  ),
});

export const RemoveQuery = Type.Object({
  force: Type.Optional(
    Type.Boolean({ default: false, description: 'remove a running container (killed first)' }),
  ),
  removeVolumes: Type.Optional(
    Type.Boolean({ default: false, description: 'also remove its anonymous volumes' }),
  ),
});

export const RecreateOptions = Type.Object({
  pull: Type.Optional(
    Type.Boolean({ default: false, description: 'pull the image again before re-creating' }),
  ),
});

export type ContainerCreation = Static<typeof ContainerCreation>;
export type StopOptions = Static<typeof StopOptions>;
export type KillOptions = Static<typeof KillOptions>;
export type RemoveQuery = Static<typeof RemoveQuery>;
export type RecreateOptions = Static<typeof RecreateOptions>;
