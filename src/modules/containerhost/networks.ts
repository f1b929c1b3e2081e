import net from 'node:net';
import type { AuditActor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { conflict, unprocessable, validationError } from '../../core/errors.js';
import { labelIssues } from './container-spec.js';
import { recordEngineChange } from './engine-audit.js';
import type { EngineNodeService } from './engine-nodes.js';
import { BUILT_IN_NETWORKS, type EngineContainer, type EngineNetwork, stripSlash } from './engine-port.js';
import type { ResourceService } from './resources.js';
import type { Connection, Disconnection, NetworkCreation } from './schemas/networks.js';
import type { NetworkDetail } from './schemas/resources.js';

/** `a.b.c.d/n` or an IPv6 prefix. */
function isCidr(text: string): boolean {
  const [address, prefix, ...rest] = text.split('/');
  const family = net.isIP(address ?? '');
  return (
    rest.length === 0 &&
    family !== 0 &&
    /^\d{1,3}$/.test(prefix ?? '') &&
    Number(prefix) <= (family === 4 ? 32 : 128)
  );
}

const isAttached = (container: EngineContainer, network: EngineNetwork) =>
  Object.entries(container.NetworkSettings?.Networks ?? {}).some(
    ([name, n]) => name === network.Name || n.NetworkID === network.Id || n.NetworkID === network.Name,
  );

/** A node's networks: create, delete, connect and disconnect containers; each change audited. */
export class NetworkService {
  constructor(
    private readonly deps: Pick<Deps, 'db' | 'audit'> & {
      engineNodes: EngineNodeService;
      resources: ResourceService;
    },
  ) {}

  async create(actor: AuditActor, nodeId: string, input: NetworkCreation): Promise<NetworkDetail> {
    const issues = labelIssues(input.labels);
    if (input.subnet !== undefined && !isCidr(input.subnet))
      issues.push({ path: ['subnet'], message: 'must be a CIDR such as 10.42.0.0/24' });
    if (issues.length > 0) throw validationError(issues);
    const { engine } = await this.deps.engineNodes.engine(nodeId);
    if (await engine.networkExists(input.name)) throw conflict('NETWORK_NAME_TAKEN', { name: input.name });
    const created = await engine.createNetwork({
      name: input.name,
      driver: input.driver ?? 'bridge',
      internal: input.internal ?? false,
      labels: input.labels ?? {},
      subnet: input.subnet,
    });
    await recordEngineChange(this.deps, actor, 'network', 'created', created.id, {
      nodeId,
      name: input.name,
      driver: input.driver ?? 'bridge',
      internal: input.internal ?? false,
      subnet: input.subnet ?? null,
    });
    return this.deps.resources.inspectNetwork(nodeId, created.id);
  }

  /** Deletes a network no container is attached to; built-in networks are refused. */
  async remove(actor: AuditActor, nodeId: string, networkId: string): Promise<void> {
    const { engine } = await this.deps.engineNodes.engine(nodeId);
    const network = await engine.inspectNetwork(networkId);
    if (BUILT_IN_NETWORKS.has(network.Name))
      throw unprocessable('BUILT_IN_NETWORK', `${network.Name} is a built-in network; the engine keeps it`, {
        network: network.Name,
      });
    const attached = Object.values(network.Containers ?? {}).map((c) => c.Name ?? '');
    if (attached.length > 0)
      throw conflict('NETWORK_IN_USE', {
        explanation: `containers are attached to ${network.Name}; disconnect or remove them first`,
        containers: attached,
      });
    await engine.removeNetwork(network.Id);
    await recordEngineChange(this.deps, actor, 'network', 'deleted', network.Id, {
      nodeId,
      name: network.Name,
    });
  }

  async connect(actor: AuditActor, nodeId: string, networkId: string, { containerId, aliases }: Connection) {
    const { engine, network, container } = await this.pair(nodeId, networkId, containerId);
    if (isAttached(container, network))
      throw conflict('ALREADY_ATTACHED', { network: network.Name, container: stripSlash(container.Name) });
    await engine.connectNetwork(network.Id, container.Id, aliases ? { Aliases: aliases } : undefined);
    await recordEngineChange(this.deps, actor, 'network', 'connected', network.Id, {
      nodeId,
      network: network.Name,
      containerId: container.Id,
      container: stripSlash(container.Name),
      aliases: aliases ?? [],
    });
  }

  async disconnect(
    actor: AuditActor,
    nodeId: string,
    networkId: string,
    { containerId, force }: Disconnection & { force: boolean },
  ) {
    const { engine, network, container } = await this.pair(nodeId, networkId, containerId);
    if (BUILT_IN_NETWORKS.has(network.Name) && !force)
      throw unprocessable(
        'BUILT_IN_NETWORK',
        `${network.Name} is a built-in network; disconnecting from it can cut a container off, pass ?force=true to do it anyway`,
        { network: network.Name },
      );
    if (!isAttached(container, network))
      throw unprocessable(
        'NOT_ATTACHED',
        `container ${stripSlash(container.Name)} is not attached to network ${network.Name}`,
        { network: network.Name, container: stripSlash(container.Name) },
      );
    await engine.disconnectNetwork(network.Id, container.Id, { force });
    await recordEngineChange(this.deps, actor, 'network', 'disconnected', network.Id, {
      nodeId,
      network: network.Name,
      containerId: container.Id,
      container: stripSlash(container.Name),
      force,
    });
  }

  private async pair(nodeId: string, networkId: string, containerId: string) {
    const { engine } = await this.deps.engineNodes.engine(nodeId);
    const network = await engine.inspectNetwork(networkId);
    const container = await engine.inspectContainer(containerId);
    return { engine, network, container };
  }
}
