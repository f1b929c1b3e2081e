import type { AuditActor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { unprocessable, type ValidationIssue, validationError } from '../../core/errors.js';
import { stripSlash } from './docker.js';
import { recordEngineChange } from './engine-audit.js';
import { runTool } from './engine-exec.js';
import type { EngineNodeService } from './engine-nodes.js';
import type { FileMove, StopOptions } from './schemas/actions.js';

/** Stopping a container and moving a file inside it, each audited after the engine carried it out. */
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
    await recordEngineChange(this.deps, actor, 'container', 'stopped', containerId, {
      nodeId,
      timeout: timeout ?? null,
      alreadyStopped,
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
    const { exitCode, message } = await runTool(engine, { nodeId, containerId }, container.Id, [
      'mv',
      fromPath,
      toPath,
    ]);
    if (exitCode !== 0) throw unprocessable('MOVE_FAILED', message, { exitCode });
    await recordEngineChange(this.deps, actor, 'container', 'file_moved', container.Id, {
      nodeId,
      container: stripSlash(container.Name),
      fromPath,
      toPath,
    });
  }
}
