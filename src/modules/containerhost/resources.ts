import { and, eq } from 'drizzle-orm';
import type { Deps } from '../../core/deps.js';
import { type Page, paginateArray } from '../../core/pagination.js';
import { containerhostResourcePlacements, type ResourceType } from '../../db/schema/index.js';
import type { EngineNodeService } from './engine-nodes.js';
import { BUILT_IN_NETWORKS, type EngineNetwork, type EngineVolume, stripSlash } from './engine-port.js';
import type { ListQuery } from './schemas/params.js';
import type {
  ContainerDetail,
  ContainerListQuery,
  ContainerSummary,
  ImageDetail,
  ImageSummary,
  Network,
  NetworkDetail,
  Placement,
  Unplaced,
  Volume,
} from './schemas/resources.js';

const iso = (value: string | number | undefined | null): string | null => {
  if (value === undefined || value === null || value === '') return null;
  const date = typeof value === 'number' ? new Date(value * 1000) : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
};

/** Read models of a node's engine: its containers, networks, volumes and images, in saved order. */
export class ResourceService {
  constructor(private readonly deps: Pick<Deps, 'db'> & { engineNodes: EngineNodeService }) {}

  async listContainers(nodeId: string, filter: ContainerListQuery): Promise<Page<ContainerSummary>> {
    const { engine } = await this.deps.engineNodes.engine(nodeId);
    const rows = await engine.listContainers({ all: filter.all ?? false });
    const items = rows.map(
      (c): Unplaced<ContainerSummary> => ({
        id: c.Id,
        name: stripSlash(c.Names?.[0]),
        image: c.Image,
        imageId: c.ImageID,
        command: c.Command ?? null,
        state: c.State,
        status: c.Status,
        createdAt: iso(c.Created),
        ports: (c.Ports ?? []).map((p) => ({
          privatePort: p.PrivatePort,
          publicPort: p.PublicPort ?? null,
          type: p.Type,
          ip: p.IP ?? null,
        })),
        labels: c.Labels ?? {},
        networks: Object.keys(c.NetworkSettings?.Networks ?? {}),
      }),
    );
    return this.ordered(nodeId, 'container', items, (item) => item.name, filter);
  }

  async inspectContainer(nodeId: string, containerId: string): Promise<ContainerDetail> {
    const { engine } = await this.deps.engineNodes.engine(nodeId);
    const c = await engine.inspectContainer(containerId);
    return {
      id: c.Id,
      name: stripSlash(c.Name),
      image: c.Config?.Image ?? null,
      imageId: c.Image,
      createdAt: iso(c.Created),
      state: {
        status: c.State?.Status,
        running: c.State?.Running ?? false,
        paused: c.State?.Paused ?? false,
        restarting: c.State?.Restarting ?? false,
        exitCode: c.State?.ExitCode ?? null,
        error: c.State?.Error || null,
        startedAt: iso(c.State?.StartedAt),
        finishedAt: iso(c.State?.FinishedAt),
      },
      // Env is left out on purpose: container environments routinely hold secrets.
      command: [...(c.Config?.Entrypoint ? [c.Config.Entrypoint].flat() : []), ...(c.Config?.Cmd ?? [])],
      workingDir: c.Config?.WorkingDir || null,
      labels: c.Config?.Labels ?? {},
      restartPolicy: c.HostConfig?.RestartPolicy?.Name || null,
      ports: Object.entries(c.NetworkSettings?.Ports ?? {}).flatMap(([key, bindings]) => {
        const [port, type] = key.split('/');
        const list = bindings ?? [];
        if (list.length === 0)
          return [{ privatePort: Number(port), publicPort: null, type: type ?? 'tcp', ip: null }];
        return list.map((b) => ({
          privatePort: Number(port),
          publicPort: b.HostPort ? Number(b.HostPort) : null,
          type: type ?? 'tcp',
          ip: b.HostIp || null,
        }));
      }),
      networks: Object.entries(c.NetworkSettings?.Networks ?? {}).map(([name, n]) => ({
        name,
        networkId: n.NetworkID || null,
        ipAddress: n.IPAddress || null,
        gateway: n.Gateway || null,
        macAddress: n.MacAddress || null,
        aliases: n.Aliases ?? [],
      })),
      mounts: (c.Mounts ?? []).map((m) => ({
        type: m.Type,
        name: m.Name ?? null,
        source: m.Source,
        destination: m.Destination,
        readOnly: !m.RW,
      })),
    };
  }

  async listNetworks(nodeId: string, filter: ListQuery): Promise<Page<Network & Placement>> {
    const { engine } = await this.deps.engineNodes.engine(nodeId);
    const rows = await engine.listNetworks();
    return this.ordered(nodeId, 'network', rows.map(networkView), (item) => item.name, filter);
  }

