import type { Duplex, Readable } from 'node:stream';
import type { EgressGuard } from '../../core/egress-guard.js';

/** What the engine takes in X-Registry-Auth. */
export interface RegistryAuth {
  username: string;
  password: string;
  serveraddress: string;
}

// The container engine as the services see it: one node's engine, in the gateway's words. The objects
// it answers are the Engine API's documented JSON (what every transport carries: the Docker Engine API
// over a socket, TCP or SSH today, the agent later), declared here with the fields the gateway reads,
// so no service depends on a client library. An implementation answers the gateway's errors (404
// NOT_FOUND naming the object, 409 ENGINE_CONFLICT, 422 ENGINE_*) and bounds every call by the node's
// deadline; the Docker Engine API's one is `DockerEngine` in docker.ts.

export interface EngineVersion {
  Version: string;
  ApiVersion: string;
  Os?: string;
  Arch?: string;
  KernelVersion?: string;
  Components?: { Name: string; Version: string }[];
}

export interface EnginePortBinding {
  HostIp?: string;
  HostPort?: string;
}

export interface EngineEndpointSettings {
  Aliases?: string[] | null;
  IPAMConfig?: Record<string, unknown> | null;
  NetworkID?: string;
  IPAddress?: string;
  Gateway?: string;
  MacAddress?: string;
}

export interface EngineMount {
  Type: string;
  Name?: string;
  Source: string;
  Destination: string;
  RW: boolean;
}

/** The host settings of a container; the gateway reads a few by name and copies the others as they are. */
export interface EngineHostConfig {
  NanoCpus?: number;
  CpuPeriod?: number;
  CpuQuota?: number;
  Ulimits?: { Name?: string; Soft?: number; Hard?: number }[];
  Binds?: string[];
  Mounts?: { Type: string; Source: string; Target: string; ReadOnly?: boolean }[];
  RestartPolicy?: { Name?: string };
  [setting: string]: unknown;
}

export interface EngineContainerConfig {
  Image: string;
  Cmd?: string[];
  Entrypoint?: string | string[];
  Env?: string[];
  Labels?: Record<string, string>;
  ExposedPorts?: Record<string, object>;
  WorkingDir?: string;
  User?: string;
  Tty?: boolean;
  OpenStdin?: boolean;
  StdinOnce?: boolean;
  StopSignal?: string;
  Healthcheck?: Record<string, unknown>;
  Hostname?: string;
}

export interface EngineContainer {
  Id: string;
  /** With a leading slash (`/web`); see stripSlash. */
  Name: string;
  Image: string;
  Created?: string;
  Config: EngineContainerConfig;
  State: {
    Status: string;
    Running?: boolean;
    Paused?: boolean;
    Restarting?: boolean;
    ExitCode?: number;
    Error?: string;
    StartedAt?: string;
    FinishedAt?: string;
  };
  HostConfig: EngineHostConfig;
  NetworkSettings?: {
    Networks?: Record<string, EngineEndpointSettings>;
    Ports?: Record<string, EnginePortBinding[] | null>;
  };
  Mounts?: EngineMount[];
}

export interface EngineContainerSummary {
  Id: string;
  Names?: string[];
  Image: string;
  ImageID: string;
  Command?: string;
  State: string;
  Status: string;
  Created?: number;
  Ports?: { PrivatePort: number; PublicPort?: number; Type: string; IP?: string }[];
  Labels?: Record<string, string>;
  NetworkSettings?: { Networks?: Record<string, unknown> };
}

/** What a container is created with: the Engine API's create body, and the container's name. */
export interface ContainerCreateRequest {
  name?: string;
  Image: string;
  HostConfig?: EngineHostConfig;
  NetworkingConfig?: { EndpointsConfig: Record<string, EngineEndpointSettings> };
  [setting: string]: unknown;
}

export interface EngineNetwork {
  Id: string;
  Name: string;
  Driver: string;
  Scope: string;
  Internal?: boolean;
  IPAM?: { Config?: { Subnet?: string }[] };
  Created?: string;
  Labels?: Record<string, string>;
  Containers?: Record<string, { Name?: string; IPv4Address?: string }>;
}

export interface NetworkSpec {
  name: string;
  driver: string;
  internal: boolean;
  labels: Record<string, string>;
  subnet?: string | undefined;
}

export interface EngineVolume {
  Name: string;
  Driver: string;
  Mountpoint: string;
  Scope: string;
  CreatedAt?: string;
  Labels?: Record<string, string> | null;
}

export interface EngineImageSummary {
  Id: string;
  RepoTags?: string[];
  RepoDigests?: string[];
  Size: number;
  Created?: number;
  Containers?: number;
  Labels?: Record<string, string>;
}

export interface EngineImage {
  Id: string;
  RepoTags?: string[];
  RepoDigests?: string[];
  Size: number;
  Created?: string;
  Architecture?: string;
  Os?: string;
  Config?: { Labels?: Record<string, string>; Cmd?: string[]; ExposedPorts?: Record<string, object> };
}

/** Which of a container's log lines the engine sends (always with timestamps; the gateway splits on them). */
export interface LogSelection {
  follow: boolean;
  stdout: boolean;
  stderr: boolean;
  tail: number | 'all';
  /** UNIX seconds. */
  since?: number;
  until?: number;
}

/** What the engine says about one path in a container. */
export interface EnginePathStat {
  size: number;
  /** Go's os.FileMode bits, as the engine answers them. */
  mode: number;
  linkTarget?: string;
}

