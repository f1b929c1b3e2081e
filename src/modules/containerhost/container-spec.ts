import net from 'node:net';
import { type ValidationIssue, validationError } from '../../core/errors.js';
import { envList } from './engine-exec.js';
import {
  type ContainerCreateRequest,
  type EngineContainer,
  type EngineEndpointSettings,
  type EngineHostConfig,
  stripSlash,
} from './engine-port.js';
import { type ContainerCreation, ENGINE_NAME_PATTERN } from './schemas/containers.js';

// What the engine is asked to create: from a create request, or from an existing container (recreate).

/** A create request for the engine, and the networks to connect once created (one goes in the create). */
export interface CreatePlan {
  options: ContainerCreateRequest;
  extraNetworks: { name: string; endpoint: EngineEndpointSettings }[];
}

const ENGINE_NAME = new RegExp(ENGINE_NAME_PATTERN);

/** Label keys the schema cannot check (a record's keys are free text there). */
export function labelIssues(labels: Record<string, string> | undefined): ValidationIssue[] {
  return Object.keys(labels ?? {})
    .filter((key) => key === '' || key.length > 512)
    .map((key) => ({ path: ['labels', key], message: 'a label key is 1-512 characters' }));
}

/** Checks what the schema cannot: names of variables and labels, addresses, mount paths. */
export function checkCreation(input: ContainerCreation): void {
  const issues: ValidationIssue[] = [];
  for (const name of Object.keys(input.env ?? {}))
    if (name === '' || name.length > 256 || name.includes('='))
      issues.push({ path: ['env', name], message: 'a variable name is 1-256 characters without =' });
  issues.push(...labelIssues(input.labels));
  (input.ports ?? []).forEach((port, index) => {
    if (port.hostIp !== undefined && !net.isIP(port.hostIp))
      issues.push({ path: ['ports', index, 'hostIp'], message: 'must be an IPv4 or IPv6 address' });
  });
  (input.mounts ?? []).forEach((mount, index) => {
    if (!mount.target.startsWith('/'))
      issues.push({ path: ['mounts', index, 'target'], message: 'must be an absolute path' });
    if (mount.type === 'bind' && !mount.source.startsWith('/'))
      issues.push({
        path: ['mounts', index, 'source'],
        message: 'a bind mount needs an absolute path on the node',
      });
    if (mount.type === 'volume' && !ENGINE_NAME.test(mount.source))
      issues.push({ path: ['mounts', index, 'source'], message: 'must be a volume name' });
  });
  if (issues.length > 0) throw validationError(issues);
}

export function createPlan(input: ContainerCreation): CreatePlan {
  const exposed: Record<string, object> = {};
  const bindings: Record<string, { HostIp: string; HostPort: string }[]> = {};
  for (const port of input.ports ?? []) {
    const key = `${port.containerPort}/${port.protocol ?? 'tcp'}`;
    exposed[key] = {};
    const binding = { HostIp: port.hostIp ?? '', HostPort: port.hostPort ? String(port.hostPort) : '' };
    bindings[key] = [...(bindings[key] ?? []), binding];
  }
  const [firstNetwork, ...otherNetworks] = input.networks ?? [];
  return {
    options: {
      name: input.name,
      Image: input.image,
      ...(input.cmd ? { Cmd: input.cmd } : {}),
      ...(input.entrypoint ? { Entrypoint: input.entrypoint } : {}),
      ...(input.env ? { Env: envList(input.env) } : {}),
      Labels: input.labels ?? {},
      ExposedPorts: exposed,
      HostConfig: {
        PortBindings: bindings,
        Mounts: (input.mounts ?? []).map((mount) => ({
          Type: mount.type,
          Source: mount.source,
          Target: mount.target,
          ReadOnly: mount.readOnly ?? false,
        })),
        ...(input.restartPolicy ? { RestartPolicy: { Name: input.restartPolicy } } : {}),
        ...(input.memoryBytes ? { Memory: input.memoryBytes } : {}),
        ...(input.cpus ? { NanoCpus: Math.round(input.cpus * 1e9) } : {}),
        ...(firstNetwork ? { NetworkMode: firstNetwork } : {}),
      },
      ...(firstNetwork ? { NetworkingConfig: { EndpointsConfig: { [firstNetwork]: {} } } } : {}),
    },
    extraNetworks: otherNetworks.map((name) => ({ name, endpoint: {} })),
  };
}

