import type { AuditActor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { unprocessable, type ValidationIssue, validationError } from '../../core/errors.js';
import { BUILT_IN_NETWORKS, stripSlash } from './docker.js';
import type { EngineNodeService } from './engine-nodes.js';
import { runExec } from './engine-exec.js';
import type { Disconnection, FileMove, StopOptions } from './schemas/actions.js';

/** How much of mv's output an error message carries. */
const MESSAGE_LIMIT_BYTES = 64 * 1024;

/** Operator actions on a node's containers and networks, each audited after the engine carried it out. */
export class ActionService {
  constructor(private readonly deps: Pick<Deps, 'db' | 'audit'> & { engineNodes: EngineNodeService }) {}

  /** Stops a container; one that is already stopped is success (the engine answers 304). */
  async stopContainer(actor: AuditActor, nodeId: string, containerId: string, { timeout }: StopOptions) {
    const { engine } = await this.deps.engineNodes.engine(nodeId);
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
    { containerId, force }: Disconnection & { force: boolean },
  ) {
    const { engine } = await this.deps.engineNodes.engine(nodeId);
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
   * check here: the gateway's input guard (core/input-guard.ts) refuses it in every request.
   */
  async moveFile(actor: AuditActor, nodeId: string, containerId: string, { fromPath, toPath }: FileMove) {
    const issues: ValidationIssue[] = [];
    for (const [field, value] of [
      ['fromPath', fromPath],
      ['toPath', toPath],
    ] as const) {
      if (!value.startsWith('/')) issues.push({ path: [field], message: 'must be an absolute path' });
    }
    if (issues.length > 0) throw validationError(issues);
    const { engine } = await this.deps.engineNodes.engine(nodeId);
    const container = await engine.call({ nodeId, containerId }, (docker) =>
      docker.getContainer(containerId).inspect(),
    );
    if (!container.State?.Running)
      throw unprocessable(
        'CONTAINER_NOT_RUNNING',
        `container ${stripSlash(container.Name)} is ${container.State?.Status ?? 'not running'}; files can only be moved in a running container`,
      );
    const result = await runExec(
      engine,
      { nodeId, containerId },
      container.Id,
      { cmd: ['mv', fromPath, toPath] },
      { timeoutMs: engine.timeoutMs, outputLimitBytes: MESSAGE_LIMIT_BYTES },
    );
    if (result.timedOut)
      throw unprocessable('ENGINE_TIMEOUT', `mv did not finish within ${engine.timeoutMs} ms`);
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