  async inspectNetwork(nodeId: string, networkId: string): Promise<NetworkDetail> {
    const { engine } = await this.deps.engineNodes.engine(nodeId);
    const n = await engine.inspectNetwork(networkId);
    return {
      ...networkView(n),
      containers: Object.entries(n.Containers ?? {}).map(([id, c]) => ({
        id,
        name: c.Name ?? null,
        ipv4Address: c.IPv4Address || null,
      })),
    };
  }

  async listVolumes(nodeId: string, filter: ListQuery): Promise<Page<Volume & Placement>> {
    const { engine } = await this.deps.engineNodes.engine(nodeId);
    const volumes = await engine.listVolumes();
    return this.ordered(nodeId, 'volume', volumes.map(volumeView), (item) => item.name, filter);
  }

  async inspectVolume(nodeId: string, name: string): Promise<Volume> {
    const { engine } = await this.deps.engineNodes.engine(nodeId);
    return volumeView(await engine.inspectVolume(name));
  }

  async listImages(nodeId: string, filter: ListQuery): Promise<Page<ImageSummary>> {
    const { engine } = await this.deps.engineNodes.engine(nodeId);
    const rows = await engine.listImages();
    const items = rows.map(
      (i): Unplaced<ImageSummary> => ({
        id: i.Id,
        repoTags: (i.RepoTags ?? []).filter((tag) => tag !== '<none>:<none>'),
        repoDigests: i.RepoDigests ?? [],
        size: i.Size,
        createdAt: iso(i.Created),
        containers: typeof i.Containers === 'number' && i.Containers >= 0 ? i.Containers : null,
        labels: i.Labels ?? {},
      }),
    );
    return this.ordered(
      nodeId,
      'image',
      items,
      (item) => item.id,
      filter,
      (item) => [item.id, ...item.repoTags],
    );
  }

  async inspectImage(nodeId: string, imageId: string): Promise<ImageDetail> {
    const { engine } = await this.deps.engineNodes.engine(nodeId);
    const i = await engine.inspectImage(imageId);
    return {
      id: i.Id,
      repoTags: i.RepoTags ?? [],
      repoDigests: i.RepoDigests ?? [],
      size: i.Size,
      createdAt: iso(i.Created),
      architecture: i.Architecture ?? null,
      os: i.Os ?? null,
      labels: i.Config?.Labels ?? {},
      command: i.Config?.Cmd ?? [],
      exposedPorts: Object.keys(i.Config?.ExposedPorts ?? {}),
    };
  }

  /** Applies saved placements: placed resources first by sortOrder, the rest by key; then filters and pages. */
  private async ordered<T>(
    nodeId: string,
    resourceType: ResourceType,
    items: T[],
    key: (item: T) => string,
    filter: ListQuery,
    searchable: (item: T) => string[] = (item) => [key(item)],
  ): Promise<Page<T & Placement>> {
    const placements = await this.deps.db
      .select()
      .from(containerhostResourcePlacements)
      .where(
        and(
          eq(containerhostResourcePlacements.nodeId, nodeId),
          eq(containerhostResourcePlacements.resourceType, resourceType),
        ),
      );
    const byKey = new Map(placements.map((p) => [p.resourceKey, p]));
    const q = filter.q?.toLowerCase();
    const placed: (T & Placement)[] = items
      .filter((item) => !q || searchable(item).some((text) => text.toLowerCase().includes(q)))
      .map((item) => {
        const placement = byKey.get(key(item));
        return {
          ...item,
          resourceKey: key(item),
          sortOrder: placement?.sortOrder ?? null,
          folderId: placement?.folderId ?? null,
        };
      });
    placed.sort((a, b) => {
      if (a.sortOrder !== null && b.sortOrder !== null && a.sortOrder !== b.sortOrder)
        return a.sortOrder - b.sortOrder;
      if (a.sortOrder !== null && b.sortOrder === null) return -1;
      if (a.sortOrder === null && b.sortOrder !== null) return 1;
      return a.resourceKey.localeCompare(b.resourceKey);
    });
    return paginateArray(placed, filter);
  }
}

function networkView(n: EngineNetwork): Network {
  return {
    id: n.Id,
    name: n.Name,
    driver: n.Driver,
    scope: n.Scope,
    internal: n.Internal ?? false,
    builtIn: BUILT_IN_NETWORKS.has(n.Name),
    subnets: (n.IPAM?.Config ?? []).map((c) => c.Subnet).filter((s): s is string => Boolean(s)),
    createdAt: iso(n.Created),
    labels: n.Labels ?? {},
  };
}

function volumeView(v: EngineVolume): Volume {
  return {
    name: v.Name,
    driver: v.Driver,
    mountpoint: v.Mountpoint,
    scope: v.Scope,
    createdAt: iso(v.CreatedAt),
    labels: v.Labels ?? {},
  };
}
