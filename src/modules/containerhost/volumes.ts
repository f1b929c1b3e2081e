import type { AuditActor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { conflict, validationError } from '../../core/errors.js';
import { labelIssues } from './container-spec.js';
import { recordEngineChange } from './engine-audit.js';
import type { EngineNodeService } from './engine-nodes.js';
import { stripSlash } from './engine-port.js';
import type { ResourceService } from './resources.js';
import type { Volume } from './schemas/resources.js';
import type { VolumeCreation } from './schemas/volumes.js';

/** A node's volumes: create and delete, each change audited. */
export class VolumeService {
  constructor(
    private readonly deps: Pick<Deps, 'db' | 'audit'> & {
      engineNodes: EngineNodeService;
      resources: ResourceService;
    },
  ) {}

  /** Creates a volume; a name in use is 409 (engines would answer the existing volume instead). */
  async create(actor: AuditActor, nodeId: string, input: VolumeCreation): Promise<Volume> {
    const issues = labelIssues(input.labels);
    if (issues.length > 0) throw validationError(issues);
    const { engine } = await this.deps.engineNodes.engine(nodeId);
    if (await engine.volumeExists(input.name)) throw conflict('VOLUME_NAME_TAKEN', { name: input.name });
    const driver = input.driver ?? 'local';
    await engine.createVolume({ name: input.name, driver, labels: input.labels ?? {} });
    await recordEngineChange(this.deps, actor, 'volume', 'created', input.name, { nodeId, driver });
    return this.deps.resources.inspectVolume(nodeId, input.name);
  }

  /**
   * Deletes a volume. One in use is 409 unless `force`, which first removes the containers that use it
   * (running ones too); their names are in the audit event.
   */
  async remove(actor: AuditActor, nodeId: string, name: string, force: boolean): Promise<void> {
    const { engine } = await this.deps.engineNodes.engine(nodeId);
    await engine.inspectVolume(name);
    const users = force ? await engine.listContainers({ all: true, volume: name }) : [];
    for (const user of users) await engine.removeContainer(user.Id, { force: true });
    await engine.removeVolume(name);
    await recordEngineChange(this.deps, actor, 'volume', 'deleted', name, {
      nodeId,
      force,
      removedContainers: users.map((user) => stripSlash(user.Names?.[0])),
    });
  }
}
