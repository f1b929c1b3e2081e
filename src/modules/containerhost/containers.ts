import crypto from 'node:crypto';
import type { AuditActor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { type CreatePlan, checkCreation, createPlan, recreatePlan } from './container-spec.js';
import { recordEngineChange } from './engine-audit.js';
import type { EngineNodeService } from './engine-nodes.js';
import { type EnginePort, stripSlash } from './engine-port.js';
import type { ImagePuller } from './image-pull.js';
import type { ResourceService } from './resources.js';
import type {
  ContainerCreation,
  KillOptions,
  RecreateOptions,
  RemoveQuery,
  StopOptions,
} from './schemas/containers.js';
import type { ContainerDetail } from './schemas/resources.js';

interface ContainerServiceDeps extends Pick<Deps, 'db' | 'audit'> {
  engineNodes: EngineNodeService;
  resources: ResourceService;
  puller: ImagePuller;
}

/**
 * A container's lifecycle: create, start, stop, restart, kill, pause, unpause, remove, recreate. Each change is
 * recorded in the audit trail after the engine carried it out.
 */
export class ContainerService {
  constructor(private readonly deps: ContainerServiceDeps) {}

  async create(actor: AuditActor, nodeId: string, input: ContainerCreation): Promise<ContainerDetail> {
    checkCreation(input);
    const engine = await this.engine(nodeId);
    const start = input.start ?? false;
    const id = await this.build(engine, createPlan(input), start);
    await recordEngineChange(this.deps, actor, 'container', 'created', id, {
      nodeId,
      name: input.name,
      image: input.image,
      started: start,
    });
    return this.deps.resources.inspectContainer(nodeId, id);
  }

  /** Starts a container; one that is already running is success. */
  async start(actor: AuditActor, nodeId: string, containerId: string): Promise<void> {
    const engine = await this.engine(nodeId);
    const { alreadyRunning } = await engine.startContainer(containerId);
    await recordEngineChange(this.deps, actor, 'container', 'started', containerId, {
      nodeId,
      alreadyRunning,
    });
  }

  /** Stops a container; one that is already stopped is success. */
  async stop(actor: AuditActor, nodeId: string, containerId: string, { timeout }: StopOptions) {
    const engine = await this.engine(nodeId);
    const { alreadyStopped } = await engine.stopContainer(containerId, timeout);
    await recordEngineChange(this.deps, actor, 'container', 'stopped', containerId, {
      nodeId,
      timeout: timeout ?? null,
      alreadyStopped,
    });
  }

  async restart(actor: AuditActor, nodeId: string, containerId: string, { timeout }: StopOptions) {
    await (await this.engine(nodeId)).restartContainer(containerId, timeout);
    await recordEngineChange(this.deps, actor, 'container', 'restarted', containerId, {
      nodeId,
      timeout: timeout ?? null,
    });
  }

  async kill(actor: AuditActor, nodeId: string, containerId: string, { signal }: KillOptions) {
    await (await this.engine(nodeId)).killContainer(containerId, signal);
    await recordEngineChange(this.deps, actor, 'container', 'killed', containerId, {
      nodeId,
      signal: signal ?? 'SIGKILL',
    });
  }

  async pause(actor: AuditActor, nodeId: string, containerId: string) {
    await (await this.engine(nodeId)).pauseContainer(containerId);
    await recordEngineChange(this.deps, actor, 'container', 'paused', containerId, { nodeId });
  }

  async unpause(actor: AuditActor, nodeId: string, containerId: string) {
    await (await this.engine(nodeId)).unpauseContainer(containerId);
    await recordEngineChange(this.deps, actor, 'container', 'unpaused', containerId, { nodeId });
  }

  /** Removes a container; a running one needs `force` (409 otherwise). */
  async remove(actor: AuditActor, nodeId: string, containerId: string, query: RemoveQuery) {
    const force = query.force ?? false;
    const removeVolumes = query.removeVolumes ?? false;
    await (await this.engine(nodeId)).removeContainer(containerId, { force, removeVolumes });
    await recordEngineChange(this.deps, actor, 'container', 'removed', containerId, {
      nodeId,
      force,
      removeVolumes,
    });
  }

  /**
   * Replaces a container by a new one with the same configuration (optionally pulling its image first):
   * the old one is stopped and set aside under another name, the new one created (and started if the old
   * one ran), then the old one removed. If the new one cannot be made, the old one is put back.
   */
  async recreate(
    actor: AuditActor,
    nodeId: string,
    containerId: string,
    options: RecreateOptions,
  ): Promise<ContainerDetail> {
    const engine = await this.engine(nodeId);
    const old = await engine.inspectContainer(containerId);
    const pull = options.pull ?? false;
    if (pull) await this.deps.puller.pull(engine, nodeId, this.deps.puller.reference(old.Config.Image));
    const name = stripSlash(old.Name);
    const running = old.State?.Running ?? false;
    if (running) await engine.stopContainer(old.Id);
    await engine.renameContainer(old.Id, `${name}-replaced-${crypto.randomBytes(3).toString('hex')}`);
    let id: string;
    try {
      id = await this.build(engine, recreatePlan(old), running);
    } catch (error) {
      await engine.renameContainer(old.Id, name);
      if (running) await engine.startContainer(old.Id);
      throw error;
    }
    await engine.removeContainer(old.Id, { force: true });
    await recordEngineChange(this.deps, actor, 'container', 'recreated', id, {
      nodeId,
      name,
      previousId: old.Id,
      image: old.Config.Image,
      pulled: pull,
    });
    return this.deps.resources.inspectContainer(nodeId, id);
  }

  /** Creates, connects and (optionally) starts a container; on any failure it is removed again. */
  private async build(engine: EnginePort, plan: CreatePlan, start: boolean): Promise<string> {
    const { id } = await engine.createContainer(plan.options);
    try {
      for (const network of plan.extraNetworks)
        await engine.connectNetwork(network.name, id, network.endpoint);
      if (start) await engine.startContainer(id);
    } catch (error) {
      await engine.removeContainer(id, { force: true }).catch(() => {});
      throw error;
    }
    return id;
  }

  private async engine(nodeId: string): Promise<EnginePort> {
    return (await this.deps.engineNodes.engine(nodeId)).engine;
  }
}