export interface ExecCreation {
  cmd: string[];
  /** `KEY=value` pairs. */
  env?: string[] | undefined;
  workingDir?: string | undefined;
  user?: string | undefined;
  /** A terminal: stdin attached and a TTY (output is then not framed per stream). */
  tty: boolean;
}

/**
 * One node's container engine. Reads answer the Engine API's objects; changes answer only what the
 * gateway needs to know (whether there was anything to do). Streams open within the deadline and then
 * live until they end or `signal` aborts (which destroys them).
 */
export interface EnginePort {
  /** The engine runs on the gateway's own host (a local socket): outbound work on its behalf may use loopback. */
  readonly ownHost: boolean;
  /** The host name at which ports the node publishes are reached. */
  readonly publishedHost: string;
  /** The deadline of one call, in milliseconds. */
  readonly timeoutMs: number;

  version(): Promise<EngineVersion>;

  listContainers(filter: { all: boolean; volume?: string }): Promise<EngineContainerSummary[]>;
  inspectContainer(id: string): Promise<EngineContainer>;
  createContainer(request: ContainerCreateRequest): Promise<{ id: string }>;
  /** A container that is already running is no failure. */
  startContainer(id: string): Promise<{ alreadyRunning: boolean }>;
  /** Waits up to `timeoutSeconds` (the engine's default when undefined) after SIGTERM; a stopped one is no failure. */
  stopContainer(id: string, timeoutSeconds?: number): Promise<{ alreadyStopped: boolean }>;
  restartContainer(id: string, timeoutSeconds?: number): Promise<void>;
  /** SIGKILL unless a signal is named. */
  killContainer(id: string, signal?: string): Promise<void>;
  pauseContainer(id: string): Promise<void>;
  unpauseContainer(id: string): Promise<void>;
  renameContainer(id: string, name: string): Promise<void>;
  /** A running container needs `force`; `removeVolumes` also removes its anonymous volumes. */
  removeContainer(id: string, options: { force: boolean; removeVolumes?: boolean }): Promise<void>;
  /** The engine's statistics of a running container: one JSON document per line, about one a second. */
  containerStats(id: string, signal?: AbortSignal): Promise<Readable>;
  /** A container's log: framed per stream (stdout/stderr) unless the container has a TTY. */
  containerLogs(id: string, selection: LogSelection, signal?: AbortSignal): Promise<Readable>;

  /** undefined when nothing is at `path` (the container itself must exist). */
  statPath(containerId: string, path: string): Promise<EnginePathStat | undefined>;
  /** A tar of what is at `path`. */
  readArchive(containerId: string, path: string, signal?: AbortSignal): Promise<Readable>;
  /** Unpacks `tar` into the directory `path`. */
  writeArchive(containerId: string, path: string, tar: Buffer): Promise<void>;

  /** Prepares a command in a running container; answers the exec's id. */
  createExec(containerId: string, exec: ExecCreation): Promise<string>;
  /** Runs a prepared command: its output (framed per stream without a TTY), and its input with one. */
  startExec(execId: string, options: { tty: boolean }, signal?: AbortSignal): Promise<Duplex>;
  inspectExec(execId: string): Promise<{ running: boolean; exitCode: number | null }>;
  resizeExec(execId: string, cols: number, rows: number): Promise<void>;

  listImages(): Promise<EngineImageSummary[]>;
  inspectImage(reference: string): Promise<EngineImage>;
  removeImage(id: string, options: { force: boolean }): Promise<{ untagged: string[]; deleted: string[] }>;
  /** Removes images that are untagged and unused. */
  pruneDanglingImages(): Promise<{ deleted: string[]; spaceReclaimed: number }>;
  /** The engine's pull progress: one JSON message per line; a failure may come as a message. */
  pullImage(
    image: { fromImage: string; tag?: string | undefined },
    auth: RegistryAuth | undefined,
    signal?: AbortSignal,
  ): Promise<Readable>;

  listNetworks(): Promise<EngineNetwork[]>;
  inspectNetwork(id: string): Promise<EngineNetwork>;
  networkExists(name: string): Promise<boolean>;
  createNetwork(spec: NetworkSpec): Promise<{ id: string }>;
  removeNetwork(id: string): Promise<void>;
  connectNetwork(networkId: string, containerId: string, endpoint?: EngineEndpointSettings): Promise<void>;
  disconnectNetwork(networkId: string, containerId: string, options: { force: boolean }): Promise<void>;

  listVolumes(): Promise<EngineVolume[]>;
  inspectVolume(name: string): Promise<EngineVolume>;
  volumeExists(name: string): Promise<boolean>;
  createVolume(spec: { name: string; driver: string; labels: Record<string, string> }): Promise<void>;
  removeVolume(name: string): Promise<void>;

  /** Waits for `work` (reading one of this engine's streams) at most the deadline; failures answered as calls' are. */
  withinDeadline<T>(work: Promise<T>, what: Record<string, unknown>): Promise<T>;
  /** A failure of one of this engine's streams, as the gateway answers it. */
  failure(error: unknown, what: Record<string, unknown>): Error;
}

/** Networks every engine creates itself; disconnecting from one can cut a container off. */
export const BUILT_IN_NETWORKS = new Set(['bridge', 'host', 'none']);

/** Engines answer container names with a leading slash (`/web`). */
export const stripSlash = (name: string | undefined) => (name ?? '').replace(/^\//, '');

/**
 * The egress guard for outbound work on a node's behalf (probes of its ports, pulls from a registry): a
 * node on a local unix socket is the gateway's own host, so loopback is allowed (EgressGuard.forOwnHost).
 */
export const egressFor = (egress: EgressGuard, engine: { ownHost: boolean }) =>
  engine.ownHost ? egress.forOwnHost() : egress;
