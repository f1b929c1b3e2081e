import type { AuditActor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import type { ServerSentEvent } from '../../core/sse.js';
import { recordEngineChange } from './engine-audit.js';
import type { EngineNodeService } from './engine-nodes.js';
import type { ImagePuller, PullSession } from './image-pull.js';
import type { ResourceService } from './resources.js';
import type { ImagePrune, ImagePull, ImageRemoval } from './schemas/images.js';
import type { ImageDetail } from './schemas/resources.js';

interface ImageServiceDeps extends Pick<Deps, 'db' | 'audit'> {
  engineNodes: EngineNodeService;
  resources: ResourceService;
  puller: ImagePuller;
}

/** Pulls (with progress), removes and prunes a node's images. */
export class ImageService {
  constructor(private readonly deps: ImageServiceDeps) {}

  /**
   * Starts a pull and answers its events once the engine accepted it: `progress` per message, then
   * `pulled` with the image. Failures before that are thrown (answered as JSON); later ones end the
   * iteration with the error.
   */
  async pullEvents(
    actor: AuditActor,
    nodeId: string,
    input: ImagePull,
    signal: AbortSignal,
  ): Promise<AsyncIterable<ServerSentEvent>> {
    const session = await this.open(nodeId, input, signal);
    const finish = () => this.finish(actor, nodeId, session);
    return (async function* () {
      for await (const progress of session.progress) yield { event: 'progress', data: progress };
      yield { event: 'pulled', data: await finish() };
    })();
  }

  /** Pulls an image and answers it once the pull is done. */
  async pull(actor: AuditActor, nodeId: string, input: ImagePull, signal: AbortSignal): Promise<ImageDetail> {
    const session = await this.open(nodeId, input, signal);
    for await (const _ of session.progress) {
      // The answer is the image at the end.
    }
    return this.finish(actor, nodeId, session);
  }

  async remove(actor: AuditActor, nodeId: string, imageId: string, force: boolean): Promise<ImageRemoval> {
    const { engine } = await this.deps.engineNodes.engine(nodeId);
    const removal = await engine.removeImage(imageId, { force });
    await recordEngineChange(this.deps, actor, 'image', 'deleted', imageId, { nodeId, force, ...removal });
    return removal;
  }

  /** Removes dangling images (untagged and unused). */
  async prune(actor: AuditActor, nodeId: string): Promise<ImagePrune> {
    const { engine } = await this.deps.engineNodes.engine(nodeId);
    const pruned = await engine.pruneDanglingImages();
    await this.deps.audit.recordAlone(this.deps.db, actor, {
      action: 'containerhost.image.pruned',
      targetType: 'containerhost_node',
      targetId: nodeId,
      metadata: { nodeId, deleted: pruned.deleted.length, spaceReclaimed: pruned.spaceReclaimed },
    });
    return pruned;
  }

  private async open(nodeId: string, input: ImagePull, signal: AbortSignal): Promise<PullSession> {
    const reference = this.deps.puller.reference(input.image);
    const { engine } = await this.deps.engineNodes.engine(nodeId);
    return this.deps.puller.open(engine, nodeId, reference, input.credentials, signal);
  }

  /** The pulled image, recorded in the audit trail (with where its credentials came from, never them). */
  private async finish(actor: AuditActor, nodeId: string, session: PullSession): Promise<ImageDetail> {
    const image = session.reference.name;
    const detail = await this.deps.resources.inspectImage(nodeId, image);
    await recordEngineChange(this.deps, actor, 'image', 'pulled', detail.id, {
      nodeId,
      image,
      registry: session.reference.registry,
      credentials: session.credentials,
    });
    return detail;
  }
}
