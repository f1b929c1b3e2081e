import crypto from 'node:crypto';
import type Docker from 'dockerode';
import type { AuditActor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { type CreatePlan, checkCreation, createPlan, recreatePlan } from './container-spec.js';
import { type Engine, stripSlash } from './docker.js';
import { recordEngineChange } from './engine-audit.js';
import type { EngineNodeService } from './engine-nodes.js';
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

/** Seconds an engine waits after SIGTERM when a stop or restart names none. */
const ENGINE_DEFAULT_STOP_SECONDS = 10;

/** Engines answer 304 for a start of a running container (and a stop of a stopped one): already done. */
const alreadyDone = (error: unknown) => (error as { statusCode?: number }).statusCode === 304;

/**
 * A container's lifecycle: create, start, stop, restart, kill, pause, unpause, remove, recreate. Each change is
 * recorded in the audit trail after the engine carried it out.
 */
export class ContainerService {
  constructor(private readonly deps: ContainerServiceDeps) {}

  async create(actor: AuditActor, nodeId: string, input: ContainerCreation): Promise<ContainerDetail> {
    checkCreation(input);
    const { engine } = await this.deps.engineNodes.engine(nodeId);
    const start = input.start ?? false;
    const id = await this.build(engine, nodeId, createPlan(input), start);
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
    const alreadyRunning = await this.act(nodeId, containerId, async (container) => {
      try {
        await container.start();
        return false;
      } catch (error) {
        if (alreadyDone(error)) return true;
        throw error;
      }
    });
    await recordEngineChange(this.deps, actor, 'container', 'started', containerId, {
      nodeId,
      alreadyRunning,
    });
  }

  /** Stops a container; one that is already stopped is success (the engine answers 304). */
  async stop(actor: AuditActor, nodeId: string, containerId: string, { timeout }: StopOptions) {
    const alreadyStopped = await this.act(
      nodeId,
      containerId,
      async (container) => {
        try {
          await container.stop(timeout === undefined ? {} : { t: timeout });
          return false;
        } catch (error) {
          if (alreadyDone(error)) return true;
          throw error;
        }
      },
      (timeout ?? ENGINE_DEFAULT_STOP_SECONDS) * 1000,
    );
    await recordEngineChange(this.deps, actor, 'container', 'stopped', containerId, {
      nodeId,
      timeout: timeout ?? null,
      alreadyStopped,
    });
  }

  async restart(actor: AuditActor, nodeId: string, containerId: string, { timeout }: StopOptions) {
    await this.act(
      nodeId,
      containerId,
      (container) => container.restart(timeout === undefined ? {} : { t: timeout }),
      (timeout ?? ENGINE_DEFAULT_STOP_SECONDS) * 1000,
    );
    await recordEngineChange(this.deps, actor, 'container', 'restarted', containerId, {
      nodeId,
      timeout: timeout ?? null,
    });
  }

  async kill(actor: AuditActor, nodeId: string, containerId: string, { signal }: KillOptions) {
    await this.act(nodeId, containerId, (container) => container.kill(signal ? { signal } : {}));
    await recordEngineChange(this.deps, actor, 'container', 'killed', containerId, {
      nodeId,
      signal: signal ?? 'SIGKILL',
    });
  }

  async pause(actor: AuditActor, nodeId: string, containerId: string) {
    await this.act(nodeId, containerId, (container) => container.pause());
    await recordEngineChange(this.deps, actor, 'container', 'paused', containerId, { nodeId });
  }

  async unpause(actor: AuditActor, nodeId: string, containerId: string) {
    await this.act(nodeId, containerId, (container) => container.unpause());
    await recordEngineChange(this.deps, actor, 'container', 'unpaused', containerId, { nodeId });
  }

  /** Removes a container; a running one needs `force` (409 otherwise). */
  async remove(actor: AuditActor, nodeId: string, containerId: string, query: RemoveQuery) {
    const force = query.force ?? false;
    const removeVolumes = query.removeVolumes ?? false;
    await this.act(nodeId, containerId, (container) => container.remove({ force, v: removeVolumes }));
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
    const { engine } = await this.deps.engineNodes.engine(nodeId);
    const what = { nodeId, containerId };
    const old = await engine.call(what, (docker) => docker.getContainer(containerId).inspect());
    const pull = options.pull ?? false;
    if (pull) await this.deps.puller.pull(engine, nodeId, this.deps.puller.reference(old.Config.Image));
    const name = stripSlash(old.Name);
    const running = old.State?.Running ?? false;
    const previous = <T>(work: (container: Docker.Container) => Promise<T>, extraMs = 0) =>
      engine.call(what, (docker) => work(docker.getContainer(old.Id)), extraMs);
    if (running)
      await previous(
        (container) =>
          container.stop().catch((error) => (alreadyDone(error) ? undefined : Promise.reject(error))),
        ENGINE_DEFAULT_STOP_SECONDS * 1000,
      );
    await previous((container) =>
      container.rename({ name: `${name}-replaced-${crypto.randomBytes(3).toString('hex')}` }),
    );
    let id: string;
    try {
      id = await this.build(engine, nodeId, recreatePlan(old), running);
    } catch (error) {
      await previous((container) => container.rename({ name }));
      if (running) await previous((container) => container.start());
      throw error;
    }
    await previous((container) => container.remove({ force: true, v: false }));
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
  private async build(engine: Engine, nodeId: string, plan: CreatePlan, start: boolean): Promise<string> {
    const what = { nodeId, image: plan.options.Image };
    const container = await engine.call(what, (docker) => docker.createContainer(plan.options));
    try {
      for (const network of plan.extraNetworks)
        await engine.call({ nodeId, network: network.name }, (docker) =>
          docker
            .getNetwork(network.name)
            .connect({ Container: container.id, EndpointConfig: network.endpoint }),
        );
      if (start) await engine.call({ nodeId, containerId: container.id }, () => container.start());
    } catch (error) {
      await engine.call({ nodeId }, () => container.remove({ force: true })).catch(() => {});
      throw error;
    }
    return container.id;
  }

  /** Runs one engine action on a container (404 when the engine does not know it). */
  private async act<T>(
    nodeId: string,
    containerId: string,
    action: (container: Docker.Container) => Promise<T>,
    extraMs = 0,
  ): Promise<T> {
    const { engine } = await this.deps.engineNodes.engine(nodeId);
    return engine.call(
      { nodeId, containerId },
      (docker) => action(docker.getContainer(containerId)),
      extraMs,
    );
  }
}
