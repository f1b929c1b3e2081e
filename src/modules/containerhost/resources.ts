import path from 'node:path/posix';
import type Docker from 'dockerode';
import { and, eq } from 'drizzle-orm';
import type { AuditActor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { invalidField, unprocessable, type ValidationIssue, validationError } from '../../core/errors.js';
import { type Page, paginateArray } from '../../core/pagination.js';
import { containerhostResourcePlacements, type ResourceType } from '../../db/schema/index.js';
import type { Engine } from './docker.js';
import type { EngineNodeService } from './engine-nodes.js';
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
import { buildTar } from './tar.js';

const BUILT_IN_NETWORKS = new Set(['bridge', 'host', 'none']);

const iso = (value: string | number | undefined | null): string | null => {
  if (value === undefined || value === null || value === '') return null;
  const date = typeof value === 'number' ? new Date(value * 1000) : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
};

const stripSlash = (name: string | undefined) => (name ?? '').replace(/^\//, '');

export interface VolumeWriteInput {
  /** Raw body (application/octet-stream) or the parsed JSON body. */
  body: unknown;
  queryPath?: string | undefined;
}

/** Read models of a node's engine and the actions on its containers, networks and volumes. */
export class ResourceService {
  constructor(
    private readonly deps: Deps,
    private readonly engineNodes: EngineNodeService,
  ) {}

  // ---- read models ---------------------------------------------------------------------------

  async listContainers(nodeId: string, filter: ContainerListQuery): Promise<Page<ContainerSummary>> {
    const { engine } = await this.engineNodes.engine(nodeId);
    const rows = await engine.call({ nodeId }, (docker) =>
      docker.listContainers({ all: filter.all ?? false }),
    );
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
    const { engine } = await this.engineNodes.engine(nodeId);
    const c = await engine.call({ nodeId, containerId }, (docker) =>
      docker.getContainer(containerId).inspect(),
    );
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
    const { engine } = await this.engineNodes.engine(nodeId);
    const rows = await engine.call({ nodeId }, (docker) => docker.listNetworks());
    return this.ordered(nodeId, 'network', rows.map(networkView), (item) => item.name, filter);
  }

  async inspectNetwork(nodeId: string, networkId: string): Promise<NetworkDetail> {
    const { engine } = await this.engineNodes.engine(nodeId);
    const n = await engine.call({ nodeId, networkId }, (docker) => docker.getNetwork(networkId).inspect());
    return {
      ...networkView(n),
      containers: Object.entries(n.Containers ?? {}).map(([id, c]) => ({
        id,
        name: (c as { Name?: string }).Name ?? null,
        ipv4Address: (c as { IPv4Address?: string }).IPv4Address || null,
      })),
    };
  }

  async listVolumes(nodeId: string, filter: ListQuery): Promise<Page<Volume & Placement>> {
    const { engine } = await this.engineNodes.engine(nodeId);
    const answer = await engine.call({ nodeId }, (docker) => docker.listVolumes());
    return this.ordered(
      nodeId,
      'volume',
      (answer.Volumes ?? []).map(volumeView),
      (item) => item.name,
      filter,
    );
  }

  async inspectVolume(nodeId: string, name: string): Promise<Volume> {
    const { engine } = await this.engineNodes.engine(nodeId);
    return volumeView(
      await engine.call({ nodeId, volume: name }, (docker) => docker.getVolume(name).inspect()),
    );
  }

  async listImages(nodeId: string, filter: ListQuery): Promise<Page<ImageSummary>> {
    const { engine } = await this.engineNodes.engine(nodeId);
    const rows = await engine.call({ nodeId }, (docker) => docker.listImages());
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
    const { engine } = await this.engineNodes.engine(nodeId);
    const i = await engine.call({ nodeId, imageId }, (docker) => docker.getImage(imageId).inspect());
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

  // ---- actions -------------------------------------------------------------------------------

  /** Stops a container; one that is already stopped is success (the engine answers 304). */
  async stopContainer(actor: AuditActor, nodeId: string, containerId: string, timeout?: number) {
    const { engine } = await this.engineNodes.engine(nodeId);
    const container = engine.docker.getContainer(containerId);
    const alreadyStopped = await engine.call(
      { nodeId, containerId },
      async () => {
        try {
          await container.stop(timeout === undefined ? {} : { t: timeout });
          return false;
        } catch (error) {
          if ((error as { statusCode?: number }).statusCode === 304) return true;
          throw error;
        }
      },
      (timeout ?? 10) * 1000,
    );
    await this.recordAction(actor, 'containerhost.container.stopped', 'container', containerId, {
      nodeId,
      timeout: timeout ?? null,
      alreadyStopped,
    });
  }

  async disconnectNetwork(
    actor: AuditActor,
    nodeId: string,
    networkId: string,
    containerId: string,
    force: boolean,
  ) {
    const { engine } = await this.engineNodes.engine(nodeId);
    const network = await engine.call({ nodeId, networkId }, (docker) =>
      docker.getNetwork(networkId).inspect(),
    );
    if (BUILT_IN_NETWORKS.has(network.Name) && !force)
      throw unprocessable(
        'BUILT_IN_NETWORK',
        `${network.Name} is a built-in network; disconnecting from it can cut a container off, pass ?force=true to do it anyway`,
        { network: network.Name },
      );
    const container = await engine.call({ nodeId, containerId }, (docker) =>
      docker.getContainer(containerId).inspect(),
    );
    const attached = Object.entries(container.NetworkSettings?.Networks ?? {}).some(
      ([name, n]) => name === network.Name || n.NetworkID === network.Id || n.NetworkID === network.Name,
    );
    if (!attached)
      throw unprocessable(
        'NOT_ATTACHED',
        `container ${stripSlash(container.Name)} is not attached to network ${network.Name}`,
        { network: network.Name, container: stripSlash(container.Name) },
      );
    await engine.call({ nodeId, networkId, containerId }, (docker) =>
      docker.getNetwork(network.Id).disconnect({ Container: container.Id, Force: force }),
    );
    await this.recordAction(actor, 'containerhost.network.disconnected', 'network', network.Id, {
      nodeId,
      network: network.Name,
      containerId: container.Id,
      container: stripSlash(container.Name),
      force,
    });
  }

  /**
   * `mv fromPath toPath` as an exec (argument array, no shell) in a running container. NUL needs no
   * check here: the gateway's NUL guard (core/nul-guard.ts) refuses it in every request.
   */
  async moveFile(actor: AuditActor, nodeId: string, containerId: string, fromPath: string, toPath: string) {
    const issues: ValidationIssue[] = [];
    for (const [field, value] of [
      ['fromPath', fromPath],
      ['toPath', toPath],
    ] as const) {
      if (!value.startsWith('/')) issues.push({ path: [field], message: 'must be an absolute path' });
    }
    if (issues.length > 0) throw validationError(issues);
    const { engine } = await this.engineNodes.engine(nodeId);
    const container = await engine.call({ nodeId, containerId }, (docker) =>
      docker.getContainer(containerId).inspect(),
    );
    if (!container.State?.Running)
      throw unprocessable(
        'CONTAINER_NOT_RUNNING',
        `container ${stripSlash(container.Name)} is ${container.State?.Status ?? 'not running'}; files can only be moved in a running container`,
      );
    const result = await engine.exec(container.Id, ['mv', fromPath, toPath]);
    if (result.exitCode !== 0)
      throw unprocessable(
        'MOVE_FAILED',
        result.stderr.trim() || result.stdout.trim() || `mv exited with ${result.exitCode}`,
        {
          exitCode: result.exitCode,
        },
      );
    await this.recordAction(actor, 'containerhost.container.file_moved', 'container', container.Id, {
      nodeId,
      container: stripSlash(container.Name),
      fromPath,
      toPath,
    });
  }

  /** Writes one file into a volume through a short-lived helper container and the archive API. */
  async writeVolumeFile(actor: AuditActor, nodeId: string, volumeName: string, input: VolumeWriteInput) {
    const { relative, content } = this.volumeWriteRequest(input);
    const { node, engine } = await this.engineNodes.engine(nodeId);
    await engine.call({ nodeId, volume: volumeName }, (docker) => docker.getVolume(volumeName).inspect());
    const image = node.helperImage ?? this.deps.config.helperImage;
    const helper = await engine.call({ nodeId, image }, async (docker) => {
      try {
        return await docker.createContainer({
          Image: image,
          Cmd: ['true'],
          Labels: { 'io.infragate.helper': 'volume-write' },
          NetworkDisabled: true,
          HostConfig: { Binds: [`${volumeName}:/volume`], NetworkMode: 'none' },
        });
      } catch (error) {
        if ((error as { statusCode?: number }).statusCode === 404)
          throw unprocessable(
            'HELPER_IMAGE_MISSING',
            `the helper image ${image} is not present on the node; pull it there or set the node's helperImage`,
            { image },
          );
        throw error;
      }
    });
    try {
      const entries = await this.plannedEntries(engine, helper.id, relative, content);
      await engine.call({ nodeId, volume: volumeName }, (docker: Docker) =>
        docker.getContainer(helper.id).putArchive(buildTar(entries), { path: '/volume' }),
      );
    } finally {
      await engine
        .call({ nodeId }, (docker) => docker.getContainer(helper.id).remove({ force: true, v: false }))
        .catch((error: unknown) =>
          this.deps.log.warn({ err: error, helper: helper.id }, 'helper container not removed'),
        );
    }
    await this.recordAction(actor, 'containerhost.volume.file_written', 'volume', volumeName, {
      nodeId,
      path: `/${relative}`,
      bytes: content.length,
    });
    return { path: `/${relative}`, bytes: content.length };
  }

  /**
   * Tar extraction replaces whatever is in the way (a directory by the file, a file by a directory), so
   * the target and its parents are checked first: the target must not be a directory, existing parents
   * must be real directories (no symlinks out of the volume), and only missing parents are created.
   */
  private async plannedEntries(engine: Engine, helperId: string, relative: string, content: Buffer) {
    const stat = (inside: string) => pathStat(engine, helperId, `/volume/${inside}`);
    const target = await stat(relative);
    if (target && (target.directory || target.symlink))
      throw unprocessable(
        target.directory ? 'TARGET_IS_DIRECTORY' : 'TARGET_IS_SYMLINK',
        `/${relative} is a ${target.directory ? 'directory' : 'symbolic link'} in the volume; it is left as it is`,
      );
    const segments = relative.split('/');
    const missing: string[] = [];
    for (let depth = segments.length - 1; depth > 0; depth--) {
      const parent = segments.slice(0, depth).join('/');
      const found = await stat(parent);
      if (!found) {
        missing.unshift(parent);
        continue;
      }
      if (!found.directory || found.symlink)
        throw unprocessable(
          'PARENT_NOT_DIRECTORY',
          `/${parent} exists in the volume and is not a directory, so /${relative} cannot be written`,
        );
      break;
    }
    return [
      ...missing.map((name) => ({ name, type: 'directory' as const })),
      { name: relative, type: 'file' as const, content },
    ];
  }

  private volumeWriteRequest(input: VolumeWriteInput): { relative: string; content: Buffer } {
    const limit = this.deps.config.volumeWriteLimitBytes;
    const tooLarge = (path: (string | number)[]) =>
      validationError([{ path, message: `must be at most ${limit} bytes` }], 413);
    if (Buffer.isBuffer(input.body)) {
      if (input.queryPath === undefined) throw invalidField(['path'], 'is required (query parameter ?path=)');
      if (input.body.length > limit) throw tooLarge([]);
      return { relative: volumeRelativePath(input.queryPath), content: input.body };
    }
    if (typeof input.body !== 'object' || input.body === null || Array.isArray(input.body))
      throw validationError(
        [
          {
            path: [],
            message: 'send application/octet-stream with ?path=, or a JSON object {path, content, encoding}',
          },
        ],
        typeof input.body === 'string' ? 415 : 400,
      );
    const body = input.body as Record<string, unknown>;
    const issues: ValidationIssue[] = [];
    const rawPath = body.path ?? input.queryPath;
    if (rawPath === undefined) issues.push({ path: ['path'], message: 'is required' });
    else if (typeof rawPath !== 'string') issues.push({ path: ['path'], message: 'must be string' });
    if (typeof body.content !== 'string')
      issues.push({
        path: ['content'],
        message: body.content === undefined ? 'is required' : 'must be string',
      });
    const encoding = body.encoding ?? 'utf8';
    if (encoding !== 'utf8' && encoding !== 'base64')
      issues.push({ path: ['encoding'], message: 'must be one of: utf8, base64' });
    else if (
      encoding === 'base64' &&
      typeof body.content === 'string' &&
      !/^[A-Za-z0-9+/]*={0,2}$/.test(body.content.replace(/\s/g, ''))
    )
      issues.push({ path: ['content'], message: 'is not valid base64' });
    if (issues.length > 0) throw validationError(issues);
    const content = Buffer.from(body.content as string, encoding as BufferEncoding);
    if (content.length > limit) throw tooLarge(['content']);
    return { relative: volumeRelativePath(rawPath as string), content };
  }

  private async recordAction(
    actor: AuditActor,
    action: string,
    targetType: string,
    targetId: string,
    metadata: Record<string, unknown>,
  ) {
    await this.deps.audit.recordAlone(this.deps.db, actor, {
      action,
      targetType: `containerhost_${targetType}`,
      targetId,
      metadata,
    });
  }
}

/** What the archive API says about a path in a container; undefined when nothing is there. */
async function pathStat(
  engine: Engine,
  containerId: string,
  target: string,
): Promise<{ directory: boolean; symlink: boolean } | undefined> {
  return engine.call({ containerId }, async (docker) => {
    let response: import('node:http').IncomingMessage;
    try {
      response = (await docker.getContainer(containerId).infoArchive({ path: target })) as never;
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode === 404) return undefined;
      throw error;
    }
    response.resume();
    const header = response.headers['x-docker-container-path-stat'];
    if (typeof header !== 'string') throw new Error('the engine did not describe the path');
    const { mode } = JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as { mode: number };
    // Go's os.FileMode: bit 31 is a directory, bit 27 a symbolic link.
    return { directory: Math.floor(mode / 2 ** 31) % 2 === 1, symlink: Math.floor(mode / 2 ** 27) % 2 === 1 };
  });
}

/**
 * Normalises a path inside a volume (leading slash optional); `..` segments are refused. NUL never gets
 * here: the gateway's NUL guard (core/nul-guard.ts) refuses it in the query and the JSON body.
 */
function volumeRelativePath(raw: string): string {
  if (raw.length === 0 || raw.length > 1024) throw invalidField(['path'], 'must be 1 to 1024 characters');
  if (raw.split(/[\\/]/).includes('..')) throw invalidField(['path'], 'must not contain .. segments');
  const normalised = path.normalize(`/${raw}`).replace(/^\/+/, '').replace(/\/+$/, '');
  if (!normalised || normalised === '.') throw invalidField(['path'], 'must name a file inside the volume');
  if (raw.endsWith('/')) throw invalidField(['path'], 'must name a file, not a directory');
  return normalised;
}

function networkView(n: Docker.NetworkInspectInfo): Network {
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

function volumeView(v: Docker.VolumeInspectInfo & { CreatedAt?: string }): Volume {
  return {
    name: v.Name,
    driver: v.Driver,
    mountpoint: v.Mountpoint,
    scope: v.Scope,
    createdAt: iso(v.CreatedAt),
    labels: v.Labels ?? {},
  };
}
