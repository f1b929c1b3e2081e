import type { Deps } from '../../core/deps.js';
import { AppError, unprocessable } from '../../core/errors.js';
import type { containerhostNodes } from '../../db/schema/index.js';
import type { ArchiveTarget } from './archive.js';
import type { EnginePort } from './engine-port.js';
import type { ImagePuller } from './image-pull.js';

/** A helper container with a volume mounted at /volume, ready for the archive API; remove it after use. */
export interface HelperContainer {
  target: ArchiveTarget;
  remove(): Promise<void>;
}

type NodeRow = typeof containerhostNodes.$inferSelect;

/**
 * Short-lived helper containers through which the gateway reads and writes a volume: created from the
 * node's helper image (pulled when the node lacks it), never started, no network, the volume mounted at
 * /volume, and removed afterwards.
 */
export class HelperContainers {
  constructor(private readonly deps: Pick<Deps, 'config' | 'log'> & { puller: ImagePuller }) {}

  async open(
    engine: EnginePort,
    node: NodeRow,
    volumeName: string,
    purpose: string,
  ): Promise<HelperContainer> {
    const nodeId = node.id;
    const what = { nodeId, volume: volumeName };
    await engine.inspectVolume(volumeName);
    const image = node.helperImage ?? this.deps.config.helperImage;
    const create = () =>
      engine.createContainer({
        Image: image,
        Cmd: ['true'],
        Labels: { 'io.infragate.helper': purpose },
        NetworkDisabled: true,
        HostConfig: { Binds: [`${volumeName}:/volume`], NetworkMode: 'none' },
      });
    let helper: Awaited<ReturnType<typeof create>>;
    try {
      helper = await create();
    } catch (error) {
      // The volume was found above, so the engine's 404 is about the image.
      if (!(error instanceof AppError && error.code === 'NOT_FOUND')) throw error;
      await this.pullHelperImage(engine, nodeId, image);
      helper = await create();
    }
    return {
      target: { engine, containerId: helper.id, root: '/volume', what },
      remove: () =>
        engine
          .removeContainer(helper.id, { force: true })
          .catch((error: unknown) =>
            this.deps.log.warn({ err: error, helper: helper.id }, 'helper container not removed'),
          ),
    };
  }

  /** Pulls the helper image; a failed pull says what went wrong and how to fix it. */
  private async pullHelperImage(engine: EnginePort, nodeId: string, image: string): Promise<void> {
    try {
      await this.deps.puller.pull(engine, nodeId, this.deps.puller.reference(image, 'helperImage'));
    } catch (error) {
      const cause =
        error instanceof AppError ? (error.details as Record<string, unknown> | undefined) : undefined;
      const because = String(cause?.explanation ?? cause?.engineMessage ?? (error as Error).message);
      throw unprocessable(
        'HELPER_IMAGE_PULL_FAILED',
        `the helper image ${image} is not on the node and pulling it failed: ${because}; push it to a registry the node can reach, store that registry's credentials for the node, or set the node's helperImage`,
        { image, pullReason: cause?.reason ?? (error instanceof AppError ? error.code : null) },
      );
    }
  }
}