/** Host settings a re-created container keeps, as the engine answered them in the inspect. */
const KEPT_HOST_SETTINGS = [
  'Binds',
  'Mounts',
  'PortBindings',
  'PublishAllPorts',
  'RestartPolicy',
  'NetworkMode',
  'Memory',
  'MemoryReservation',
  'MemorySwap',
  'CpuShares',
  'CpusetCpus',
  'Privileged',
  'CapAdd',
  'CapDrop',
  'Devices',
  'Dns',
  'DnsOptions',
  'DnsSearch',
  'ExtraHosts',
  'GroupAdd',
  'SecurityOpt',
  'ReadonlyRootfs',
  'Tmpfs',
  'Init',
  'Sysctls',
  'LogConfig',
] as const;

/** Namespace modes worth keeping: sharing the host's or another container's (the rest are defaults). */
const SHARED_NAMESPACE = /^(host|container:.+)$/;

/**
 * The host configuration of a re-created container: the settings above, CPU limits in one form (an
 * engine may answer NanoCpus beside the period and quota it derived, and refuse both in a create), ulimits
 * by their short names (Podman answers RLIMIT_NOFILE, takes nofile), and shared namespaces.
 */
function keptHostConfig(inspected: EngineHostConfig): EngineHostConfig {
  const source = inspected;
  const kept: Record<string, unknown> = {};
  for (const key of KEPT_HOST_SETTINGS)
    if (source[key] !== undefined && source[key] !== null) kept[key] = source[key];
  if (inspected.NanoCpus) kept.NanoCpus = inspected.NanoCpus;
  else if (inspected.CpuQuota)
    Object.assign(kept, { CpuPeriod: inspected.CpuPeriod, CpuQuota: inspected.CpuQuota });
  if (inspected.Ulimits)
    kept.Ulimits = inspected.Ulimits.map((limit) => ({
      ...limit,
      Name: limit.Name?.replace(/^RLIMIT_/, '').toLowerCase(),
    }));
  for (const key of ['PidMode', 'IpcMode', 'UTSMode'] as const)
    if (SHARED_NAMESPACE.test(String(source[key] ?? ''))) kept[key] = source[key];
  return kept as EngineHostConfig;
}

/**
 * The create request that gives an existing container again: the same configuration (image by
 * reference, so a newly pulled image is used), host settings, networks with their aliases, and its
 * volumes — anonymous ones included, mounted by name, so their data stays.
 */
export function recreatePlan(container: EngineContainer): CreatePlan {
  const config = container.Config;
  const shortId = container.Id.slice(0, 12);
  const hostConfig = keptHostConfig(container.HostConfig);
  const mounted = new Set([
    ...(hostConfig.Binds ?? []).map((bind) => bind.split(':')[1]),
    ...(hostConfig.Mounts ?? []).map((mount) => mount.Target),
  ]);
  const anonymous = (container.Mounts ?? [])
    .filter((mount) => mount.Type === 'volume' && mount.Name && !mounted.has(mount.Destination))
    .map((mount) => ({
      Type: 'volume' as const,
      Source: mount.Name!,
      Target: mount.Destination,
      ReadOnly: !mount.RW,
    }));
  hostConfig.Mounts = [...(hostConfig.Mounts ?? []), ...anonymous];
  const networks = Object.entries(container.NetworkSettings?.Networks ?? {}).map(([name, settings]) => ({
    name,
    endpoint: {
      // The old container's id is an alias the engine adds itself; the new one gets its own.
      Aliases: (settings.Aliases ?? []).filter(
        (alias: string) => alias !== shortId && alias !== container.Id,
      ),
      ...(settings.IPAMConfig ? { IPAMConfig: settings.IPAMConfig } : {}),
    } as EngineEndpointSettings,
  }));
  const [first, ...others] = networks;
  return {
    options: {
      name: stripSlash(container.Name),
      Image: config.Image,
      Cmd: config.Cmd,
      Entrypoint: config.Entrypoint,
      Env: config.Env,
      Labels: config.Labels,
      ExposedPorts: config.ExposedPorts,
      WorkingDir: config.WorkingDir,
      User: config.User,
      Tty: config.Tty,
      OpenStdin: config.OpenStdin,
      StdinOnce: config.StdinOnce,
      ...(config.StopSignal ? { StopSignal: config.StopSignal } : {}),
      ...(config.Healthcheck ? { Healthcheck: config.Healthcheck } : {}),
      // Engines name a container's host after its id unless told otherwise; only a chosen name carries over.
      ...(config.Hostname && !container.Id.startsWith(config.Hostname) ? { Hostname: config.Hostname } : {}),
      HostConfig: hostConfig,
      ...(first ? { NetworkingConfig: { EndpointsConfig: { [first.name]: first.endpoint } } } : {}),
    },
    extraNetworks: others,
  };
}
